import { eventCatalog } from '../eventlog/titles.js';
import events from './events.json' with { type: 'json' };

export const PAYMENT_METHOD_TITLES = eventCatalog(events);
