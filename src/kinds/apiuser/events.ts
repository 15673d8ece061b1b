import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const API_USER_TITLES = {
  apiUserCreated: { title: 'API User Created', eventType: 'Created' },
  apiUserChanged: { title: 'API User Changed', eventType: 'Changed' },
  apiUserPasswordRotated: { title: 'API User Password Rotated', eventType: 'Changed' },
  apiUserDeleted: { title: 'API User Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
