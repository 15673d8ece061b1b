import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const PLATFORM_TYPE_TITLES = {
  /** new */
  platformTypeCreated: { title: 'Platform Type Created', eventType: 'Created' },
  /** new */
  platformTypeChanged: { title: 'Platform Type Changed', eventType: 'Changed' },
  /** new: DELETE deactivates */
  platformTypeDeactivated: { title: 'Platform Type Deactivated', eventType: 'Changed' },
} as const satisfies Record<string, EventTitle>;
