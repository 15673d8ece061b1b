/**
 * A meshObjectCollection (issue 19, beta): a named set of imported workspace user groups and
 * workspace user/group bindings. An import into the collection deletes those of its objects the
 * import no longer names (declarative deletion).
 */
export interface ObjectCollection {
  name: string;
  owner: string;
  description: string;
  createdOn: string;
}

/** The kinds declarative deletion covers (openapi-notes §1.3, §4). */
export const COLLECTED_KINDS = ['meshWorkspaceUserGroup', 'meshWorkspaceUserBinding', 'meshWorkspaceGroupBinding'] as const;
export type CollectedKind = (typeof COLLECTED_KINDS)[number];

export const isCollectedKind = (kind: string): kind is CollectedKind => (COLLECTED_KINDS as readonly string[]).includes(kind);

/** One object of a collection: a group (`<workspace>.<group>`) or a binding (its name). */
export interface CollectedObject {
  kind: CollectedKind;
  workspace: string;
  /** The group's full identifier or the binding's name: what the import reports. */
  id: string;
  /** The group's name, or the binding's name. */
  name: string;
}
