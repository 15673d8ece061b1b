import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../lib/errors.js';
import { ADMIN_CODES, isAdminCode, type Action, type Resource } from './permissions.js';
import {
  holdsCode,
  holdsManaged,
  isAdmin,
  isAdminEquivalent,
  isAdminFor,
  isAllowed,
  isAllowedAsManager,
  listScope,
  requireAllowed,
  seesEveryWorkspace,
  seesWorkspace,
} from './policy.js';
import type { Principal } from './principal.js';
import { callScope, mayCall, routeDenial, type RouteAccess } from './route-access.js';

const key = (workspace: string, ...permissions: string[]): Principal => ({
  type: 'apiKey',
  id: `key-${workspace}`,
  workspace,
  permissions: new Set(permissions),
  displayName: `Key of ${workspace}`,
});
const apiUser: Principal = { type: 'apiUser', id: 'alice' };
const runToken: Principal = {
  type: 'runToken',
  id: 'run:00000000-0000-4000-8000-000000000001',
  runUuid: '00000000-0000-4000-8000-000000000001',
};
const system: Principal = { type: 'system', id: 'blockyard' };

/** A 403 with the one wording of a refused permission, whose detail matches `detail`. */
const forbidden = (detail: RegExp | string) => (error: ApiError) => {
  assert.equal(error.status, 403);
  assert.equal(error.errorCode, 'Forbidden');
  assert.ok(error.message.startsWith("you don't have sufficient permissions: "), error.message);
  if (typeof detail === 'string') assert.equal(error.message, `you don't have sufficient permissions: ${detail}`);
  else assert.match(error.message, detail);
  return true;
};

describe('isAllowed', () => {
  it('lets API users and the system do anything, anywhere', () => {
    for (const principal of [apiUser, system]) {
      assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'SAVE'), true);
      assert.equal(isAllowed(principal, 'TENANT', 'DELETE', 'any-workspace'), true);
      assert.equal(isAllowed(principal, 'USER', 'LIST', 'admin'), true);
    }
  });

  it('lets run tokens do nothing (their run endpoints check the run themselves)', () => {
    assert.equal(isAllowed(runToken, 'BUILDINGBLOCKRUN', 'LIST'), false);
    assert.equal(isAllowed(runToken, 'BUILDINGBLOCKRUN', 'SAVE', 'ws'), false);
    assert.equal(isAllowed(runToken, 'BUILDINGBLOCK', 'LIST'), false);
  });

  it('lets a workspace code act in the key’s own workspace only', () => {
    const principal = key('dev', 'BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE');
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'LIST', 'dev'), true);
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'SAVE', 'dev'), true);
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'LIST', 'ops'), false);
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'DELETE', 'dev'), false);
    assert.equal(isAllowed(principal, 'TENANT', 'LIST', 'dev'), false);
  });

  it('asks "in some workspace" without a workspace', () => {
    assert.equal(isAllowed(key('dev', 'TENANT_LIST'), 'TENANT', 'LIST'), true);
    assert.equal(isAllowed(key('dev', 'TENANT_LIST'), 'TENANT', 'SAVE'), false);
    assert.equal(isAllowed(key('dev'), 'TENANT', 'LIST'), false);
  });

  it('lets an ADM_ code act in every workspace, for its resource and action only', () => {
    const principal = key('dev', 'ADM_TENANT_SAVE');
    assert.equal(isAllowed(principal, 'TENANT', 'SAVE'), true);
    assert.equal(isAllowed(principal, 'TENANT', 'SAVE', 'dev'), true);
    assert.equal(isAllowed(principal, 'TENANT', 'SAVE', 'ops'), true);
    assert.equal(isAllowed(principal, 'TENANT', 'LIST', 'ops'), false);
    assert.equal(isAllowed(principal, 'TENANT', 'DELETE'), false);
    assert.equal(isAllowed(principal, 'PROJECT', 'SAVE', 'dev'), false);
  });

  it('does not take MANAGED_ codes as workspace or admin permissions', () => {
    const principal = key('dev', 'MANAGED_BUILDINGBLOCK_LIST');
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'LIST'), false);
    assert.equal(isAllowed(principal, 'BUILDINGBLOCK', 'LIST', 'dev'), false);
  });

  it('never takes the workspace’s name for a permission: a key of workspace "admin" has only its codes', () => {
    const principal = key('admin', 'PROJECT_LIST');
    assert.equal(isAllowed(principal, 'PROJECT', 'LIST', 'admin'), true);
    assert.equal(isAllowed(principal, 'PROJECT', 'LIST', 'dev'), false);
    assert.equal(isAllowed(principal, 'TENANT', 'LIST', 'admin'), false);
  });
});

