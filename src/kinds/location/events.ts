import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const LOCATION_TITLES = eventCatalog(events);
