import type { SentObject } from '../document.js';

/** Its collection path. */
export const USER_GROUPS_PATH = '/api/meshobjects/meshworkspaceusergroups';

/**
 * A meshWorkspaceUserGroup: owned by a workspace, `<workspace>.<group>` in URLs; its
 * members are usernames (in the order sent). `document` holds metadata and spec as sent, without members.
 */
export interface UserGroup {
  workspace: string;
  name: string;
  members: string[];
  /** The meshObjectCollection the import put it in (declarative deletion). */
  collection?: string;
  createdOn: string;
  /** When the group was last written (absent: never since it was created). */
  updatedOn?: string;
  document: SentObject;
}

export type UserGroupInput = Omit<UserGroup, 'createdOn' | 'updatedOn' | 'collection'>;

export const groupIdentifier = (group: Pick<UserGroup, 'workspace' | 'name'>) => `${group.workspace}.${group.name}`;

/** `<workspace>.<group>` → its parts; undefined for another shape. */
export function parseGroupIdentifier(id: string): { workspace: string; name: string } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) return undefined;
  return { workspace: id.slice(0, dot), name: id.slice(dot + 1) };
}
