import { forbidden } from '../errors.js';
import { isAdminCode, type Action, type Resource } from './permissions.js';
import type { Principal } from './principal.js';

/**
 * The one answer to "may principal P do action A on resource R (of workspace W)". Handlers and
 * services never test permission codes themselves; the Authorized* service wrappers call this.
 *
 * - API users (Basic) hold every permission (spec 5.1: admin-equivalent).
 * - `ADM_<R>_<A>` allows A on R in every workspace.
 * - `<R>_<A>` allows A on R in the key's own workspace.
 * Without a workspace the question is "in some workspace" (route-level checks, indexes).
 * - Run tokens allow nothing here (their run endpoints check the run themselves).
 */
export function isAllowed(principal: Principal, resource: Resource, action: Action, workspace?: string): boolean {
  switch (principal.type) {
    case 'apiUser':
      return true;
    case 'runToken':
      return false;
    case 'apiKey':
      if (principal.permissions.has(`ADM_${resource}_${action}`)) return true;
      if (!principal.permissions.has(`${resource}_${action}`)) return false;
      return workspace === undefined || workspace === principal.workspace;
  }
}

/** Admin rights for R/A: every workspace (API users, `ADM_` codes). */
export function isAdminFor(principal: Principal, resource: Resource, action: Action): boolean {
  return principal.type === 'apiUser' || (principal.type === 'apiKey' && principal.permissions.has(`ADM_${resource}_${action}`));
}

/** Admin of anything: API users, and keys holding at least one `ADM_` permission (the admin area). */
export function isAdmin(principal: Principal): boolean {
  if (principal.type === 'apiUser') return true;
  if (principal.type !== 'apiKey') return false;
  for (const code of principal.permissions) if (isAdminCode(code)) return true;
  return false;
}

/**
 * The workspaces a principal may list R in: `'all'`, or exactly its own. Lists are filtered by this,
 * so a workspace-scoped caller never sees another workspace's objects.
 */
export function listScope(principal: Principal, resource: Resource): 'all' | { workspace: string } {
  if (isAdminFor(principal, resource, 'LIST')) return 'all';
  if (principal.type === 'apiKey' && principal.permissions.has(`${resource}_LIST`)) return { workspace: principal.workspace };
  throw forbidden(`you don't have sufficient permissions: ${resource}_LIST is required`);
}

export function requireAllowed(principal: Principal, resource: Resource, action: Action, workspace?: string): void {
  if (!isAllowed(principal, resource, action, workspace)) {
    throw forbidden(`you don't have sufficient permissions: ${resource}_${action}${workspace ? ` for workspace ${workspace}` : ''} is required`);
  }
}

/**
 * Codes that exist as `ADM_<code>` (every workspace) and `MANAGED_<code>` (objects whose definition or
 * platform the key's workspace owns), e.g. `TENANT_IMPORT`, `BUILDINGBLOCK_LIST` (COMPAT §5).
 */
export function isAllowedAsManager(principal: Principal, code: string, managingWorkspace: string): boolean {
  switch (principal.type) {
    case 'apiUser':
      return true;
    case 'runToken':
      return false;
    case 'apiKey':
      return principal.permissions.has(`ADM_${code}`) || (principal.permissions.has(`MANAGED_${code}`) && principal.workspace === managingWorkspace);
  }
}

/** Whether the principal holds `ADM_<code>` or `MANAGED_<code>` at all (route-level checks, indexes). */
export function holdsManaged(principal: Principal, code: string): boolean {
  if (principal.type === 'apiUser') return true;
  return principal.type === 'apiKey' && (principal.permissions.has(`ADM_${code}`) || principal.permissions.has(`MANAGED_${code}`));
}
