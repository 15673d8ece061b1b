import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const USER_GROUP_TITLES = eventCatalog(events);
