import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const INTEGRATION_TITLES = {
  integrationCreated: { title: 'Integration Created', eventType: 'Created' },
  integrationChanged: { title: 'Integration Changed', eventType: 'Changed' },
  integrationDeleted: { title: 'Integration Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
