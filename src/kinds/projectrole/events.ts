import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const PROJECT_ROLE_TITLES = {
  projectRoleCreated: { title: 'Project Role Created', eventType: 'Created' },
  projectRoleChanged: { title: 'Project Role Changed', eventType: 'Changed' },
  projectRoleDeleted: { title: 'Project Role Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
