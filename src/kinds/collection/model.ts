import { unprocessable } from '../../lib/errors.js';

/** Its collection path. */
export const COLLECTIONS_PATH = '/api/meshobjectcollections';

/**
 * A meshObjectCollection (beta): a named set of imported workspace user groups and
 * workspace user/group bindings. An import into the collection deletes those of its objects the
 * import no longer names (declarative deletion), so what it holds is fenced by its owner.
 */
export interface ObjectCollection {
  name: string;
  /** The published API's `owner`: a label naming the collection together with `name`, nothing more. */
  owner: string;
  /**
   * Whose collection it is: a workspace (its keys use it; it holds only that workspace's groups and
   * bindings), or null: admins of workspace bindings only (it holds any workspace's).
   */
  ownedByWorkspace: string | null;
  description: string;
  createdOn: string;
}

/** The kinds declarative deletion covers (openapi-notes §1.3, §4). */
export const COLLECTED_KINDS = ['meshWorkspaceUserGroup', 'meshWorkspaceUserBinding', 'meshWorkspaceGroupBinding'] as const;
export type CollectedKind = (typeof COLLECTED_KINDS)[number];

export const isCollectedKind = (kind: string): kind is CollectedKind => (COLLECTED_KINDS as readonly string[]).includes(kind);

/**
 * What the collection's owner may hold, asked of every object an import puts into it (`workspace`:
 * the object's, undefined for objects of no workspace). A workspace's collection takes only the
 * collected kinds of that workspace, so no other workspace can plant into it what its owner cannot
 * delete; an admins' collection takes whatever its caller may write. 422 naming the object.
 */
export function requireHoldable(collection: ObjectCollection, kind: string, workspace: string | undefined, meshObject: string): void {
  const owner = collection.ownedByWorkspace;
  if (owner === null) return;
  if (!isCollectedKind(kind)) {
    throw unprocessable(
      `kind: ${meshObject} cannot be imported into meshObjectCollection ${collection.name} of meshWorkspace ${owner}, which holds only its ${COLLECTED_KINDS.join(', ')}; import it without the collection`,
    );
  }
  if (workspace !== owner) {
    throw unprocessable(
      `${meshObject} of meshWorkspace ${workspace ?? '?'} cannot be in meshObjectCollection ${collection.name}, which holds only objects of meshWorkspace ${owner}`,
    );
  }
}

/** One object of a collection: a group (`<workspace>.<group>`) or a binding (its name). */
export interface CollectedObject {
  kind: CollectedKind;
  workspace: string;
  /** The group's full identifier or the binding's name: what the import reports. */
  id: string;
  /** The group's name, or the binding's name. */
  name: string;
}
