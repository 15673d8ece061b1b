import type { SentObject } from '../document.js';

/** Its collection path. */
export const USERS_PATH = '/api/meshobjects/meshusers';

/** A meshUser: identified by its username (`metadata.name`), with a uuid of its own. */
export interface User {
  username: string;
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  /** External user id (unique when set). */
  euid?: string;
  createdOn: string;
  /** When the user was last written (absent: never since it was created). */
  updatedOn?: string;
  /** `metadata` and `spec` as sent (tags and fields the service does not interpret). */
  document: SentObject;
  /** False for a user a SCIM client deactivated (kept, with its memberships and bindings); absent: active. */
  active?: boolean;
  /** SCIM attributes meshUser has no field for (SCIM's `displayName`, `name.formatted`, `title`, …), as the client sent them. */
  scim?: Record<string, unknown>;
}

export type UserInput = Omit<User, 'uuid' | 'createdOn' | 'updatedOn'>;

/** The workspace roles (fixed, spec and OpenAPI): only the Owner role cannot go to a group. */
export const WORKSPACE_ROLES = ['Workspace Owner', 'Workspace Manager', 'Workspace Member'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];
