import { Type } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import type { BindingLevel } from './model.js';
import type { BindingFilter } from './store.js';

/** The binding lists' filters, by level, as their routes document them. */
export const BINDING_FILTERS = {
  workspace: {
    workspaceIdentifier: Filter('bindings of this workspace'),
    workspaceRole: Filter('bindings to this workspace role'),
    username: Filter('user bindings of this user; group bindings of groups the user is a member of'),
  },
  project: {
    workspaceIdentifier: Type.String({ description: 'the project’s workspace (required)' }),
    projectIdentifier: Type.String({ description: 'the project (required)' }),
  },
};

/**
 * The binding lists' filters (OpenAPI, exact, AND). Workspace bindings: `workspaceIdentifier`,
 * `workspaceRole`, `username` (user bindings of the user; group bindings of groups the user is a
 * member of). Project bindings: `workspaceIdentifier` and `projectIdentifier`, both required (400).
 */
export function parseBindingFilter(query: Query, level: BindingLevel): BindingFilter {
  const workspace = filterValue(query, 'workspaceIdentifier');
  if (level === 'project') {
    const project = filterValue(query, 'projectIdentifier');
    if (workspace === undefined) throw badRequest('workspaceIdentifier: required (with projectIdentifier)');
    if (project === undefined) throw badRequest('projectIdentifier: required (with workspaceIdentifier)');
    return { workspace, project };
  }
  const role = filterValue(query, 'workspaceRole');
  const username = filterValue(query, 'username');
  return {
    ...(workspace !== undefined ? { workspace } : {}),
    ...(role !== undefined ? { role } : {}),
    ...(username !== undefined ? { username } : {}),
  };
}