describe('isAdminFor and isAdmin', () => {
  it('isAdminFor: API users, the system and keys with the ADM_ code of that resource and action', () => {
    assert.equal(isAdminFor(apiUser, 'WORKSPACE', 'DELETE'), true);
    assert.equal(isAdminFor(system, 'WORKSPACE', 'DELETE'), true);
    assert.equal(isAdminFor(runToken, 'WORKSPACE', 'DELETE'), false);
    assert.equal(isAdminFor(key('dev', 'ADM_WORKSPACE_DELETE'), 'WORKSPACE', 'DELETE'), true);
    assert.equal(isAdminFor(key('dev', 'ADM_WORKSPACE_DELETE'), 'WORKSPACE', 'SAVE'), false);
    assert.equal(isAdminFor(key('dev', 'ADM_WORKSPACE_DELETE'), 'PROJECT', 'DELETE'), false);
    assert.equal(isAdminFor(key('dev', 'WORKSPACE_DELETE'), 'WORKSPACE', 'DELETE'), false);
    assert.equal(isAdminFor(key('admin', 'WORKSPACE_DELETE'), 'WORKSPACE', 'DELETE'), false);
  });

  it('isAdmin: a key with one narrow ADM_ code is an admin for route purposes', () => {
    assert.equal(isAdmin(apiUser), true);
    assert.equal(isAdmin(system), true);
    assert.equal(isAdmin(key('dev', 'ADM_TAGDEFINITION_LIST')), true);
    assert.equal(isAdmin(key('dev', 'TENANT_LIST', 'ADM_PAYMENTMETHOD_LIST')), true);
  });

  it('isAdmin: keys without ADM_ codes are not, whatever their workspace is called; run tokens never', () => {
    assert.equal(isAdmin(key('admin')), false);
    assert.equal(isAdmin(key('admin', 'WORKSPACE_LIST', 'WORKSPACE_SAVE', 'MANAGED_BUILDINGBLOCK_LIST')), false);
    assert.equal(isAdmin(key('dev', 'MANAGED_TENANT_IMPORT')), false);
    assert.equal(isAdmin(runToken), false);
  });
});

