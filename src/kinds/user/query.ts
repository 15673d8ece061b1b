import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { parseFullPlatformIdentifier } from '../platform/model.js';
import type { UserFilter } from './store.js';

const PLAIN = ['uuid', 'euid', 'username', 'email', 'firstName', 'lastName'] as const;
const ALL = [...PLAIN, 'workspaceIdentifier', 'projectIdentifier', 'platformIdentifier', 'workspaceRole', 'projectRole'] as const;

/** The user list's filters, as its route documents them. */
export const USER_FILTERS = {
  uuid: Filter('the user with this uuid', { format: 'uuid' }),
  euid: Filter('the user with this external id'),
  username: Filter('the user with this username'),
  email: Filter('users with this email'),
  firstName: Filter('users with this first name'),
  lastName: Filter('users with this last name'),
  workspaceIdentifier: Filter('users holding a role in this workspace (directly or through a group)'),
  projectIdentifier: Filter('users holding a role in this project (requires workspaceIdentifier)'),
  platformIdentifier: Filter('users with a project role on a project with a tenant on this platform (<platform>.<location>)'),
  workspaceRole: Filter('users holding this workspace role'),
  projectRole: Filter('users holding this project role'),
  workspaceUserGroupIdentifier: Filter('members of this group (<workspace>.<group>, or the group’s name); only alone'),
};

/**
 * The user list's filters (OpenAPI, exact, AND): `uuid`, `euid`, `username`, `email`, `firstName`,
 * `lastName`; `workspaceIdentifier` (users holding a workspace role there, directly or through a
 * group), `projectIdentifier` (requires `workspaceIdentifier`, else 400), `platformIdentifier`
 * (a project role on a project with a live tenant on the platform), `workspaceRole`, `projectRole`
 * (direct and group-derived); `workspaceUserGroupIdentifier` (`<workspace>.<group>` or the group's
 * name alone) only alone (400 beside another filter). `'none'`: a value that can match nothing.
 */
export function parseUserFilter(query: Query): UserFilter | 'none' {
  const group = filterValue(query, 'workspaceUserGroupIdentifier');
  if (group !== undefined) {
    const other = ALL.find((name) => filterValue(query, name) !== undefined);
    if (other !== undefined) throw badRequest(`workspaceUserGroupIdentifier: must be used alone, not with ${other}`);
    const dot = group.indexOf('.');
    return { group: dot < 0 ? { name: group } : { workspace: group.slice(0, dot), name: group.slice(dot + 1) } };
  }
  const filter: UserFilter = {};
  for (const name of PLAIN) {
    const value = filterValue(query, name);
    if (value !== undefined) filter[name] = value;
  }
  const workspace = filterValue(query, 'workspaceIdentifier');
  const project = filterValue(query, 'projectIdentifier');
  if (project !== undefined && workspace === undefined) throw badRequest('projectIdentifier: requires workspaceIdentifier');
  if (workspace !== undefined) filter.workspace = workspace;
  if (project !== undefined) filter.project = project;
  const workspaceRole = filterValue(query, 'workspaceRole');
  if (workspaceRole !== undefined) filter.workspaceRole = workspaceRole;
  const projectRole = filterValue(query, 'projectRole');
  if (projectRole !== undefined) filter.projectRole = projectRole;
  const platform = filterValue(query, 'platformIdentifier');
  if (platform !== undefined) {
    const parts = parseFullPlatformIdentifier(platform);
    if (!parts) return 'none';
    filter.platform = parts;
  }
  return filter;
}
