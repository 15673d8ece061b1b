import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Principal } from './principal.js';
import { callScope, CollectionPermissions, type RouteAccess, type ServedRouteAccess } from './route-access.js';

const key = (workspace: string, ...permissions: string[]): Principal => ({
  type: 'apiKey',
  id: `key-${workspace}`,
  workspace,
  permissions: new Set(permissions),
  displayName: `Key of ${workspace}`,
});
const apiUser: Principal = { type: 'apiUser', id: 'alice' };
const runToken: Principal = { type: 'runToken', id: 'run:1', runUuid: '00000000-0000-4000-8000-000000000001' };
const scim: Principal = { type: 'scim', id: 'scim', permissions: new Set(['ADM_USER_LIST', 'ADM_SERVICEINSTANCE_LIST']) };

const LIST_INSTANCES: RouteAccess = { resource: 'SERVICEINSTANCE', action: 'LIST' };

describe('callScope', () => {
  it('narrows a resource rule to the key’s own workspace, unless an ADM_ code widens it', () => {
    assert.deepEqual(callScope(key('dev', 'SERVICEINSTANCE_LIST'), LIST_INSTANCES), { workspace: 'dev' });
    assert.equal(callScope(key('dev', 'ADM_SERVICEINSTANCE_LIST'), LIST_INSTANCES), 'everywhere');
    assert.equal(callScope(key('dev', 'SERVICEINSTANCE_SAVE', 'ADM_SERVICEINSTANCE_SAVE'), LIST_INSTANCES), 'nowhere');
    assert.equal(callScope(apiUser, LIST_INSTANCES), 'everywhere');
  });

  it('lets a MANAGED_ code reach every workspace where the route takes it, and only there', () => {
    const blocks: RouteAccess = { resource: 'BUILDINGBLOCK', action: 'LIST', orManaged: true };
    assert.equal(callScope(key('platform', 'MANAGED_BUILDINGBLOCK_LIST'), blocks), 'everywhere');
    assert.deepEqual(callScope(key('dev', 'BUILDINGBLOCK_LIST'), blocks), { workspace: 'dev' });
    assert.equal(callScope(key('platform', 'MANAGED_BUILDINGBLOCK_LIST'), { resource: 'BUILDINGBLOCK', action: 'LIST' }), 'nowhere');
  });

  it('does not narrow rules that name no resource', () => {
    assert.equal(callScope(key('dev'), 'authenticated'), 'everywhere');
    assert.equal(callScope(key('dev', 'MANAGED_BUILDINGBLOCKRUN_SAVE'), { managed: 'BUILDINGBLOCKRUN_SAVE' }), 'everywhere');
    assert.equal(callScope(key('dev', 'ADM_WORKSPACE_LIST'), 'admin'), 'everywhere');
    assert.equal(callScope(key('dev'), 'admin'), 'nowhere');
  });

  it('opens nothing to run tokens and SCIM tokens beyond their own routes', () => {
    assert.equal(callScope(runToken, LIST_INSTANCES), 'nowhere');
    assert.equal(callScope(runToken, 'authenticated'), 'nowhere');
    assert.equal(callScope(scim, LIST_INSTANCES), 'nowhere', 'a SCIM token’s ADM_ codes open the SCIM routes only');
    assert.equal(callScope(scim, 'scim'), 'everywhere');
  });
});

describe('CollectionPermissions', () => {
  const ROUTES: Record<string, RouteAccess> = {
    'GET /instances': LIST_INSTANCES,
    'POST /instances': { resource: 'SERVICEINSTANCE', action: 'SAVE' },
    'GET /runs': { managed: 'BUILDINGBLOCKRUN_LIST' },
    'POST /runs': { managed: 'BUILDINGBLOCKRUN_SAVE' },
  };
  /** The route table, counting its lookups. */
  const table = () => {
    const lookups: string[] = [];
    const accessOf: ServedRouteAccess = (method, path) => {
      lookups.push(`${method} ${path}`);
      return ROUTES[`${method} ${path}`];
    };
    return { accessOf, lookups };
  };

  it('answers, per workspace, whether the caller may list a collection', () => {
    const { accessOf } = table();
    const own = new CollectionPermissions(key('dev', 'SERVICEINSTANCE_LIST'), accessOf);
    assert.equal(own.mayList('/instances'), true, 'in some workspace');
    assert.equal(own.mayList('/instances', 'dev'), true);
    assert.equal(own.mayList('/instances', 'ops'), false);
    assert.equal(own.mayCreate('/instances', 'dev'), false);
    const admin = new CollectionPermissions(key('dev', 'ADM_SERVICEINSTANCE_LIST'), accessOf);
    assert.equal(admin.mayList('/instances', 'ops'), true);
    const none = new CollectionPermissions(key('dev', 'WORKSPACE_LIST'), accessOf);
    assert.equal(none.mayList('/instances'), false);
    assert.equal(none.mayList('/instances', 'dev'), false);
  });

  it('tells a claim-only runner apart from a lister (the index lists what a caller may list or create in)', () => {
    const runner = new CollectionPermissions(key('platform', 'MANAGED_BUILDINGBLOCKRUN_SAVE'), table().accessOf);
    assert.equal(runner.mayList('/runs'), false);
    assert.equal(runner.mayCreate('/runs'), true);
  });

  it('says no for a route that is not served', () => {
    const permissions = new CollectionPermissions(apiUser, table().accessOf);
    assert.equal(permissions.mayList('/retired'), false);
    assert.equal(permissions.mayCreate('/retired', 'dev'), false);
    assert.equal(permissions.mayList('/instances', 'any'), true);
  });

  it('looks each route up once per request, however many items ask', () => {
    const { accessOf, lookups } = table();
    const permissions = new CollectionPermissions(key('dev', 'SERVICEINSTANCE_LIST'), accessOf);
    const answers = Array.from({ length: 50 }, (_, i) => permissions.mayList('/instances', i % 2 === 0 ? 'dev' : `ws-${i}`));
    assert.equal(answers.filter(Boolean).length, 25);
    permissions.mayList('/retired');
    permissions.mayList('/retired', 'dev');
    assert.deepEqual(lookups, ['GET /instances', 'GET /retired']);
  });
});
