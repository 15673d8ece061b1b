import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const WORKSPACE_TITLES = eventCatalog(events);
