import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const COLLECTION_TITLES = {
  /** new */
  collectionCreated: { title: 'Object Collection Created', eventType: 'Created' },
  /** new */
  collectionDeleted: { title: 'Object Collection Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
