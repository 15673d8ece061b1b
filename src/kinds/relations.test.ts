import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CollectionPermissions, type ServedRouteAccess } from '../auth/route-access.js';
import type { Principal } from '../auth/principal.js';
import { PATHS } from './paths.js';
import { indexLinks, relatedLinks } from './relations.js';

const BASE = 'https://api.example';
/** Each collection's routes ask `<R>_LIST` of their resource, as the served route table does. */
const RESOURCES: Record<string, string> = {
  [PATHS.serviceInstances]: 'SERVICEINSTANCE',
  [PATHS.tenants]: 'TENANT',
  [PATHS.workspaces]: 'WORKSPACE',
  [PATHS.platforms]: 'PLATFORM',
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
const viewOf = (principal: Principal) => ({ baseUrl: BASE, collections: new CollectionPermissions(principal, accessOf) });

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
      meshserviceinstances: { href: `${BASE}${PATHS.serviceInstances}?workspaceIdentifier=dev` },
      meshworkspace: { href: `${BASE}${PATHS.workspaces}/dev` },
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
      meshplatform: { href: `${BASE}${PATHS.platforms}/p%201` },
    });
  });

  it('links nothing to a collection this server does not serve', () => {
    assert.deepEqual(relatedLinks(viewOf({ type: 'apiUser', id: 'u' }), { meshusers: { rel: 'meshusers', query: '' } }), {});
  });
});

describe('indexLinks', () => {
  it('lists the relations the caller may use, by the same rule', () => {
    const links = indexLinks(new CollectionPermissions(key('dev', 'TENANT_LIST'), accessOf), BASE);
    assert.deepEqual(Object.keys(links), ['meshtenants']);
    assert.equal(links.meshtenants!.templated, true);
  });
});
