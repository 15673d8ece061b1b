import assert from 'node:assert/strict';
import type { ApiClient } from './client.js';
import { media } from './client.js';

export const API_KEY = media('meshapikey', 'v1-preview');

export interface KeyCredentials {
  uuid: string;
  clientId: string;
  clientSecret: string;
}

export const WORKSPACE = media('meshworkspace', 'v2');

/** Creates the workspace unless it exists (keys belong to existing workspaces). */
export async function ensureWorkspace(client: ApiClient, name: string): Promise<void> {
  const response = await client.post(
    '/api/meshobjects/meshworkspaces',
    { apiVersion: 'v2', kind: 'meshWorkspace', metadata: { name }, spec: { displayName: name } },
    { headers: { accept: WORKSPACE, 'content-type': WORKSPACE } },
  );
  assert.ok(response.status === 201 || response.status === 409, response.text);
}

/**
 * Creates an API key through the API (as the client's principal) and returns its credentials; its
 * workspace is created first when the client may (an admin).
 */
export async function createKey(
  client: ApiClient,
  workspace: string,
  permissions: string[],
  extra: Record<string, unknown> = {},
): Promise<KeyCredentials> {
  await ensureWorkspace(client, workspace).catch(() => undefined);
  const response = await client.post(
    '/api/meshobjects/meshapikeys',
    {
      apiVersion: 'v1-preview',
      kind: 'meshApiKey',
      metadata: { ownedByWorkspace: workspace },
      spec: { displayName: `key ${permissions.join(' ')}`.slice(0, 200), permissions, ...extra },
    },
    { headers: { accept: API_KEY, 'content-type': API_KEY } },
  );
  assert.equal(response.status, 201, response.text);
  return { uuid: response.json.metadata.uuid, clientId: response.json.status.clientId, clientSecret: response.json.status.clientSecret };
}

/** Logs in with the JSON body real runners send and returns the access token. */
export async function login(client: ApiClient, key: Pick<KeyCredentials, 'clientId' | 'clientSecret'>): Promise<string> {
  const response = await client.post(
    '/api/login',
    { clientId: key.clientId, clientSecret: key.clientSecret },
    { anonymous: true, headers: { 'content-type': 'application/json' } },
  );
  assert.equal(response.status, 200, response.text);
  return response.json.access_token;
}

/** A client acting with a fresh key of the given workspace and permissions. */
export async function clientWithKey(
  admin: ApiClient,
  workspace: string,
  permissions: string[],
): Promise<{ client: ApiClient; key: KeyCredentials; token: string }> {
  const key = await createKey(admin, workspace, permissions);
  const token = await login(admin, key);
  return { client: admin.with({ authorization: `Bearer ${token}` }), key, token };
}
