import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import { expectHash, Integration, integrations, SHARED_RUNNER_REF, type IntegrationValue } from './building-block-structs.js';
import { describeProvider, type SecretValue } from './provider-client.js';
import { planned, resourceFlow } from './terraform.js';

/**
 * meshstack_integration (internal/provider/integration_resource.go) and meshstack_integrations:
 * every config type of examples/resources/meshstack_integration, secrets sent as `{plaintext}` on
 * create, as the state's `{hash}` on an update that keeps them, `{hash}` expected back each time.
 */
const SECRET_FIELD: Record<string, string | undefined> = { github: 'appPrivateKey', gitlab: undefined, azuredevops: 'personalAccessToken', entraid: 'clientSecret' };

function configOf(type: string, secret: SecretValue | undefined): Record<string, unknown> {
  switch (type) {
    case 'github':
      // runner_ref given, as in the example.
      return { owner: 'my-org', baseUrl: 'https://github.com', appId: '123456', appPrivateKey: secret, runnerRef: SHARED_RUNNER_REF };
    case 'gitlab':
      // runner_ref omitted: ToClientDto fills in the shared runner.
      return { baseUrl: 'https://gitlab.com', runnerRef: SHARED_RUNNER_REF };
    case 'azuredevops':
      return { baseUrl: 'https://dev.azure.com', organization: 'my-organization', personalAccessToken: secret, runnerRef: SHARED_RUNNER_REF };
    default:
      // redirect_url is optional and computed: left unknown, it is not sent (omitempty).
      return { tenantId: '00000000-0000-4000-8000-000000000001', clientId: '00000000-0000-4000-8000-000000000002', clientSecret: secret };
  }
}

/** The MeshIntegration the provider marshals (status is a nil pointer without omitempty: `null`). */
const body = (workspace: string, type: string, displayName: string, secret: SecretValue | undefined, uuid?: string) => ({
  metadata: { ...(uuid ? { uuid } : {}), ownedByWorkspace: workspace },
  spec: { displayName, config: { type, [type]: Object.fromEntries(Object.entries(configOf(type, secret)).filter(([, v]) => v !== undefined)) } },
  status: null,
});

const secretOf = (integration: IntegrationValue, type: string) => {
  const field = SECRET_FIELD[type];
  return field ? ((integration.spec.config[type] as Record<string, SecretValue>)[field] ?? null) : undefined;
};

describeProvider('meshstack_integration', (ctx) => {
  let workspace: string;
  before(async () => {
    workspace = unique('tfp-int');
    await createWorkspace(ctx.server.client, workspace);
  });

  for (const type of ['github', 'gitlab', 'azuredevops', 'entraid']) {
    it(`${type}: create, read, plan again, update keeping the secret, import, destroy`, async () => {
      const client = integrations(ctx.provider);
      const secretField = SECRET_FIELD[type];
      const plaintext = `${type}-secret-${unique('s')}-plaintext`;
      // Entra ID integrations belong to the admin workspace (/mesh/info adminWorkspaceIdentifier), as in the provider's acceptance test.
      const owner = type === 'entraid' ? (await ctx.provider.meshInfo()).adminWorkspaceIdentifier : workspace;
      const rules = {
        ignore: ['metadata.uuid', 'status', 'spec.config.type', ...(secretField ? [`spec.config.${type}.${secretField}`] : []), ...(type === 'entraid' ? ['spec.config.entraid.redirectUrl'] : []), ...(type === 'github' ? [] : [`spec.config.${type}.runnerRef`])],
      };
      let hash: string | undefined;
      await resourceFlow<IntegrationValue>({
        resource: `meshstack_integration (${type})`,
        rules,
        async create() {
          const sent = body(owner, type, `Integration ${type}`, secretField ? { plaintext, hash: null } : undefined);
          const state = await client.post(sent);
          if (secretField) hash = expectHash(secretOf(state, type), `create ${type}`);
          return { sent: planned(Integration, sent), state };
        },
        read: (state) => client.get(state.metadata.uuid!),
        async update(state) {
          // No rotation: ValueToConverter sends the hash from state for the backend to check.
          const sent = body(owner, type, `Integration ${type} renamed`, secretField ? { plaintext: null, hash: hash! } : undefined, state.metadata.uuid!);
          const updated = await client.put(state.metadata.uuid!, sent);
          if (secretField) assert.equal(expectHash(secretOf(updated, type), `update ${type}`), hash, 'an unrotated secret keeps its hash');
          return { sent: planned(Integration, sent), state: updated };
        },
        destroy: (state) => client.delete(state.metadata.uuid!),
      });
    });
  }

  it('a rotated secret (a new plaintext) gets a new hash', async () => {
    const client = integrations(ctx.provider);
    const created = await client.post(body(workspace, 'github', 'Rotating', { plaintext: `first-${unique('p')}-key`, hash: null }));
    const first = expectHash(secretOf(created, 'github'), 'create');
    const rotated = await client.put(created.metadata.uuid!, body(workspace, 'github', 'Rotating', { plaintext: `second-${unique('p')}-key`, hash: null }, created.metadata.uuid!));
    assert.notEqual(expectHash(secretOf(rotated, 'github'), 'rotate'), first);
  });

  it('meshstack_integrations lists them all, each decoded', async () => {
    const client = integrations(ctx.provider);
    const created = await client.post(body(workspace, 'gitlab', 'Listed', undefined));
    const all = await client.list();
    assert.ok(all.some((integration) => integration.metadata.uuid === created.metadata.uuid));
  });
});
