import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const USER_TITLES = {
  userCreated: { title: 'User Created', eventType: 'Created' },
  userChanged: { title: 'User Changed', eventType: 'Changed' },
  /** its group memberships and bindings go with it (the description says so) */
  userDeleted: { title: 'User Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