describe('seesWorkspace and seesEveryWorkspace', () => {
  it('a key always sees its own workspace, even without any permission', () => {
    assert.equal(seesWorkspace(key('dev'), 'TENANT', 'dev'), true);
    assert.equal(seesWorkspace(key('dev', 'PROJECT_LIST'), 'TENANT', 'dev'), true);
  });

  it('a key sees another workspace only with an ADM_<R>_* code of that resource', () => {
    assert.equal(seesWorkspace(key('dev'), 'TENANT', 'ops'), false);
    assert.equal(seesWorkspace(key('dev', 'TENANT_LIST', 'TENANT_SAVE', 'TENANT_DELETE'), 'TENANT', 'ops'), false);
    assert.equal(seesWorkspace(key('dev', 'MANAGED_TFSTATE_LIST'), 'TFSTATE', 'ops'), false);
    for (const action of ['LIST', 'SAVE', 'DELETE']) {
      assert.equal(seesWorkspace(key('dev', `ADM_TENANT_${action}`), 'TENANT', 'ops'), true, action);
      assert.equal(seesEveryWorkspace(key('dev', `ADM_TENANT_${action}`), 'TENANT'), true, action);
    }
    assert.equal(seesWorkspace(key('dev', 'ADM_PROJECT_LIST'), 'TENANT', 'ops'), false);
    assert.equal(seesEveryWorkspace(key('dev', 'ADM_PROJECT_LIST'), 'TENANT'), false);
  });

  it('a key of workspace "admin" sees no other workspace without ADM_ codes', () => {
    assert.equal(seesWorkspace(key('admin', 'TENANT_LIST'), 'TENANT', 'dev'), false);
    assert.equal(seesEveryWorkspace(key('admin', 'TENANT_LIST'), 'TENANT'), false);
  });

  it('API users and the system see every workspace; run tokens none', () => {
    for (const principal of [apiUser, system]) {
      assert.equal(seesWorkspace(principal, 'BUILDINGBLOCK', 'anywhere'), true);
      assert.equal(seesEveryWorkspace(principal, 'BUILDINGBLOCK'), true);
    }
    assert.equal(seesWorkspace(runToken, 'BUILDINGBLOCKRUN', 'dev'), false);
    assert.equal(seesEveryWorkspace(runToken, 'BUILDINGBLOCKRUN'), false);
  });

  it('seesEveryWorkspace is false for a key with only workspace codes', () => {
    assert.equal(seesEveryWorkspace(key('dev', 'TENANT_LIST'), 'TENANT'), false);
    assert.equal(seesEveryWorkspace(key('dev'), 'TENANT'), false);
  });
});

describe('listScope', () => {
  it('is "all" for API users, the system and keys with ADM_<R>_LIST', () => {
    assert.equal(listScope(apiUser, 'PROJECT'), 'all');
    assert.equal(listScope(system, 'PROJECT'), 'all');
    assert.equal(listScope(key('dev', 'ADM_PROJECT_LIST'), 'PROJECT'), 'all');
    assert.equal(listScope(key('dev', 'ADM_PROJECT_LIST', 'PROJECT_LIST'), 'PROJECT'), 'all');
  });

  it('is the key’s own workspace with <R>_LIST', () => {
    assert.deepEqual(listScope(key('dev', 'PROJECT_LIST'), 'PROJECT'), { workspace: 'dev' });
    assert.deepEqual(listScope(key('admin', 'PROJECT_LIST'), 'PROJECT'), { workspace: 'admin' });
  });

  it('throws a 403 naming the code otherwise', () => {
    assert.throws(() => listScope(key('dev'), 'PROJECT'), forbidden('PROJECT_LIST is required'));
    assert.throws(() => listScope(key('dev', 'PROJECT_SAVE', 'ADM_PROJECT_SAVE'), 'PROJECT'), forbidden('PROJECT_LIST is required'));
    assert.throws(() => listScope(key('dev', 'TENANT_LIST'), 'PROJECT'), forbidden('PROJECT_LIST is required'));
    assert.throws(() => listScope(runToken, 'BUILDINGBLOCKRUN'), forbidden('BUILDINGBLOCKRUN_LIST is required'));
  });
});

describe('requireAllowed', () => {
  it('returns quietly when allowed', () => {
    assert.doesNotThrow(() => requireAllowed(key('dev', 'TENANT_SAVE'), 'TENANT', 'SAVE', 'dev'));
    assert.doesNotThrow(() => requireAllowed(key('dev', 'TENANT_SAVE'), 'TENANT', 'SAVE'));
    assert.doesNotThrow(() => requireAllowed(apiUser, 'TENANT', 'DELETE', 'ops'));
  });

  it('names the code, and the workspace when one was asked about', () => {
    assert.throws(
      () => requireAllowed(key('dev', 'TENANT_SAVE'), 'TENANT', 'SAVE', 'ops'),
      forbidden('TENANT_SAVE for workspace ops is required'),
    );
    assert.throws(() => requireAllowed(key('dev'), 'TENANT', 'DELETE'), forbidden('TENANT_DELETE is required'));
    assert.throws(
      () => requireAllowed(runToken, 'BUILDINGBLOCKRUN', 'SAVE', 'dev'),
      forbidden('BUILDINGBLOCKRUN_SAVE for workspace dev is required'),
    );
  });
});

