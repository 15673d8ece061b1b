import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  assertError,
  createDefinition,
  firstVersionUuid,
  putVersion,
  SHARED_TERRAFORM_RUNNER,
  versionSpec,
  type ImplementationType,
} from './support/definitions.js';
import { API_KEY, clientWithKey } from './support/identity.js';
import { getRunner, registerRunner } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { media, type ApiClient } from './support/client.js';
import {
  createLocation,
  createPlatform,
  createProject,
  createTenant,
  createWorkspace,
  io,
  unique,
  type Json,
} from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
const keyBody = (workspace: string, permissions: string[]) => ({
  apiVersion: 'v1-preview',
  kind: 'meshApiKey',
  metadata: { ownedByWorkspace: workspace },
  spec: { displayName: 'codes', permissions },
});
/** Every permission code the Terraform provider offers (client/api_key_permissions.go at the pinned commit). */
const PROVIDER_CODES = [
  'APIKEY_DELETE',
  'ADM_APIKEY_DELETE',
  'APIKEY_LIST',
  'ADM_APIKEY_LIST',
  'APIKEY_SAVE',
  'ADM_APIKEY_SAVE',
  'BUILDINGBLOCK_DELETE',
  'ADM_BUILDINGBLOCK_DELETE',
  'BUILDINGBLOCK_LIST',
  'ADM_BUILDINGBLOCK_LIST',
  'MANAGED_BUILDINGBLOCK_LIST',
  'BUILDINGBLOCK_SAVE',
  'ADM_BUILDINGBLOCK_SAVE',
  'MANAGED_BUILDINGBLOCK_SAVE',
  'BUILDINGBLOCKDEFINITION_DELETE',
  'ADM_BUILDINGBLOCKDEFINITION_DELETE',
  'BUILDINGBLOCKDEFINITION_LIST',
  'ADM_BUILDINGBLOCKDEFINITION_LIST',
  'BUILDINGBLOCKDEFINITION_SAVE',
  'ADM_BUILDINGBLOCKDEFINITION_SAVE',
  'ADM_REVIEW_PUBLICATION',
  'MANAGED_BUILDINGBLOCKRUN_LIST',
  'ADM_BUILDINGBLOCKRUN_LIST',
  'MANAGED_BUILDINGBLOCKRUN_SAVE',
  'ADM_BUILDINGBLOCKRUN_SAVE',
  'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE',
  'ADM_BUILDINGBLOCKRUNSOURCE_SAVE',
  'BUILDINGBLOCKRUNNER_DELETE',
  'ADM_BUILDINGBLOCKRUNNER_DELETE',
  'BUILDINGBLOCKRUNNER_LIST',
  'ADM_BUILDINGBLOCKRUNNER_LIST',
  'BUILDINGBLOCKRUNNER_SAVE',
  'ADM_BUILDINGBLOCKRUNNER_SAVE',
  'COMMUNICATIONDEFINITION_DELETE',
  'ADM_COMMUNICATIONDEFINITION_DELETE',
  'COMMUNICATIONDEFINITION_LIST',
  'ADM_COMMUNICATIONDEFINITION_LIST',
  'COMMUNICATIONDEFINITION_SAVE',
  'ADM_COMMUNICATIONDEFINITION_SAVE',
  'COMMUNICATION_DELETE',
  'ADM_COMMUNICATION_DELETE',
  'COMMUNICATION_LIST',
  'ADM_COMMUNICATION_LIST',
  'COMMUNICATION_SAVE',
  'ADM_COMMUNICATION_SAVE',
  'EVENTLOG_LIST',
  'ADM_EVENTLOG_LIST',
  'INTEGRATION_DELETE',
  'ADM_INTEGRATION_DELETE',
  'INTEGRATION_LIST',
  'ADM_INTEGRATION_LIST',
  'INTEGRATION_SAVE',
  'ADM_INTEGRATION_SAVE',
  'LANDINGZONE_DELETE',
  'ADM_LANDINGZONE_DELETE',
  'LANDINGZONE_LIST',
  'ADM_LANDINGZONE_LIST',
  'LANDINGZONE_SAVE',
  'ADM_LANDINGZONE_SAVE',
  'ADM_PAYMENTMETHOD_DELETE',
  'PAYMENTMETHOD_LIST',
  'ADM_PAYMENTMETHOD_LIST',
  'ADM_PAYMENTMETHOD_SAVE',
  'PLATFORMINSTANCE_DELETE',
  'ADM_PLATFORMINSTANCE_DELETE',
  'PLATFORMINSTANCE_LIST',
  'ADM_PLATFORMINSTANCE_LIST',
  'PLATFORMINSTANCE_SAVE',
  'ADM_PLATFORMINSTANCE_SAVE',
  'PROJECTPRINCIPALROLE_DELETE',
  'ADM_PROJECTPRINCIPALROLE_DELETE',
  'PROJECTPRINCIPALROLE_LIST',
  'ADM_PROJECTPRINCIPALROLE_LIST',
  'PROJECTPRINCIPALROLE_SAVE',
  'ADM_PROJECTPRINCIPALROLE_SAVE',
  'ADM_PROJECTROLE_DELETE',
  'ADM_PROJECTROLE_SAVE',
  'PROJECT_DELETE',
  'ADM_PROJECT_DELETE',
  'PROJECT_LIST',
  'ADM_PROJECT_LIST',
  'PROJECT_SAVE',
  'ADM_PROJECT_SAVE',
  'SERVICEINSTANCE_DELETE',
  'ADM_SERVICEINSTANCE_DELETE',
  'SERVICEINSTANCE_LIST',
  'ADM_SERVICEINSTANCE_LIST',
  'SERVICEINSTANCE_SAVE',
  'ADM_SERVICEINSTANCE_SAVE',
  'ADM_TAGDEFINITION_DELETE',
  'ADM_TAGDEFINITION_LIST',
  'ADM_TAGDEFINITION_SAVE',
  'TENANT_DELETE',
  'ADM_TENANT_DELETE',
  'MANAGED_TENANT_IMPORT',
  'ADM_TENANT_IMPORT',
  'TENANT_LIST',
  'ADM_TENANT_LIST',
  'TENANT_SAVE',
  'ADM_TENANT_SAVE',
  'TFSTATE_DELETE',
  'ADM_TFSTATE_DELETE',
  'MANAGED_TFSTATE_DELETE',
  'TFSTATE_LIST',
  'ADM_TFSTATE_LIST',
  'MANAGED_TFSTATE_LIST',
  'TFSTATE_SAVE',
  'ADM_TFSTATE_SAVE',
  'MANAGED_TFSTATE_SAVE',
  'ADM_USER_DELETE',
  'ADM_USER_LIST',
  'ADM_USER_SAVE',
  'WORKSPACEPRINCIPALBINDING_DELETE',
  'ADM_WORKSPACEPRINCIPALBINDING_DELETE',
  'WORKSPACEPRINCIPALBINDING_LIST',
  'ADM_WORKSPACEPRINCIPALBINDING_LIST',
  'WORKSPACEPRINCIPALBINDING_SAVE',
  'ADM_WORKSPACEPRINCIPALBINDING_SAVE',
  'WORKSPACEUSERGROUP_LIST',
  'ADM_WORKSPACEUSERGROUP_LIST',
  'WORKSPACE_DELETE',
  'ADM_WORKSPACE_DELETE',
  'WORKSPACE_LIST',
  'ADM_WORKSPACE_LIST',
  'WORKSPACE_SAVE',
  'ADM_WORKSPACE_SAVE',
];

