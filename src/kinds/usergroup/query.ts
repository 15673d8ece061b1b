import { Filter, filterValue, type Query } from '../../lib/query.js';
import type { UserGroupFilter } from './store.js';

/** The group list's filters, as its route documents them. */
export const USER_GROUP_FILTERS = {
  workspaceIdentifier: Filter('groups of this workspace'),
  username: Filter('groups this user is a member of'),
};

/** The group list's filters (OpenAPI, exact, AND): `workspaceIdentifier`, `username` (groups the user is a member of). */
export function parseUserGroupFilter(query: Query): UserGroupFilter {
  const workspace = filterValue(query, 'workspaceIdentifier');
  const username = filterValue(query, 'username');
  return { ...(workspace !== undefined ? { workspace } : {}), ...(username !== undefined ? { username } : {}) };
}
