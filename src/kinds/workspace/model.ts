import type { SentObject } from '../document.js';

/** Its collection path. */
export const WORKSPACES_PATH = '/api/meshobjects/meshworkspaces';

/** The internal workspace: identified by its name (COMPAT §7). */
export interface Workspace {
  name: string;
  createdOn: string;
  /** `metadata` (with `tags`) and `spec` as sent. */
  document: SentObject;
}

export interface WorkspaceInput {
  name: string;
  document: SentObject;
}

/** The workspace that owns the admin keys the service makes itself (and the original's admin-only objects). */
export const ADMIN_WORKSPACE = 'admin';