describeEachDatabase('kinds as the Terraform provider writes them', (ctx) => {
  describe('API key permission codes', () => {
    it('an admin key creating a key with an unknown code gets 400 naming the code, and nothing is stored', async () => {
      const ws = unique('keys');
      await createWorkspace(ctx.client, ws);
      const { client: admin } = await clientWithKey(ctx.client, ws, ['ADM_APIKEY_SAVE', 'ADM_APIKEY_LIST', 'APIKEY_SAVE', 'APIKEY_LIST']);
      const before = await admin.get(`${KEYS}?workspaceIdentifier=${ws}`, { headers: { accept: API_KEY } });
      assertError(
        await admin.post(KEYS, keyBody(ws, ['APIKEY_LIST', 'NOT_A_PERMISSION']), { headers: io(API_KEY) }),
        400,
        /spec\.permissions.*NOT_A_PERMISSION/,
      );
      const after = await admin.get(`${KEYS}?workspaceIdentifier=${ws}`, { headers: { accept: API_KEY } });
      assert.equal(after.json.page.totalElements, before.json.page.totalElements, 'no key was stored');
      const made = await admin.post(KEYS, keyBody(ws, ['APIKEY_LIST']), { headers: io(API_KEY) });
      assert.equal(made.status, 201, made.text);
      assertError(
        await admin.put(`${KEYS}/${made.json.metadata.uuid}`, keyBody(ws, ['APIKEY_LIST', 'NOT_A_PERMISSION']), { headers: io(API_KEY) }),
        400,
        /NOT_A_PERMISSION/,
      );
    });

    it('accepts every code the provider offers', async () => {
      const ws = unique('codes');
      await createWorkspace(ctx.client, ws);
      const made = await ctx.client.post(KEYS, keyBody(ws, PROVIDER_CODES), { headers: io(API_KEY) });
      assert.equal(made.status, 201, made.text);
      assert.deepEqual([...made.json.spec.permissions].sort(), [...PROVIDER_CODES].sort());
    });
  });

  describe('the shared runner the provider names by default', () => {
    it('takes versions of every implementation type, and reads as an ALL runner', async () => {
      const shared = await getRunner(ctx.client, SHARED_TERRAFORM_RUNNER);
      assert.equal(shared.status, 200, shared.text);
      assert.equal(shared.json.spec.implementationType, 'ALL');
      const ws = unique('shared');
      await createWorkspace(ctx.client, ws);
      const runnerRef = { uuid: SHARED_TERRAFORM_RUNNER, kind: 'meshBuildingBlockRunner' };
      for (const type of [
        'terraform',
        'githubWorkflows',
        'gitlabPipeline',
        'azureDevOpsPipeline',
        'manual',
      ] satisfies ImplementationType[]) {
        const uuid = (await createDefinition(ctx.client, ws)).metadata.uuid as string;
        const versionUuid = await firstVersionUuid(ctx.client, uuid);
        const put = await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, type, { runnerRef }));
        assert.equal(put.status, 200, `${type}: ${put.text}`);
        assert.deepEqual(put.json.spec.runnerRef, runnerRef, type);
      }
    });

    it("a team's own runner still serves only its implementation type", async () => {
      const ws = unique('own');
      await createWorkspace(ctx.client, ws);
      const own = (await registerRunner(ctx.client, ws, { implementationType: 'TERRAFORM' })).metadata.uuid as string;
      const uuid = (await createDefinition(ctx.client, ws)).metadata.uuid as string;
      const versionUuid = await firstVersionUuid(ctx.client, uuid);
      assertError(
        await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'githubWorkflows', { runnerRef: { uuid: own, kind: 'meshBuildingBlockRunner' } }),
        ),
        422,
        /runs TERRAFORM/,
      );
    });
  });
});

