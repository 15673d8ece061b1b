import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const COMMUNICATION_TITLES = {
  /** each of the three moves the definition's counters (the description says how they stand in the receiving workspace) */
  communicationCreated: { title: 'Communication Created', eventType: 'Created' },
  communicationResolved: { title: 'Communication Resolved', eventType: 'Changed' },
  communicationDeleted: { title: 'Communication Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
