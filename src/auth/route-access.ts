import { insufficientPermissions, type ApiError } from '../lib/errors.js';
import type { Action, Resource } from './permissions.js';
import { holdsCode, holdsManaged, isAdmin, isAdminFor, isAllowed } from './policy.js';
import { actsInWorkspace, type Principal } from './principal.js';

/**
 * Who may call a route at all, before any object is looked at: nobody needs credentials (`public`),
 * any API key or API user (`authenticated`), those or a run token (`run`: the run's own endpoints; the
 * service checks the run), an admin (API users and keys with admin permissions), a caller holding the
 * permission in some workspace, or one holding the `MANAGED_`/`ADM_` form of a code. The answer never
 * depends on an object, so it reveals nothing about one; per-object rules live in the Authorized*
 * services.
 */
export type RouteAccess =
  | 'public'
  | 'authenticated'
  | 'run'
  | 'admin'
  /** SCIM provisioning: a SCIM token, and nothing else, opens these routes. */
  | 'scim'
  /**
   * The Terraform state backend: like `run`, and a run token may come as the Basic password (as
   * Terraform's HTTP backend sends credentials); the service decides per block.
   */
  | 'tfstate'
  /** `orManaged`: the `MANAGED_<R>_<A>` form counts too (definition owners acting on their blocks). */
  | { resource: Resource; action: Action; adminOnly?: boolean; orManaged?: boolean }
  | { managed: string }
  /** One exact code that is no `<resource>_<action>` pair, e.g. `ADM_REVIEW_PUBLICATION`. */
  | { code: string };

/** May this principal call a route at all (some workspace, some object)? */
export function mayCall(principal: Principal | undefined, access: RouteAccess): boolean {
  if (access === 'public' || access === 'run' || access === 'tfstate') return true;
  if (principal === undefined) return false;
  // A SCIM token opens the SCIM routes and nothing else; nothing else opens them.
  if (access === 'scim' || principal.type === 'scim') return access === 'scim' && principal.type === 'scim';
  // A run token opens its run's endpoints and nothing else.
  if (principal.type === 'runToken') return false;
  if (access === 'authenticated') return true;
  if (access === 'admin') return isAdmin(principal);
  if ('managed' in access) return holdsManaged(principal, access.managed);
  if ('code' in access) return holdsCode(principal, access.code);
  if (access.adminOnly) return isAdminFor(principal, access.resource, access.action);
  return (
    isAllowed(principal, access.resource, access.action) ||
    (access.orManaged === true && holdsManaged(principal, `${access.resource}_${access.action}`))
  );
}

/** The 403 for a principal that may not call a route (`mayCall` said no). */
export function routeDenial(principal: Principal, access: RouteAccess): ApiError {
  if (principal.type === 'runToken') return insufficientPermissions('a run token only reports and reads its own run');
  if (principal.type === 'scim') return insufficientPermissions('a SCIM token opens the SCIM routes (/scim/v2) only');
  if (access === 'admin') return insufficientPermissions('only API users and keys with admin (ADM_) permissions may call this');
  if (typeof access === 'object' && 'managed' in access)
    return insufficientPermissions(`MANAGED_${access.managed} or ADM_${access.managed} is required`);
  if (typeof access === 'object' && 'code' in access) return insufficientPermissions(`${access.code} is required`);
  if (typeof access === 'object')
    return insufficientPermissions(`${access.adminOnly ? 'ADM_' : ''}${access.resource}_${access.action} is required`);
  return insufficientPermissions('this route is not open to this caller');
}

/** Where a caller may call a route: nowhere, in every workspace, or in its own workspace only. */
export type CallScope = 'nowhere' | 'everywhere' | { workspace: string };

/**
 * `mayCall`, narrowed to workspaces: only a resource rule is, since a key's `<R>_<A>` code covers its
 * own workspace. `ADM_` codes, API users and (with `orManaged`) `MANAGED_` codes reach every workspace:
 * a manager lists its definitions' objects wherever they live.
 */
export function callScope(principal: Principal | undefined, access: RouteAccess): CallScope {
  if (!mayCall(principal, access)) return 'nowhere';
  if (typeof access !== 'object' || !('resource' in access) || principal === undefined || !actsInWorkspace(principal)) return 'everywhere';
  if (isAdminFor(principal, access.resource, access.action)) return 'everywhere';
  if (access.orManaged === true && holdsManaged(principal, `${access.resource}_${access.action}`)) return 'everywhere';
  return { workspace: principal.workspace };
}

/** The route table as links see it: a route's access rule, undefined when the route is not served. */
export type ServedRouteAccess = (method: 'GET' | 'POST', path: string) => RouteAccess | undefined;

/**
 * Which collections a caller may list or create in: the one answer for every link to a collection
 * (the meshObjects index, the relations in a workspace's or a project's answer). The rules that admit
 * the call itself decide, so a link is shown exactly when its route would let the caller through (for
 * that workspace, when one is named). One per request: a route's scope is worked out on first use,
 * and each item of a list then only compares its workspace.
 */
export class CollectionPermissions {
  /** Made on first use: most requests (a block, a run) encode no link to a collection. */
  private scopes: Map<string, CallScope> | undefined;

  constructor(
    private readonly principal: Principal | undefined,
    private readonly accessOf: ServedRouteAccess,
    /** The collection path of each index relation (`meshworkspaces` → its path): links name relations. */
    private readonly relationPaths: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** The collection path of relation `rel`, if this server serves it. */
  pathOf(rel: string): string | undefined {
    return this.relationPaths.get(rel);
  }

  /** May the caller list the collection at `path` (its objects of `workspace`, when given)? */
  mayList(path: string, workspace?: string): boolean {
    return this.may('GET', path, workspace);
  }

  /** May the caller create in the collection at `path` (in `workspace`, when given)? */
  mayCreate(path: string, workspace?: string): boolean {
    return this.may('POST', path, workspace);
  }

  private may(method: 'GET' | 'POST', path: string, workspace: string | undefined): boolean {
    const route = `${method} ${path}`;
    this.scopes ??= new Map();
    let scope = this.scopes.get(route);
    if (scope === undefined) {
      const access = this.accessOf(method, path);
      scope = access === undefined ? 'nowhere' : callScope(this.principal, access);
      this.scopes.set(route, scope);
    }
    if (typeof scope === 'string') return scope === 'everywhere';
    return workspace === undefined || workspace === scope.workspace;
  }
}