describeEachDatabase('integration secrets as the Terraform provider sends them', (ctx) => {
  const INTEGRATION = media('meshIntegration', 'v1', 'meshcloud');
  const INTEGRATIONS = '/api/meshobjects/meshintegrations';
  const runnerRef = { kind: 'meshBuildingBlockRunner', uuid: SHARED_TERRAFORM_RUNNER };
  const HASH = /^sha256:[0-9a-f]{64}$/;
  const body = (workspace: string, config: Json, uuid?: string) => ({
    apiVersion: 'v1',
    kind: 'meshIntegration',
    metadata: { ownedByWorkspace: workspace, ...(uuid ? { uuid } : {}) },
    spec: { displayName: 'Provider integration', config },
  });
  const stored = async (uuid: string) =>
    (await ctx.server.server.database.db.selectFrom('integrations').select('document').where('uuid', '=', uuid).executeTakeFirstOrThrow())
      .document;

  it('github: {plaintext} is sealed and answered as {hash}; {hash} keeps it, another hash is 409, a new plaintext rotates it', async () => {
    const ws = unique('intsec');
    await createWorkspace(ctx.client, ws);
    const github = (appPrivateKey: Json) => ({
      type: 'github',
      github: { owner: 'my-org', baseUrl: 'https://github.com', appId: '123456', appPrivateKey, runnerRef },
    });
    const created = await ctx.client.post(INTEGRATIONS, body(ws, github({ plaintext: 'provider-private-key' })), {
      headers: io(INTEGRATION),
    });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.metadata.uuid as string;
    const { hash } = created.json.spec.config.github.appPrivateKey;
    assert.match(hash, HASH);
    assert.deepEqual(created.json.spec.config.github.appPrivateKey, { hash });
    assert.ok(
      !created.text.includes('provider-private-key') && !(await stored(uuid)).includes('provider-private-key'),
      'never answered nor stored in plaintext',
    );
    const read = await ctx.client.get(`${INTEGRATIONS}/${uuid}`, { headers: { accept: INTEGRATION } });
    assert.deepEqual(read.json.spec.config.github.appPrivateKey, { hash });

    const kept = await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ hash }), uuid), { headers: io(INTEGRATION) });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(kept.json.spec.config.github.appPrivateKey, { hash });
    assertError(
      await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ hash: `sha256:${'0'.repeat(64)}` }), uuid), {
        headers: io(INTEGRATION),
      }),
      409,
      /appPrivateKey/,
    );
    const rotated = await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ plaintext: 'rotated-private-key' }), uuid), {
      headers: io(INTEGRATION),
    });
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.json.spec.config.github.appPrivateKey.hash, HASH);
    assert.notEqual(rotated.json.spec.config.github.appPrivateKey.hash, hash);
    assertError(
      await ctx.client.post(INTEGRATIONS, body(ws, github({ plaintext: '' })), { headers: io(INTEGRATION) }),
      400,
      /appPrivateKey/,
    );
  });

  it('entra id: owned by the admin workspace, its client secret as {hash}, its redirect URL computed unless sent', async () => {
    const entra = (extra: Json = {}) => ({
      type: 'entraid',
      entraid: { tenantId: 'tenant-1', clientId: 'client-1', clientSecret: { plaintext: 'entra-client-secret' }, ...extra },
    });
    const ws = unique('intentra');
    await createWorkspace(ctx.client, ws);
    assertError(
      await ctx.client.post(INTEGRATIONS, body(ws, entra()), { headers: io(INTEGRATION) }),
      400,
      /^metadata\.ownedByWorkspace.*admin/,
    );
    const created = await ctx.client.post(INTEGRATIONS, body('admin', entra()), { headers: io(INTEGRATION) });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.metadata.uuid as string;
    const { clientSecret, redirectUrl } = created.json.spec.config.entraid;
    assert.match(clientSecret.hash, HASH);
    assert.ok(!created.text.includes('entra-client-secret'));
    assert.ok(typeof redirectUrl === 'string' && redirectUrl.endsWith(uuid), redirectUrl);
    assert.equal(created.json.status.isBuiltIn, false);
    const updated = await ctx.client.put(
      `${INTEGRATIONS}/${uuid}`,
      body('admin', entra({ clientSecret: { hash: clientSecret.hash } }), uuid),
      { headers: io(INTEGRATION) },
    );
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.json.spec.config.entraid, { tenantId: 'tenant-1', clientId: 'client-1', clientSecret, redirectUrl });
    const listed = await ctx.client.get(`${INTEGRATIONS}?type=ENTRA_ID&ownedByWorkspace=admin`, { headers: { accept: INTEGRATION } });
    assert.ok(
      (listed.json._embedded.meshIntegrations as Json[]).some((i) => i.metadata.uuid === uuid),
      listed.text,
    );
    assert.equal((await ctx.client.delete(`${INTEGRATIONS}/${uuid}`)).status, 204);
  });

  it('azure devops: the token as {plaintext} reads as {hash}, and may be left out', async () => {
    const ws = unique('intado');
    await createWorkspace(ctx.client, ws);
    const azure = (extra: Json) => ({
      type: 'azuredevops',
      azuredevops: { baseUrl: 'https://dev.azure.com', organization: 'my-organization', runnerRef, ...extra },
    });
    const withToken = await ctx.client.post(INTEGRATIONS, body(ws, azure({ personalAccessToken: { plaintext: 'mock-pat-token-12345' } })), {
      headers: io(INTEGRATION),
    });
    assert.equal(withToken.status, 201, withToken.text);
    assert.match(withToken.json.spec.config.azuredevops.personalAccessToken.hash, HASH);
    assert.ok(!withToken.text.includes('mock-pat-token'));
    const without = await ctx.client.post(INTEGRATIONS, body(ws, azure({})), { headers: io(INTEGRATION) });
    assert.equal(without.status, 201, without.text);
    assert.equal(without.json.spec.config.azuredevops.personalAccessToken, undefined);
  });
});

