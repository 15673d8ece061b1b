import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const RUNNER_TITLES = {
  runnerCreated: { title: 'Building Block Runner Created', eventType: 'Created' },
  runnerChanged: { title: 'Building Block Runner Changed', eventType: 'Changed' },
  runnerDeleted: { title: 'Building Block Runner Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
