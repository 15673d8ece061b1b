import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { before, it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import { Runner, runners, type RunnerValue } from './building-block-structs.js';
import { describeProvider } from './provider-client.js';
import { planned, resourceFlow } from './terraform.js';

/**
 * meshstack_building_block_runner (internal/provider/building_block_runner_resource.go): the
 * examples' runners, with and without workload identity federation, for each implementation type
 * the provider offers.
 */
const publicKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** MeshBuildingBlockRunner as marshalled: restriction, isSelfHosted and workloadIdentityFederation omitempty. */
const body = (workspace: string, implementationType: string, displayName: string, key: string, extra: Record<string, unknown> = {}, uuid?: string) => ({
  metadata: { ...(uuid ? { uuid } : {}), ownedByWorkspace: workspace },
  spec: { displayName, publicKey: key, implementationType, ...extra },
});

const RULES = {
  // created_on and last_seen, restriction (optional and computed) and is_self_hosted are computed.
  ignore: ['metadata.uuid', 'metadata.createdOn', 'metadata.lastSeen', 'spec.isSelfHosted'],
};

describeProvider('meshstack_building_block_runner', (ctx) => {
  let workspace: string;
  before(async () => {
    workspace = unique('tfp-run');
    await createWorkspace(ctx.server.client, workspace);
  });

  const cases: [string, string, Record<string, unknown>][] = [
    ['a private Terraform runner', 'TERRAFORM', { restriction: 'PRIVATE' }],
    [
      'a Terraform runner with GCP workload identity federation',
      'TERRAFORM',
      {
        restriction: 'PRIVATE',
        workloadIdentityFederation: { subject: 'system:serviceaccount:namespace:my-runner', issuer: 'https://oidc.example.com', gcp: { audience: 'gcp-workload-identity-provider:namespace', tokenPath: '/var/run/secrets/workload-identity/token' } },
      },
    ],
    ['a GitHub workflow runner', 'GITHUB_WORKFLOW', {}],
    ['a GitLab pipeline runner', 'GITLAB_PIPELINE', {}],
    ['an Azure DevOps pipeline runner', 'AZURE_DEVOPS_PIPELINE', {}],
    ['a manual runner', 'MANUAL', {}],
  ];
  for (const [title, implementationType, extra] of cases) {
    it(`${title}: create, read, plan again, update, import, destroy`, async () => {
      const client = runners(ctx.provider);
      const key = publicKey();
      const rules = { ignore: [...RULES.ignore, ...('restriction' in extra ? [] : ['spec.restriction'])] };
      await resourceFlow<RunnerValue>({
        resource: `meshstack_building_block_runner (${implementationType})`,
        rules,
        async create() {
          const sent = body(workspace, implementationType, `Runner ${implementationType}`, key, extra);
          const state = await client.post(sent);
          assert.ok(state.metadata.uuid, 'the provider dereferences metadata.uuid');
          return { sent: planned(Runner, sent), state };
        },
        read: (state) => client.get(state.metadata.uuid!),
        async update(state) {
          // Computed attributes the plan does not know are sent as zero values (omitted).
          const sent = body(workspace, implementationType, `Runner ${implementationType} renamed`, key, extra, state.metadata.uuid!);
          return { sent: planned(Runner, sent), state: await client.put(state.metadata.uuid!, sent) };
        },
        destroy: (state) => client.delete(state.metadata.uuid!),
      });
    });
  }
});
