import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const COMMUNICATION_DEFINITION_TITLES = eventCatalog(events);
