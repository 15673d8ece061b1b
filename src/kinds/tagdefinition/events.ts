import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const TAG_DEFINITION_TITLES = eventCatalog(events);