describeEachDatabase('POST /api/metadata/openstackProjectMetadata', (ctx) => {
  const PATH = '/api/metadata/openstackProjectMetadata';
  const ask = (client: ApiClient, body: unknown) => client.post(PATH, body, { headers: { 'content-type': 'application/json' } });

  it('answers the project, workspace and tags of the OpenStack project id as the OpenAPI does; 404 for another id; 400 without one', async () => {
    const ws = unique('os');
    const location = unique('osloc');
    await createWorkspace(ctx.client, ws, { spec: { displayName: 'OpenStack customer' } });
    await createProject(ctx.client, ws, 'cloud', {
      spec: { displayName: 'Cloud project', tags: { costCenter: ['1235'], customNumber: ['1645789'] } },
    });
    await createLocation(ctx.client, location);
    const openstack = await createPlatform(ctx.client, ws, 'openstack', location);
    const projectId = randomUUID();
    await createTenant(ctx.client, ws, 'cloud', openstack, { spec: { platformTenantId: projectId } });

    const answer = await ask(ctx.client, { 'project-id': projectId });
    assert.equal(answer.status, 200, answer.text);
    assert.match(String(answer.headers['content-type']), /^application\/hal\+json/);
    assert.deepEqual(answer.json, {
      'project-identifier': 'cloud',
      'project-display-name': 'Cloud project',
      'customer-identifier': ws,
      'customer-display-name': 'OpenStack customer',
      tags: { costCenter: ['1235'], customNumber: ['1645789'] },
    });
    const unknown = randomUUID();
    assertError(await ask(ctx.client, { 'project-id': unknown }), 404, new RegExp(unknown));
    assertError(await ask(ctx.client, {}), 400, /^project-id/);
    const index = await ctx.client.get('/api/metadata', { headers: { accept: media('metadata', 'v1') } });
    assert.equal(index.json._links.openstackProjectMetadata.href.endsWith(PATH), true, index.text);
  });

  it('is for callers who read every tenant: a workspace key gets 403, an admin key 200', async () => {
    const ws = unique('oskey');
    const location = unique('oskloc');
    await createWorkspace(ctx.client, ws);
    await createProject(ctx.client, ws, 'p');
    await createLocation(ctx.client, location);
    const platform = await createPlatform(ctx.client, ws, 'openstack', location);
    const projectId = randomUUID();
    await createTenant(ctx.client, ws, 'p', platform, { spec: { platformTenantId: projectId } });
    const { client: member } = await clientWithKey(ctx.client, ws, ['TENANT_LIST', 'PROJECT_LIST', 'WORKSPACE_LIST']);
    assertError(await ask(member, { 'project-id': projectId }), 403, /ADM_TENANT_LIST/);
    const { client: admin } = await clientWithKey(ctx.client, ws, ['ADM_TENANT_LIST', 'ADM_PROJECT_LIST', 'ADM_WORKSPACE_LIST']);
    const answer = await ask(admin, { 'project-id': projectId });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json['project-identifier'], 'p');
  });
});

