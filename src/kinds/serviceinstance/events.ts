import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const SERVICE_INSTANCE_TITLES = eventCatalog(events);
