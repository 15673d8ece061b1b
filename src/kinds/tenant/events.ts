import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const TENANT_TITLES = eventCatalog(events);