/** A secret of the pairs below: a string in v1, `{plaintext}` in v2. */
const secret = (name: string) => `SECRET-${name}`;
const v2Secret = (name: string) => ({ plaintext: secret(name) });
const tagMappers = { namespacePrefix: 'meshstack_', tagMappers: [{ key: 'pident', valuePattern: 'prefix-${projectIdentifier}' }] };

/** Each config type in v1's form and the same config in v2's (the OpenAPI's examples, shortened), secrets named. */
const CONFIG_PAIRS: Record<string, { v1: Json; v2: Json }> = {
  aks: {
    v1: {
      baseUrl: 'https://aks.example',
      disableSslValidation: false,
      replication: {
        accessToken: secret('aks-token'),
        namespaceNamePattern: '#{projectIdentifier}',
        servicePrincipal: {
          clientId: 'c1',
          authType: 'CREDENTIALS',
          credentialsAuthClientSecret: secret('aks-sp'),
          entraTenant: 't.example',
          objectId: 'o1',
        },
        aksClusterName: 'aks',
      },
    },
    v2: {
      baseUrl: 'https://aks.example',
      disableSslValidation: false,
      replication: {
        accessToken: v2Secret('aks-token'),
        namespaceNamePattern: '#{projectIdentifier}',
        servicePrincipal: {
          clientId: 'c1',
          entraTenant: 't.example',
          objectId: 'o1',
          auth: { type: 'credential', credential: v2Secret('aks-sp') },
        },
        aksClusterName: 'aks',
      },
    },
  },
  aws: {
    v1: {
      region: 'us-east-1',
      replication: {
        accessConfig: { organizationRootAccountRole: 'OrgRole', serviceUserConfig: { accessKey: 'AKIA', secretKey: secret('aws-key') } },
        tenantTags: tagMappers,
        awsSso: {
          arn: 'arn:sso',
          ssoAccessToken: secret('aws-sso'),
          roleMappings: {
            admin: { awsRoleName: 'AdminRole', permissionSetArns: ['arn:ps-1'] },
            member: { awsRoleName: 'MemberRole', permissionSetArns: ['arn:ps-2'] },
          },
        },
      },
    },
    v2: {
      region: 'us-east-1',
      replication: {
        accessConfig: {
          organizationRootAccountRole: 'OrgRole',
          auth: { type: 'credential', credential: { accessKey: 'AKIA', secretKey: v2Secret('aws-key') } },
        },
        tenantTags: tagMappers,
        awsSso: {
          arn: 'arn:sso',
          ssoAccessToken: v2Secret('aws-sso'),
          awsRoleMappings: [
            { projectRoleRef: { name: 'admin', kind: 'meshProjectRole' }, awsRole: 'AdminRole', permissionSetArns: ['arn:ps-1'] },
            { projectRoleRef: { name: 'member', kind: 'meshProjectRole' }, awsRole: 'MemberRole', permissionSetArns: ['arn:ps-2'] },
          ],
        },
      },
    },
  },
  azure: {
    v1: {
      entraTenant: 't.example',
      replication: {
        servicePrincipal: { clientId: 'c1', authType: 'CREDENTIALS', credentialsAuthClientSecret: secret('az-sp'), objectId: 'o1' },
        provisioning: {
          customerAgreement: { sourceServicePrincipal: { clientId: 'c2', authType: 'WORKLOAD_IDENTITY' }, destinationEntraId: 'd1' },
        },
        roleMappings: { admin: { alias: 'Owner', id: 'r1' }, reader: { alias: 'Reader', id: 'r2' } },
        updateSubscriptionName: false,
      },
    },
    v2: {
      entraTenant: 't.example',
      replication: {
        servicePrincipal: { clientId: 'c1', objectId: 'o1', auth: { type: 'credential', credential: v2Secret('az-sp') } },
        provisioning: {
          customerAgreement: { sourceServicePrincipal: { clientId: 'c2', auth: { type: 'workloadIdentity' } }, destinationEntraId: 'd1' },
        },
        azureRoleMappings: [
          { projectRoleRef: { name: 'admin', kind: 'meshProjectRole' }, azureRole: { alias: 'Owner', id: 'r1' } },
          { projectRoleRef: { name: 'reader', kind: 'meshProjectRole' }, azureRole: { alias: 'Reader', id: 'r2' } },
        ],
        updateSubscriptionName: false,
      },
    },
  },
  azurerg: {
    v1: {
      entraTenant: 't.example',
      replication: {
        servicePrincipal: { clientId: 'c1', authType: 'CREDENTIALS', credentialsAuthClientSecret: secret('rg-sp'), objectId: 'o1' },
        subscription: 's1',
      },
    },
    v2: {
      entraTenant: 't.example',
      replication: {
        servicePrincipal: { clientId: 'c1', objectId: 'o1', auth: { type: 'credential', credential: v2Secret('rg-sp') } },
        subscription: 's1',
      },
    },
  },
  gcp: {
    v1: {
      replication: {
        serviceAccountConfig: { serviceAccountCredentialsConfig: { serviceAccountCredentialsB64: secret('gcp-sa') } },
        domain: 'example.com',
        roleMappings: { admin: 'roles/owner', reader: 'roles/viewer' },
      },
    },
    v2: {
      replication: {
        serviceAccount: { type: 'credential', credential: v2Secret('gcp-sa') },
        domain: 'example.com',
        gcpRoleMappings: [
          { projectRoleRef: { name: 'admin', kind: 'meshProjectRole' }, gcpRole: 'roles/owner' },
          { projectRoleRef: { name: 'reader', kind: 'meshProjectRole' }, gcpRole: 'roles/viewer' },
        ],
      },
    },
  },
  kubernetes: {
    v1: {
      baseUrl: 'https://k8s.example',
      replication: { clientConfig: { accessToken: secret('k8s') }, namespaceNamePattern: '#{projectIdentifier}' },
    },
    v2: {
      baseUrl: 'https://k8s.example',
      replication: { clientConfig: { accessToken: v2Secret('k8s') }, namespaceNamePattern: '#{projectIdentifier}' },
    },
  },
  openshift: {
    v1: {
      baseUrl: 'https://os.example',
      replication: {
        clientConfig: { accessToken: secret('os') },
        projectNamePattern: '#{projectIdentifier}',
        roleMappings: { admin: 'admin', member: 'edit' },
      },
    },
    v2: {
      baseUrl: 'https://os.example',
      replication: {
        clientConfig: { accessToken: v2Secret('os') },
        projectNamePattern: '#{projectIdentifier}',
        openshiftRoleMappings: [
          { projectRoleRef: { name: 'admin', kind: 'meshProjectRole' }, openshiftRole: 'admin' },
          { projectRoleRef: { name: 'member', kind: 'meshProjectRole' }, openshiftRole: 'edit' },
        ],
      },
    },
  },
  custom: {
    v1: { platformTypeRef: { name: 'CUSTOM', kind: 'meshPlatformType' } },
    v2: { platformTypeRef: { name: 'CUSTOM', kind: 'meshPlatformType' } },
  },
};

