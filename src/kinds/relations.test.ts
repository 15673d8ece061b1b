import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CollectionPermissions } from '../auth/route-access.js';
import { listableLinks } from './relations.js';

it('links a related collection only where the caller may list it in the object’s workspace', () => {
  const collections = new CollectionPermissions({ type: 'apiKey', id: 'k', workspace: 'dev', permissions: new Set(['SERVICEINSTANCE_LIST']), displayName: 'k' }, (method, path) =>
    method === 'GET' && path === '/instances' ? { resource: 'SERVICEINSTANCE', action: 'LIST' } : { resource: 'TENANT', action: 'LIST' },
  );
  const view = { baseUrl: 'https://api.example', collections };
  const related = { meshserviceinstances: '/instances', meshtenants: '/tenants' };
  assert.deepEqual(listableLinks(view, 'dev', '?workspaceIdentifier=dev', related), { meshserviceinstances: { href: 'https://api.example/instances?workspaceIdentifier=dev' } });
  assert.deepEqual(listableLinks(view, 'ops', '?workspaceIdentifier=ops', related), {});
});