describe('isAllowedAsManager and holdsManaged', () => {
  it('MANAGED_ counts only in the key’s own (managing) workspace', () => {
    const principal = key('platform', 'MANAGED_BUILDINGBLOCK_LIST');
    assert.equal(isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', 'platform'), true);
    assert.equal(isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', 'other'), false);
    assert.equal(isAllowedAsManager(principal, 'BUILDINGBLOCK_SAVE', 'platform'), false);
  });

  it('ADM_ counts for every managing workspace', () => {
    const principal = key('dev', 'ADM_TENANT_IMPORT');
    assert.equal(isAllowedAsManager(principal, 'TENANT_IMPORT', 'dev'), true);
    assert.equal(isAllowedAsManager(principal, 'TENANT_IMPORT', 'platform'), true);
    assert.equal(isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', 'dev'), false);
  });

  it('the plain workspace code does not make a manager', () => {
    assert.equal(isAllowedAsManager(key('dev', 'BUILDINGBLOCK_LIST'), 'BUILDINGBLOCK_LIST', 'dev'), false);
  });

  it('API users and the system always manage; run tokens never', () => {
    assert.equal(isAllowedAsManager(apiUser, 'TENANT_IMPORT', 'x'), true);
    assert.equal(isAllowedAsManager(system, 'TENANT_IMPORT', 'x'), true);
    assert.equal(isAllowedAsManager(runToken, 'BUILDINGBLOCKRUN_SAVE', 'x'), false);
  });

  it('holdsManaged: the ADM_ or MANAGED_ form in any workspace', () => {
    assert.equal(holdsManaged(key('dev', 'MANAGED_TFSTATE_SAVE'), 'TFSTATE_SAVE'), true);
    assert.equal(holdsManaged(key('dev', 'ADM_TFSTATE_SAVE'), 'TFSTATE_SAVE'), true);
    assert.equal(holdsManaged(key('dev', 'TFSTATE_SAVE'), 'TFSTATE_SAVE'), false);
    assert.equal(holdsManaged(key('dev', 'MANAGED_TFSTATE_LIST'), 'TFSTATE_SAVE'), false);
    assert.equal(holdsManaged(apiUser, 'TFSTATE_SAVE'), true);
    assert.equal(holdsManaged(system, 'TFSTATE_SAVE'), true);
    assert.equal(holdsManaged(runToken, 'BUILDINGBLOCKRUN_SAVE'), false);
  });
});

describe('mayCall and routeDenial', () => {
  const blockList: RouteAccess = { resource: 'BUILDINGBLOCK', action: 'LIST' };
  const adminOnly: RouteAccess = { resource: 'WORKSPACE', action: 'SAVE', adminOnly: true };
  const orManaged: RouteAccess = { resource: 'BUILDINGBLOCK', action: 'SAVE', orManaged: true };
  const managed: RouteAccess = { managed: 'TENANT_IMPORT' };

  it('"public" is open to everyone, with or without credentials', () => {
    for (const principal of [undefined, key('dev'), apiUser, runToken, system]) assert.equal(mayCall(principal, 'public'), true);
  });

  it('"run" is open to keys, API users and run tokens (the service checks the run)', () => {
    for (const principal of [key('dev'), apiUser, runToken, system]) assert.equal(mayCall(principal, 'run'), true);
  });

  it('every other form needs a principal', () => {
    for (const access of ['authenticated', 'admin', blockList, adminOnly, orManaged, managed] as RouteAccess[])
      assert.equal(mayCall(undefined, access), false);
  });

  it('run tokens may call only "public" and "run" routes', () => {
    assert.equal(mayCall(runToken, 'public'), true);
    assert.equal(mayCall(runToken, 'run'), true);
    for (const access of [
      'authenticated',
      'admin',
      blockList,
      adminOnly,
      orManaged,
      managed,
      { resource: 'BUILDINGBLOCKRUN', action: 'SAVE' },
    ] as RouteAccess[]) {
      assert.equal(mayCall(runToken, access), false, JSON.stringify(access));
      forbidden('a run token only reports and reads its own run')(routeDenial(runToken, access));
    }
  });

  it('"authenticated" is open to any key (even without permissions), API users and the system', () => {
    assert.equal(mayCall(key('dev'), 'authenticated'), true);
    assert.equal(mayCall(apiUser, 'authenticated'), true);
    assert.equal(mayCall(system, 'authenticated'), true);
  });

  it('"admin" needs an API user or a key with some ADM_ code, never the workspace name "admin"', () => {
    assert.equal(mayCall(apiUser, 'admin'), true);
    assert.equal(mayCall(system, 'admin'), true);
    assert.equal(mayCall(key('dev', 'ADM_USER_LIST'), 'admin'), true);
    assert.equal(mayCall(key('admin', 'WORKSPACE_LIST', 'WORKSPACE_SAVE'), 'admin'), false);
    forbidden('only API users and keys with admin (ADM_) permissions may call this')(routeDenial(key('admin', 'WORKSPACE_LIST'), 'admin'));
  });

  it('{resource, action}: the workspace code in some workspace, or its ADM_ form', () => {
    assert.equal(mayCall(key('dev', 'BUILDINGBLOCK_LIST'), blockList), true);
    assert.equal(mayCall(key('dev', 'ADM_BUILDINGBLOCK_LIST'), blockList), true);
    assert.equal(mayCall(key('dev', 'BUILDINGBLOCK_SAVE'), blockList), false);
    assert.equal(mayCall(key('dev', 'MANAGED_BUILDINGBLOCK_LIST'), blockList), false);
    assert.equal(mayCall(apiUser, blockList), true);
    forbidden('BUILDINGBLOCK_LIST is required')(routeDenial(key('dev'), blockList));
  });

  it('adminOnly: only the ADM_ form', () => {
    assert.equal(mayCall(key('dev', 'WORKSPACE_SAVE'), adminOnly), false);
    assert.equal(mayCall(key('admin', 'WORKSPACE_SAVE'), adminOnly), false);
    assert.equal(mayCall(key('dev', 'ADM_WORKSPACE_SAVE'), adminOnly), true);
    assert.equal(mayCall(key('dev', 'ADM_WORKSPACE_LIST'), adminOnly), false);
    assert.equal(mayCall(apiUser, adminOnly), true);
    forbidden('ADM_WORKSPACE_SAVE is required')(routeDenial(key('dev', 'WORKSPACE_SAVE'), adminOnly));
  });

  it('orManaged: the workspace code, its ADM_ form or its MANAGED_ form', () => {
    assert.equal(mayCall(key('dev', 'BUILDINGBLOCK_SAVE'), orManaged), true);
    assert.equal(mayCall(key('dev', 'ADM_BUILDINGBLOCK_SAVE'), orManaged), true);
    assert.equal(mayCall(key('dev', 'MANAGED_BUILDINGBLOCK_SAVE'), orManaged), true);
    assert.equal(mayCall(key('dev', 'MANAGED_BUILDINGBLOCK_LIST'), orManaged), false);
    assert.equal(mayCall(key('dev', 'MANAGED_BUILDINGBLOCK_SAVE'), { resource: 'BUILDINGBLOCK', action: 'SAVE' }), false);
    forbidden('BUILDINGBLOCK_SAVE is required')(routeDenial(key('dev'), orManaged));
  });

  it('{managed}: the MANAGED_ or ADM_ form of the code', () => {
    assert.equal(mayCall(key('dev', 'MANAGED_TENANT_IMPORT'), managed), true);
    assert.equal(mayCall(key('dev', 'ADM_TENANT_IMPORT'), managed), true);
    assert.equal(mayCall(key('dev', 'TENANT_SAVE', 'TENANT_LIST'), managed), false);
    assert.equal(mayCall(apiUser, managed), true);
    forbidden('MANAGED_TENANT_IMPORT or ADM_TENANT_IMPORT is required')(routeDenial(key('dev'), managed));
  });

  it('routeDenial of a string form other than "admin" says the route is not open', () => {
    forbidden('this route is not open to this caller')(routeDenial(key('dev'), 'authenticated'));
  });
});

describe('people', () => {
  const person = (workspace: string, ...permissions: string[]): Principal => ({
    type: 'person',
    id: `person-of-${workspace}`,
    workspace,
    permissions: new Set(permissions),
    admin: permissions.some(isAdminCode),
  });
  const codeSets = [
    [],
    ['BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE'],
    ['MANAGED_BUILDINGBLOCK_LIST', 'MANAGED_TENANT_IMPORT', 'TENANT_LIST'],
    ['ADM_TENANT_SAVE', 'ADM_USER_LIST'],
    [...ADMIN_CODES],
  ];
  const resources: Resource[] = ['BUILDINGBLOCK', 'TENANT', 'USER', 'WORKSPACE'];
  const actions: Action[] = ['LIST', 'SAVE', 'DELETE'];
  const accesses: RouteAccess[] = [
    'authenticated',
    'admin',
    { resource: 'BUILDINGBLOCK', action: 'LIST' },
    { resource: 'TENANT', action: 'SAVE', adminOnly: true },
    { resource: 'BUILDINGBLOCK', action: 'LIST', orManaged: true },
    { managed: 'TENANT_IMPORT' },
    { code: 'ADM_USER_LIST' },
  ];
  const answer = (f: () => unknown) => {
    try {
      return f();
    } catch (error) {
      return (error as ApiError).message;
    }
  };

  it('are judged as a key of their workspace holding the same codes, by every policy function', () => {
    for (const codes of codeSets) {
      const [asKey, asPerson] = [key('dev', ...codes), person('dev', ...codes)];
      const same = (what: string, f: (principal: Principal) => unknown) =>
        assert.deepEqual(
          answer(() => f(asPerson)),
          answer(() => f(asKey)),
          `${what} with ${codes.join(',') || 'no codes'}`,
        );
      same('isAdmin', isAdmin);
      same('isAdminEquivalent', isAdminEquivalent);
      for (const resource of resources) {
        same(`seesEveryWorkspace ${resource}`, (p) => seesEveryWorkspace(p, resource));
        same(`listScope ${resource}`, (p) => listScope(p, resource));
        for (const workspace of ['dev', 'ops', undefined]) {
          if (workspace !== undefined) same(`seesWorkspace ${resource} ${workspace}`, (p) => seesWorkspace(p, resource, workspace));
          for (const action of actions) {
            same(`isAllowed ${resource}_${action} ${workspace}`, (p) => isAllowed(p, resource, action, workspace));
            same(`isAdminFor ${resource}_${action}`, (p) => isAdminFor(p, resource, action));
          }
        }
      }
      for (const code of ['TENANT_IMPORT', 'BUILDINGBLOCK_LIST', 'ADM_USER_LIST']) {
        same(`holdsCode ${code}`, (p) => holdsCode(p, code));
        same(`holdsManaged ${code}`, (p) => holdsManaged(p, code));
        for (const managing of ['dev', 'ops']) same(`isAllowedAsManager ${code} ${managing}`, (p) => isAllowedAsManager(p, code, managing));
      }
      for (const access of accesses) {
        same(`mayCall ${JSON.stringify(access)}`, (p) => mayCall(p, access));
        same(`callScope ${JSON.stringify(access)}`, (p) => callScope(p, access));
      }
    }
  });

  it('a person bound nowhere (no codes) may call "authenticated" routes and sees only its own, empty, workspace', () => {
    const nobody = person('');
    assert.equal(mayCall(nobody, 'authenticated'), true);
    assert.equal(seesWorkspace(nobody, 'BUILDINGBLOCK', 'dev'), false);
    assert.equal(isAllowed(nobody, 'BUILDINGBLOCK', 'LIST'), false);
    assert.throws(() => listScope(nobody, 'BUILDINGBLOCK'), forbidden('BUILDINGBLOCK_LIST is required'));
  });
});
