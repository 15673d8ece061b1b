import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const LANDING_ZONE_TITLES = eventCatalog(events);
