import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import { ApiKey, apiKeys, type ApiKeyValue } from './building-block-structs.js';
import { go } from './go-json.js';
import { connectProvider, describeProvider } from './provider-client.js';
import { planned, resourceFlow } from './terraform.js';

/**
 * meshstack_api_key (internal/provider/api_key_resource.go): the secret comes back on create and
 * on rotation (expires_at changed) only, reads keep the one in state; an update's answer must
 * carry a status (the provider reads status.clientSecret of it without a nil check); the key logs
 * in as the acceptance test's second provider does.
 */
const body = (workspace: string, displayName: string, permissions: string[], expiresAt?: string, uuid?: string) => ({
  metadata: { ...(uuid ? { uuid } : {}), ownedByWorkspace: workspace },
  spec: { displayName, permissions, ...(expiresAt ? { expiresAt } : {}) },
});

const RULES = { ignore: ['metadata.uuid', 'status'], sets: ['spec.permissions'] };

describeProvider('meshstack_api_key', (ctx) => {
  let workspace: string;
  before(async () => {
    workspace = unique('tfp-key');
    await createWorkspace(ctx.server.client, workspace);
  });

  it('create, log in with it, read, plan again, update, rotate, import, destroy', async () => {
    const client = apiKeys(ctx.provider);
    let secret: string | null = null;
    await resourceFlow<ApiKeyValue>({
      resource: 'meshstack_api_key',
      rules: RULES,
      importIgnore: ['status.clientSecret'],
      async create() {
        const sent = body(workspace, 'ci-key', ['LANDINGZONE_LIST', 'PROJECT_LIST'], '2099-06-30');
        const state = await client.post(sent);
        assert.ok(state.status?.clientId, 'status.clientId on create');
        assert.ok(state.status?.clientSecret, 'status.clientSecret on create');
        secret = state.status.clientSecret;
        // The acceptance test's provider "meshstack-other" logs in with the new key.
        const other = await connectProvider(ctx.server, { clientId: state.status.clientId, clientSecret: secret });
        await other.objects('meshProject', 'v2', go.any).list({ workspaceIdentifier: workspace });
        await other.close();
        return { sent: planned(ApiKey, sent), state };
      },
      async read(state) {
        const read = await client.get(state.metadata.uuid!);
        // The API never returns client_secret on read; the provider keeps the one in state.
        if (read?.status && read.status.clientSecret === null) read.status.clientSecret = state.status?.clientSecret ?? null;
        return read;
      },
      async update(state) {
        const renamed = body(workspace, 'ci-key renamed', ['LANDINGZONE_LIST', 'PROJECT_LIST', 'WORKSPACE_LIST'], '2099-06-30', state.metadata.uuid!);
        const updated = await client.put(state.metadata.uuid!, renamed);
        assert.ok(updated.status, 'an update answers a status (the provider reads status.clientSecret without a nil check)');
        if (updated.status.clientSecret === null) updated.status.clientSecret = secret;
        assert.equal(updated.status.clientSecret, secret, 'an unchanged expiry keeps the secret');

        // expires_at changed: the secret is rotated and answered.
        const rotate = body(workspace, 'ci-key renamed', ['LANDINGZONE_LIST', 'PROJECT_LIST', 'WORKSPACE_LIST'], '2099-12-31', state.metadata.uuid!);
        const rotated = await client.put(state.metadata.uuid!, rotate);
        assert.ok(rotated.status?.clientSecret, 'a changed expires_at answers the new secret');
        assert.notEqual(rotated.status.clientSecret, secret);
        return { sent: planned(ApiKey, rotate), state: rotated };
      },
      // An import has no state to keep the secret from.
      importRead: (state) => client.get(state.metadata.uuid!),
      destroy: (state) => client.delete(state.metadata.uuid!),
    });
  });
});
