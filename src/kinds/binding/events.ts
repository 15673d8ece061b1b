import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const BINDING_TITLES = {
  workspaceUserRoleAdded: { title: 'Workspace User Role Added', eventType: 'Added' },
  workspaceUserRoleChanged: { title: 'Workspace User Role Changed', eventType: 'Changed' },
  workspaceUserRoleRemoved: { title: 'Workspace User Role Removed', eventType: 'Removed' },
  workspaceGroupRoleAdded: { title: 'Workspace Group Role Added', eventType: 'Added' },
  workspaceGroupRoleChanged: { title: 'Workspace Group Role Changed', eventType: 'Changed' },
  workspaceGroupRoleRemoved: { title: 'Workspace Group Role Removed', eventType: 'Removed' },
  projectUserRoleAdded: { title: 'Project User Role Added', eventType: 'Added' },
  projectUserRoleChanged: { title: 'Project User Role Changed', eventType: 'Changed' },
  projectUserRoleRemoved: { title: 'Project User Role Removed', eventType: 'Removed' },
  projectGroupRoleAdded: { title: 'Project Group Role Added', eventType: 'Added' },
  projectGroupRoleChanged: { title: 'Project Group Role Changed', eventType: 'Changed' },
  projectGroupRoleRemoved: { title: 'Project Group Role Removed', eventType: 'Removed' },
} as const satisfies Record<string, EventTitle>;
