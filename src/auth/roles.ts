/**
 * What a person's role bindings grant (README "People and roles"): each workspace role and each default
 * project role as a set of permission codes, the same codes API keys hold, so every access rule applies
 * to people exactly as to keys. The one place the mapping lives.
 */
import { ADMIN_CODES, PERMISSION_CODES, RESOURCES } from './permissions.js';
import type { WorkspaceRole } from '../kinds/user/model.js';

const codes = (...lists: (readonly string[])[]): ReadonlySet<string> => new Set(lists.flat());

const listCodes = (resources: readonly string[]) => resources.map((r) => `${r}_LIST`);

/** Every workspace-scoped code (no `ADM_`, no `MANAGED_`): what a key of the workspace can hold at most for its own objects. */
const WORKSPACE_CODES = [...PERMISSION_CODES].filter((code) => !code.startsWith('ADM_') && !code.startsWith('MANAGED_'));
const MANAGED_CODES = [...PERMISSION_CODES].filter((code) => code.startsWith('MANAGED_'));

/**
 * Reads a Workspace Member does not get: other keys of the workspace, Terraform states (they hold
 * secrets) and integrations (credentials of the platform team's repositories).
 */
const MEMBER_UNREAD = new Set(['APIKEY', 'TFSTATE', 'INTEGRATION']);

/** A member reads its workspace and orders building blocks in it: the self-service the workspace exists for. */
const MEMBER = codes(
  listCodes(RESOURCES.filter((r) => !MEMBER_UNREAD.has(r))),
  ['EVENTLOG_LIST', 'WORKSPACEUSERGROUP_LIST', 'PAYMENTMETHOD_LIST'],
  ['BUILDINGBLOCK_SAVE', 'BUILDINGBLOCK_DELETE'],
);

/** A manager does everything in the workspace (its definitions' blocks and runs too) but delete it. */
const MANAGER = codes(
  WORKSPACE_CODES.filter((code) => code !== 'WORKSPACE_DELETE'),
  MANAGED_CODES,
);

/** The owner: the manager's codes, and deleting the workspace (the original reserves that to owners). */
const OWNER = codes([...MANAGER, 'WORKSPACE_DELETE']);

export const WORKSPACE_ROLE_CODES: ReadonlyMap<string, ReadonlySet<string>> = new Map<WorkspaceRole, ReadonlySet<string>>([
  ['Workspace Member', MEMBER],
  ['Workspace Manager', MANAGER],
  ['Workspace Owner', OWNER],
]);

const PROJECT_READS = listCodes(['PROJECT', 'TENANT', 'BUILDINGBLOCK', 'SERVICEINSTANCE', 'PROJECTPRINCIPALROLE']);
const PROJECT_USER = codes(PROJECT_READS, ['BUILDINGBLOCK_SAVE', 'BUILDINGBLOCK_DELETE', 'SERVICEINSTANCE_SAVE', 'SERVICEINSTANCE_DELETE']);

/**
 * The default project roles, by identifier (`metadata.name`: a renamed role keeps its codes). Codes
 * hold per workspace, so a project role's codes reach every project of the binding's workspace; a
 * project role an admin created grants nothing until it is mapped here.
 */
export const PROJECT_ROLE_CODES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['project-reader', codes(PROJECT_READS)],
  ['project-user', PROJECT_USER],
  [
    'project-admin',
    codes([...PROJECT_USER, 'PROJECT_SAVE', 'TENANT_SAVE', 'TENANT_DELETE', 'PROJECTPRINCIPALROLE_SAVE', 'PROJECTPRINCIPALROLE_DELETE']),
  ],
]);

/**
 * A workspace role in the admin workspace (`ADMIN_WORKSPACE`) grants `ADM_` codes, in whatever workspace
 * the person acts: Owner and Manager every one (admin-equivalent, as the bootstrap key), a Member
 * every admin read but Terraform states (read-only admin).
 */
export const ADMIN_ROLE_CODES: ReadonlyMap<string, ReadonlySet<string>> = new Map<WorkspaceRole, ReadonlySet<string>>([
  ['Workspace Member', codes(ADMIN_CODES.filter((code) => code.endsWith('_LIST') && code !== 'ADM_TFSTATE_LIST'))],
  ['Workspace Manager', codes(ADMIN_CODES)],
  ['Workspace Owner', codes(ADMIN_CODES)],
]);

/** One binding as `PersonAccess` reads it. */
export interface HeldRole {
  /** The binding's workspace. */
  workspace: string;
  /** A workspace role (workspace bindings). */
  workspaceRole?: string;
  /** A project role's identifier (project bindings). */
  projectRole?: string;
}

/**
 * The codes a person holding `roles` has while acting in `workspace`. Roles of other workspaces count
 * only in the admin workspace (its `ADM_` codes); project roles only beside a workspace role of their
 * workspace (a project binding outliving its subject's workspace binding grants nothing).
 */
export function codesOf(roles: readonly HeldRole[], workspace: string, adminWorkspace: string): Set<string> {
  const granted = new Set<string>();
  const add = (set: ReadonlySet<string> | undefined) => set?.forEach((code) => granted.add(code));
  const member = roles.some((role) => role.workspace === workspace && role.workspaceRole !== undefined);
  for (const { workspace: bound, workspaceRole, projectRole } of roles) {
    if (bound === adminWorkspace && workspaceRole !== undefined) add(ADMIN_ROLE_CODES.get(workspaceRole));
    if (bound !== workspace || !member) continue;
    if (workspaceRole !== undefined) add(WORKSPACE_ROLE_CODES.get(workspaceRole));
    if (projectRole !== undefined) add(PROJECT_ROLE_CODES.get(projectRole));
  }
  return granted;
}