/** Secrets as a comparable placeholder: sent (`SECRET-…`, `{plaintext}`) or answered (`{hash}`, v1's `*****`). */
function secretsNamed(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('SECRET-') || value === '*****' ? '<secret>' : value;
  if (Array.isArray(value)) return value.map(secretsNamed);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (
      keys.length === 1 &&
      (keys[0] === 'plaintext' || (keys[0] === 'hash' && /^sha256:[0-9a-f]{64}$/.test(String((value as Json).hash))))
    )
      return '<secret>';
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secretsNamed(item)]));
  }
  return value;
}

describeEachDatabase('platform configs through v1 and v2', (ctx) => {
  const V1 = media('meshplatform', 'v1');
  const V2 = media('meshPlatform', 'v2', 'meshcloud');
  const PLATFORMS = '/api/meshobjects/meshplatforms';
  const body = (version: 'v1' | 'v2', ws: string, name: string, location: string, config: Json) => ({
    apiVersion: version,
    kind: 'meshPlatform',
    metadata: { name, ownedByWorkspace: ws },
    spec: {
      displayName: name,
      locationRef: version === 'v1' ? { kind: 'meshLocation', identifier: location } : { kind: 'meshLocation', name: location },
      config,
    },
  });
  const read = async (uuid: string, accept: string) => {
    const response = await ctx.client.get(`${PLATFORMS}/${uuid}`, { headers: { accept } });
    assert.equal(response.status, 200, response.text);
    assert.ok(!response.text.includes('SECRET-'), `no plaintext secret in ${response.text}`);
    return response.json;
  };

  it("a platform stored in v1's form (written before the conversion) reads in v2's, its string secrets sealed", async () => {
    const ws = unique('pclegacy');
    const location = unique('pclegloc');
    await createWorkspace(ctx.client, ws);
    await createLocation(ctx.client, location);
    const made = await ctx.client.post(
      PLATFORMS,
      body('v2', ws, unique('legacy'), location, { type: 'kubernetes', kubernetes: { baseUrl: 'https://k8s.example' } }),
      { headers: io(V2) },
    );
    assert.equal(made.status, 201, made.text);
    const uuid = made.json.metadata.uuid as string;
    const { db } = ctx.server.server.database;
    const row = await db.selectFrom('platforms').select('document').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    const document = JSON.parse(row.document) as Json;
    document.spec.config = { type: 'openshift', openshift: CONFIG_PAIRS.openshift!.v1 };
    await db
      .updateTable('platforms')
      .set({ document: JSON.stringify(document) })
      .where('uuid', '=', uuid)
      .execute();
    const asV2 = await read(uuid, V2);
    assert.deepEqual(secretsNamed(asV2.spec.config), secretsNamed({ type: 'openshift', openshift: CONFIG_PAIRS.openshift!.v2 }));
    assert.equal(
      (await read(uuid, V2)).spec.config.openshift.replication.clientConfig.accessToken.hash,
      asV2.spec.config.openshift.replication.clientConfig.accessToken.hash,
      'the same hash on every read',
    );
    assert.deepEqual(
      secretsNamed((await read(uuid, V1)).spec.config),
      secretsNamed({ type: 'openshift', openshift: CONFIG_PAIRS.openshift!.v1 }),
    );
  });

  for (const [type, pair] of Object.entries(CONFIG_PAIRS)) {
    it(`${type}: made through either version, reads in each version's form; v1's masks and v2's hashes keep the secrets`, async () => {
      const ws = unique('pc');
      const location = unique('pcloc');
      await createWorkspace(ctx.client, ws);
      await createLocation(ctx.client, location);
      const v1Config = { type, [type]: pair.v1 };
      const v2Config = { type, [type]: pair.v2 };
      for (const [version, sent] of [
        ['v1', v1Config],
        ['v2', v2Config],
      ] as const) {
        const made = await ctx.client.post(PLATFORMS, body(version, ws, unique(`${type}-${version}`), location, sent), {
          headers: io(version === 'v1' ? V1 : V2),
        });
        assert.equal(made.status, 201, `${type} through ${version}: ${made.text}`);
        assert.ok(!made.text.includes('SECRET-'), made.text);
        const uuid = made.json.metadata.uuid as string;
        const asV2 = await read(uuid, V2);
        const asV1 = await read(uuid, V1);
        assert.deepEqual(secretsNamed(asV2.spec.config), secretsNamed(v2Config), `${type} made through ${version}, read through v2`);
        assert.deepEqual(secretsNamed(asV1.spec.config), secretsNamed(v1Config), `${type} made through ${version}, read through v1`);
        const hashes = asV2.spec.config;

        const viaV1 = await ctx.client.put(
          `${PLATFORMS}/${uuid}`,
          { ...asV1, spec: { ...asV1.spec, displayName: 'kept through v1' } },
          { headers: io(V1) },
        );
        assert.equal(viaV1.status, 200, viaV1.text);
        assert.deepEqual((await read(uuid, V2)).spec.config, hashes, `${type}: v1's masks keep every secret`);
        const viaV2 = await ctx.client.put(
          `${PLATFORMS}/${uuid}`,
          { ...asV2, spec: { ...asV2.spec, displayName: 'kept through v2' } },
          { headers: io(V2) },
        );
        assert.equal(viaV2.status, 200, viaV2.text);
        assert.deepEqual(viaV2.json.spec.config, hashes, `${type}: v2's hashes keep every secret`);
      }
    });
  }
});
