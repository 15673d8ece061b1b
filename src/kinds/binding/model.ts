/**
 * The four binding kinds (the wire kinds), as stored in `role_bindings.kind`. Here rather than beside
 * the SQL of holders.ts: the codecs (and the CLI's kind table) load without the query builder.
 */
export const BINDING_KINDS = {
  workspaceUser: 'meshWorkspaceUserBinding',
  workspaceGroup: 'meshWorkspaceGroupBinding',
  projectUser: 'meshProjectUserBinding',
  projectGroup: 'meshProjectGroupBinding',
} as const;

export type BindingKind = (typeof BINDING_KINDS)[keyof typeof BINDING_KINDS];

export type BindingLevel = 'workspace' | 'project';
export type SubjectType = 'user' | 'group';

/** What each binding kind binds (a user or a group, to a workspace or a project role) and its collection path. */
export const BINDING_SHAPES: Record<BindingKind, { level: BindingLevel; subject: SubjectType; path: string }> = {
  meshWorkspaceUserBinding: { level: 'workspace', subject: 'user', path: '/api/meshobjects/meshworkspacebindings/userbindings' },
  meshWorkspaceGroupBinding: { level: 'workspace', subject: 'group', path: '/api/meshobjects/meshworkspacebindings/groupbindings' },
  meshProjectUserBinding: { level: 'project', subject: 'user', path: '/api/meshobjects/meshprojectbindings/userbindings' },
  meshProjectGroupBinding: { level: 'project', subject: 'group', path: '/api/meshobjects/meshprojectbindings/groupbindings' },
};

/**
 * A role binding: a user or a workspace user group (the subject, by username or by the
 * group's name in the target's workspace) holds a role on a workspace or on a project of it. Its
 * name is unique per binding kind.
 */
export interface Binding {
  kind: BindingKind;
  name: string;
  workspace: string;
  /** Project bindings: the project (of `workspace`). */
  project?: string;
  /** The role as bindings name it: a workspace role, or the project role's `spec.name`. */
  role: string;
  /** Project bindings: the project role's identifier. */
  projectRole?: string;
  /** A username, or a group's name (of `workspace`). */
  subject: string;
  collection?: string;
  createdOn: string;
  /** `YYYY-MM-DD`: the last day the binding holds (as sent); absent: it never expires. */
  expiryDate?: string;
  /** The target's `spec.displayName` (workspace or project), for `targetRef.displayName`. */
  targetDisplayName: string;
}

export interface BindingInput {
  kind: BindingKind;
  name: string;
  workspace: string;
  project?: string;
  role: string;
  subject: string;
  expiryDate?: string;
}
