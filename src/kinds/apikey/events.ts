import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const API_KEY_TITLES = eventCatalog(events);
