import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CollectionPermissions, type ServedRouteAccess } from '../auth/route-access.js';
import type { Principal } from '../auth/principal.js';
import { indexLinks, relatedLinks } from './relations.js';
import { PLATFORMS_PATH } from './platform/model.js';
import { SERVICE_INSTANCES_PATH } from './serviceinstance/model.js';
import { TENANTS_PATH } from './tenant/model.js';
import { USERS_PATH } from './user/model.js';
import { WORKSPACES_PATH } from './workspace/model.js';

const BASE = 'https://api.example';
/** Each collection's routes ask `<R>_LIST` of their resource, as the served route table does. */
const RESOURCES: Record<string, string> = {
  [SERVICE_INSTANCES_PATH]: 'SERVICEINSTANCE',
  [TENANTS_PATH]: 'TENANT',
  [WORKSPACES_PATH]: 'WORKSPACE',
  [PLATFORMS_PATH]: 'PLATFORM',
};
const accessOf: ServedRouteAccess = (method, path) =>
  method === 'GET' && RESOURCES[path] ? { resource: RESOURCES[path] as 'TENANT', action: 'LIST' } : undefined;
const key = (workspace: string, ...codes: string[]): Principal => ({
  type: 'apiKey',
  id: 'k',
  workspace,
  permissions: new Set(codes),
  displayName: 'k',
});
const RELATIONS = [
  { rel: 'meshworkspaces', path: WORKSPACES_PATH, template: '' },
  { rel: 'meshtenants', path: TENANTS_PATH, template: '{?workspaceIdentifier}' },
  { rel: 'meshserviceinstances', path: SERVICE_INSTANCES_PATH, template: '{?workspaceIdentifier}' },
  { rel: 'meshusers', path: USERS_PATH, template: '' },
  { rel: 'meshplatforms', path: PLATFORMS_PATH, template: '' },
];
const RELATION_PATHS = new Map(RELATIONS.map(({ rel, path }) => [rel, path]));
const viewOf = (principal: Principal) => ({
  baseUrl: BASE,
  collections: new CollectionPermissions(principal, accessOf, RELATION_PATHS),
});

describe('relatedLinks', () => {
  const related = (workspace: string) =>
    ({
      meshserviceinstances: { rel: 'meshserviceinstances', workspace, query: `?workspaceIdentifier=${workspace}` },
      meshtenants: { rel: 'meshtenants', workspace, query: `?workspaceIdentifier=${workspace}` },
      meshworkspace: { rel: 'meshworkspaces', workspace, id: workspace },
    }) as const;

  it('links a related collection or object only where the caller may list its collection in that workspace', () => {
    const view = viewOf(key('dev', 'SERVICEINSTANCE_LIST', 'WORKSPACE_LIST'));
    assert.deepEqual(relatedLinks(view, related('dev')), {
      meshserviceinstances: { href: `${BASE}${SERVICE_INSTANCES_PATH}?workspaceIdentifier=dev` },
      meshworkspace: { href: `${BASE}${WORKSPACES_PATH}/dev` },
    });
    assert.deepEqual(relatedLinks(view, related('ops')), {});
  });

  it('links everything for an admin, nothing for a caller without codes', () => {
    assert.deepEqual(Object.keys(relatedLinks(viewOf({ type: 'apiUser', id: 'u' }), related('ops'))), [
      'meshserviceinstances',
      'meshtenants',
      'meshworkspace',
    ]);
    assert.deepEqual(relatedLinks(viewOf(key('dev')), related('dev')), {});
  });

  it('asks any workspace when the related objects live in none, and leaves out absent links', () => {
    const view = viewOf(key('dev', 'PLATFORM_LIST'));
    assert.deepEqual(relatedLinks(view, { meshplatform: { rel: 'meshplatforms', id: 'p 1' }, activePaymentMethod: undefined }), {
      meshplatform: { href: `${BASE}${PLATFORMS_PATH}/p%201` },
    });
  });

  it('links nothing to a collection this server does not serve', () => {
    assert.deepEqual(relatedLinks(viewOf({ type: 'apiUser', id: 'u' }), { meshusers: { rel: 'meshusers', query: '' } }), {});
    assert.deepEqual(relatedLinks(viewOf({ type: 'apiUser', id: 'u' }), { meshgadgets: { rel: 'meshgadgets', query: '' } }), {});
  });
});

describe('indexLinks', () => {
  it('lists the relations the caller may use, by the same rule', () => {
    const links = indexLinks(RELATIONS, new CollectionPermissions(key('dev', 'TENANT_LIST'), accessOf, RELATION_PATHS), BASE);
    assert.deepEqual(Object.keys(links), ['meshtenants']);
    assert.equal(links.meshtenants!.templated, true);
  });
});
