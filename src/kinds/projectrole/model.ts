import type { SentObject } from '../document.js';

/** Its collection path. */
export const PROJECT_ROLES_PATH = '/api/meshobjects/meshprojectroles';

/**
 * A meshProjectRole: identified by `metadata.name` (`project-admin`); bindings name it by
 * `spec.name` ("Project Admin", unique), its display name.
 */
export interface ProjectRole {
  name: string;
  displayName: string;
  createdOn: string;
  document: SentObject;
}

export type ProjectRoleInput = Omit<ProjectRole, 'createdOn'>;
