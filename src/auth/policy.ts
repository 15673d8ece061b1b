import { insufficientPermissions } from '../lib/errors.js';
import { ADMIN_CODES, isAdminCode, type Action, type Resource } from './permissions.js';
import { actsInWorkspace, type Principal } from './principal.js';

/**
 * The one answer to "may principal P see or do action A on resource R (of workspace W)". Handlers and
 * services never test permission codes themselves; the Authorized* services call this.
 *
 * - API users (Basic) hold every permission (spec 5.1: admin-equivalent).
 * - People act in one workspace with the codes their role bindings grant (auth/roles.ts): as keys.
 * - `ADM_<R>_<A>` allows A on R in every workspace.
 * - `<R>_<A>` allows A on R in the key's own workspace.
 * - `MANAGED_<R>_<A>` allows A on objects of definitions (or platforms) the key's workspace owns.
 * Without a workspace the question is "in some workspace" (route-level checks, indexes).
 * - Run tokens allow nothing here (their run endpoints check the run themselves).
 * "Admin" always means these permissions, never the name of the caller's workspace.
 */
export function isAllowed(principal: Principal, resource: Resource, action: Action, workspace?: string): boolean {
  switch (principal.type) {
    case 'apiUser':
    case 'system':
      return true;
    case 'runToken':
      return false;
    case 'scim':
      return principal.permissions.has(`ADM_${resource}_${action}`);
    case 'apiKey':
    case 'person':
      if (principal.permissions.has(`ADM_${resource}_${action}`)) return true;
      if (!principal.permissions.has(`${resource}_${action}`)) return false;
      return workspace === undefined || workspace === principal.workspace;
  }
}

/** Admin rights for R/A: every workspace (API users, `ADM_` codes). */
export function isAdminFor(principal: Principal, resource: Resource, action: Action): boolean {
  return (
    principal.type === 'apiUser' ||
    principal.type === 'system' ||
    ((actsInWorkspace(principal) || principal.type === 'scim') && principal.permissions.has(`ADM_${resource}_${action}`))
  );
}

/** Admin of anything: API users, and keys and people holding at least one `ADM_` permission (the admin area). */
export function isAdmin(principal: Principal): boolean {
  if (principal.type === 'apiUser' || principal.type === 'system') return true;
  if (!actsInWorkspace(principal)) return false;
  for (const code of principal.permissions) if (isAdminCode(code)) return true;
  return false;
}

/**
 * Admin-equivalent: may do everything an API user may (spec 5.1). Only such a caller makes or removes
 * an API user, so no narrow admin permission becomes every permission.
 */
export function isAdminEquivalent(principal: Principal): boolean {
  if (principal.type === 'apiUser' || principal.type === 'system') return true;
  if (!actsInWorkspace(principal)) return false;
  for (const code of ADMIN_CODES) if (!principal.permissions.has(code)) return false;
  return true;
}

/**
 * Visibility, the first question about any object: does the caller see objects of kind R owned by
 * workspace W at all? Its own workspace's objects, yes (a missing permission on them is a 403, not a
 * 404); every workspace's with an `ADM_` code of R (API users hold them all). Kinds add what they
 * share (the marketplace, public platforms and runners, objects of managed definitions).
 */
export function seesWorkspace(principal: Principal, resource: Resource, workspace: string): boolean {
  switch (principal.type) {
    case 'apiUser':
    case 'system':
      return true;
    case 'runToken':
      return false;
    case 'scim':
      return seesEveryWorkspace(principal, resource);
    case 'apiKey':
    case 'person':
      return principal.workspace === workspace || seesEveryWorkspace(principal, resource);
  }
}

/** Whether the caller sees R in every workspace: API users, and keys and people with any `ADM_<R>_*` code. */
export function seesEveryWorkspace(principal: Principal, resource: Resource): boolean {
  if (principal.type === 'apiUser' || principal.type === 'system') return true;
  if (!actsInWorkspace(principal) && principal.type !== 'scim') return false;
  const { permissions } = principal;
  return permissions.has(`ADM_${resource}_LIST`) || permissions.has(`ADM_${resource}_SAVE`) || permissions.has(`ADM_${resource}_DELETE`);
}

/**
 * The workspaces a principal may list R in: `'all'`, or exactly its own. Lists are filtered by this,
 * so a workspace-scoped caller never sees another workspace's objects.
 */
export function listScope(principal: Principal, resource: Resource): 'all' | { workspace: string } {
  if (isAdminFor(principal, resource, 'LIST')) return 'all';
  if (actsInWorkspace(principal) && principal.permissions.has(`${resource}_LIST`)) return { workspace: principal.workspace };
  throw insufficientPermissions(`${resource}_LIST is required`);
}

export function requireAllowed(principal: Principal, resource: Resource, action: Action, workspace?: string): void {
  if (!isAllowed(principal, resource, action, workspace))
    throw insufficientPermissions(`${resource}_${action}${workspace ? ` for workspace ${workspace}` : ''} is required`);
}

/**
 * Codes that exist as `ADM_<code>` (every workspace) and `MANAGED_<code>` (objects whose definition or
 * platform the key's workspace owns), e.g. `TENANT_IMPORT`, `BUILDINGBLOCK_LIST` (COMPAT §5).
 */
export function isAllowedAsManager(principal: Principal, code: string, managingWorkspace: string): boolean {
  switch (principal.type) {
    case 'apiUser':
    case 'system':
      return true;
    case 'runToken':
    case 'scim':
      return false;
    case 'apiKey':
    case 'person':
      return (
        principal.permissions.has(`ADM_${code}`) ||
        (principal.permissions.has(`MANAGED_${code}`) && principal.workspace === managingWorkspace)
      );
  }
}

/** Whether the principal holds this exact code (API users hold every code), e.g. `ADM_REVIEW_PUBLICATION`. */
export function holdsCode(principal: Principal, code: string): boolean {
  if (principal.type === 'apiUser' || principal.type === 'system') return true;
  return actsInWorkspace(principal) && principal.permissions.has(code);
}

/** Whether the principal holds `ADM_<code>` or `MANAGED_<code>` at all (route-level checks, indexes). */
export function holdsManaged(principal: Principal, code: string): boolean {
  if (principal.type === 'apiUser' || principal.type === 'system') return true;
  return actsInWorkspace(principal) && (principal.permissions.has(`ADM_${code}`) || principal.permissions.has(`MANAGED_${code}`));
}
