import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const BLOCK_TITLES = {
  blockCreated: { title: 'Building Block Created', eventType: 'Created' },
  /** new: a PUT (inputs, version, name) */
  blockChanged: { title: 'Building Block Changed', eventType: 'Changed' },
  /** new: the block follows its run (PENDING → IN_PROGRESS → SUCCEEDED …) */
  blockStatusChanged: { title: 'Building Block Status Changed', eventType: 'Changed' },
  /** new: DELETE accepted (the block is marked; a DESTROY run may follow) */
  blockDeletionRequested: { title: 'Building Block Deletion Requested', eventType: 'Requested' },
  blockDeleted: { title: 'Building Block Deleted', eventType: 'Deleted' },
  runRequested: { title: 'Building Block Run Requested', eventType: 'Requested' },
  /** new */
  runClaimed: { title: 'Building Block Run Claimed', eventType: 'Changed' },
  /** new: a status report changed the run's status */
  runStatusChanged: { title: 'Building Block Run Status Changed', eventType: 'Changed' },
  /** new: a status report changed steps, messages or outputs but not the status */
  runStepsChanged: { title: 'Building Block Run Steps Changed', eventType: 'Changed' },
  /** new: a run aborted (its block was purged) */
  runCancelled: { title: 'Building Block Run Cancelled', eventType: 'Cancelled' },
} as const satisfies Record<string, EventTitle>;
