import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const USER_GROUP_TITLES = {
  /** new */
  groupCreated: { title: 'Workspace Group Created', eventType: 'Created' },
  groupMembersAdded: { title: 'Workspace Group Members Added', eventType: 'Added' },
  groupMembersRemoved: { title: 'Workspace Group Members Removed', eventType: 'Removed' },
  /** new: a change of anything but the members (display name, egid, tags) */
  groupChanged: { title: 'Workspace Group Changed', eventType: 'Changed' },
  /** new: with its memberships and the bindings naming it */
  groupDeleted: { title: 'Workspace Group Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
