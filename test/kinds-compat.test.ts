import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { assertError, createDefinition, firstVersionUuid, putVersion, SHARED_TERRAFORM_RUNNER, versionSpec, type ImplementationType } from './support/definitions.js';
import { API_KEY, clientWithKey } from './support/identity.js';
import { getRunner, registerRunner } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { media, type ApiClient } from './support/client.js';
import { createLocation, createPlatform, createProject, createTenant, createWorkspace, io, unique, type Json } from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
const keyBody = (workspace: string, permissions: string[]) => ({ apiVersion: 'v1-preview', kind: 'meshApiKey', metadata: { ownedByWorkspace: workspace }, spec: { displayName: 'codes', permissions } });
/** Every permission code the Terraform provider offers (client/api_key_permissions.go at the pinned commit). */
const PROVIDER_CODES = [
  'APIKEY_DELETE', 'ADM_APIKEY_DELETE', 'APIKEY_LIST', 'ADM_APIKEY_LIST', 'APIKEY_SAVE', 'ADM_APIKEY_SAVE', 'BUILDINGBLOCK_DELETE',
  'ADM_BUILDINGBLOCK_DELETE', 'BUILDINGBLOCK_LIST', 'ADM_BUILDINGBLOCK_LIST', 'MANAGED_BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE',
  'ADM_BUILDINGBLOCK_SAVE', 'MANAGED_BUILDINGBLOCK_SAVE', 'BUILDINGBLOCKDEFINITION_DELETE', 'ADM_BUILDINGBLOCKDEFINITION_DELETE',
  'BUILDINGBLOCKDEFINITION_LIST', 'ADM_BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCKDEFINITION_SAVE', 'ADM_BUILDINGBLOCKDEFINITION_SAVE',
  'ADM_REVIEW_PUBLICATION', 'MANAGED_BUILDINGBLOCKRUN_LIST', 'ADM_BUILDINGBLOCKRUN_LIST', 'MANAGED_BUILDINGBLOCKRUN_SAVE', 'ADM_BUILDINGBLOCKRUN_SAVE',
  'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE', 'ADM_BUILDINGBLOCKRUNSOURCE_SAVE', 'BUILDINGBLOCKRUNNER_DELETE', 'ADM_BUILDINGBLOCKRUNNER_DELETE',
  'BUILDINGBLOCKRUNNER_LIST', 'ADM_BUILDINGBLOCKRUNNER_LIST', 'BUILDINGBLOCKRUNNER_SAVE', 'ADM_BUILDINGBLOCKRUNNER_SAVE',
  'COMMUNICATIONDEFINITION_DELETE', 'ADM_COMMUNICATIONDEFINITION_DELETE', 'COMMUNICATIONDEFINITION_LIST', 'ADM_COMMUNICATIONDEFINITION_LIST',
  'COMMUNICATIONDEFINITION_SAVE', 'ADM_COMMUNICATIONDEFINITION_SAVE', 'COMMUNICATION_DELETE', 'ADM_COMMUNICATION_DELETE', 'COMMUNICATION_LIST',
  'ADM_COMMUNICATION_LIST', 'COMMUNICATION_SAVE', 'ADM_COMMUNICATION_SAVE', 'EVENTLOG_LIST', 'ADM_EVENTLOG_LIST', 'INTEGRATION_DELETE',
  'ADM_INTEGRATION_DELETE', 'INTEGRATION_LIST', 'ADM_INTEGRATION_LIST', 'INTEGRATION_SAVE', 'ADM_INTEGRATION_SAVE', 'LANDINGZONE_DELETE',
  'ADM_LANDINGZONE_DELETE', 'LANDINGZONE_LIST', 'ADM_LANDINGZONE_LIST', 'LANDINGZONE_SAVE', 'ADM_LANDINGZONE_SAVE', 'ADM_PAYMENTMETHOD_DELETE',
  'PAYMENTMETHOD_LIST', 'ADM_PAYMENTMETHOD_LIST', 'ADM_PAYMENTMETHOD_SAVE', 'PLATFORMINSTANCE_DELETE', 'ADM_PLATFORMINSTANCE_DELETE',
  'PLATFORMINSTANCE_LIST', 'ADM_PLATFORMINSTANCE_LIST', 'PLATFORMINSTANCE_SAVE', 'ADM_PLATFORMINSTANCE_SAVE', 'PROJECTPRINCIPALROLE_DELETE',
  'ADM_PROJECTPRINCIPALROLE_DELETE', 'PROJECTPRINCIPALROLE_LIST', 'ADM_PROJECTPRINCIPALROLE_LIST', 'PROJECTPRINCIPALROLE_SAVE',
  'ADM_PROJECTPRINCIPALROLE_SAVE', 'ADM_PROJECTROLE_DELETE', 'ADM_PROJECTROLE_SAVE', 'PROJECT_DELETE', 'ADM_PROJECT_DELETE', 'PROJECT_LIST',
  'ADM_PROJECT_LIST', 'PROJECT_SAVE', 'ADM_PROJECT_SAVE', 'SERVICEINSTANCE_DELETE', 'ADM_SERVICEINSTANCE_DELETE', 'SERVICEINSTANCE_LIST',
  'ADM_SERVICEINSTANCE_LIST', 'SERVICEINSTANCE_SAVE', 'ADM_SERVICEINSTANCE_SAVE', 'ADM_TAGDEFINITION_DELETE', 'ADM_TAGDEFINITION_LIST',
  'ADM_TAGDEFINITION_SAVE', 'TENANT_DELETE', 'ADM_TENANT_DELETE', 'MANAGED_TENANT_IMPORT', 'ADM_TENANT_IMPORT', 'TENANT_LIST', 'ADM_TENANT_LIST',
  'TENANT_SAVE', 'ADM_TENANT_SAVE', 'TFSTATE_DELETE', 'ADM_TFSTATE_DELETE', 'MANAGED_TFSTATE_DELETE', 'TFSTATE_LIST', 'ADM_TFSTATE_LIST',
  'MANAGED_TFSTATE_LIST', 'TFSTATE_SAVE', 'ADM_TFSTATE_SAVE', 'MANAGED_TFSTATE_SAVE', 'ADM_USER_DELETE', 'ADM_USER_LIST', 'ADM_USER_SAVE',
  'WORKSPACEPRINCIPALBINDING_DELETE', 'ADM_WORKSPACEPRINCIPALBINDING_DELETE', 'WORKSPACEPRINCIPALBINDING_LIST', 'ADM_WORKSPACEPRINCIPALBINDING_LIST',
  'WORKSPACEPRINCIPALBINDING_SAVE', 'ADM_WORKSPACEPRINCIPALBINDING_SAVE', 'WORKSPACEUSERGROUP_LIST', 'ADM_WORKSPACEUSERGROUP_LIST', 'WORKSPACE_DELETE',
  'ADM_WORKSPACE_DELETE', 'WORKSPACE_LIST', 'ADM_WORKSPACE_LIST', 'WORKSPACE_SAVE', 'ADM_WORKSPACE_SAVE',
];

describeEachDatabase('kinds as the Terraform provider writes them', (ctx) => {
  describe('API key permission codes', () => {
    it('an admin key creating a key with an unknown code gets 400 naming the code, and nothing is stored', async () => {
      const ws = unique('keys');
      await createWorkspace(ctx.client, ws);
      const { client: admin } = await clientWithKey(ctx.client, ws, ['ADM_APIKEY_SAVE', 'ADM_APIKEY_LIST', 'APIKEY_SAVE', 'APIKEY_LIST']);
      const before = await admin.get(`${KEYS}?workspaceIdentifier=${ws}`, { headers: { accept: API_KEY } });
      assertError(await admin.post(KEYS, keyBody(ws, ['APIKEY_LIST', 'NOT_A_PERMISSION']), { headers: io(API_KEY) }), 400, /spec\.permissions.*NOT_A_PERMISSION/);
      const after = await admin.get(`${KEYS}?workspaceIdentifier=${ws}`, { headers: { accept: API_KEY } });
      assert.equal(after.json.page.totalElements, before.json.page.totalElements, 'no key was stored');
      const made = await admin.post(KEYS, keyBody(ws, ['APIKEY_LIST']), { headers: io(API_KEY) });
      assert.equal(made.status, 201, made.text);
      assertError(await admin.put(`${KEYS}/${made.json.metadata.uuid}`, keyBody(ws, ['APIKEY_LIST', 'NOT_A_PERMISSION']), { headers: io(API_KEY) }), 400, /NOT_A_PERMISSION/);
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
      for (const type of ['terraform', 'githubWorkflows', 'gitlabPipeline', 'azureDevOpsPipeline', 'manual'] satisfies ImplementationType[]) {
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
      assertError(await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'githubWorkflows', { runnerRef: { uuid: own, kind: 'meshBuildingBlockRunner' } })), 422, /runs TERRAFORM/);
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
  const stored = async (uuid: string) => (await ctx.server.server.database.db.selectFrom('integrations').select('document').where('uuid', '=', uuid).executeTakeFirstOrThrow()).document;

  it('github: {plaintext} is sealed and answered as {hash}; {hash} keeps it, another hash is 409, a new plaintext rotates it', async () => {
    const ws = unique('intsec');
    await createWorkspace(ctx.client, ws);
    const github = (appPrivateKey: Json) => ({ type: 'github', github: { owner: 'my-org', baseUrl: 'https://github.com', appId: '123456', appPrivateKey, runnerRef } });
    const created = await ctx.client.post(INTEGRATIONS, body(ws, github({ plaintext: 'provider-private-key' })), { headers: io(INTEGRATION) });
    assert.equal(created.status, 201, created.text);
    const uuid = created.json.metadata.uuid as string;
    const { hash } = created.json.spec.config.github.appPrivateKey;
    assert.match(hash, HASH);
    assert.deepEqual(created.json.spec.config.github.appPrivateKey, { hash });
    assert.ok(!created.text.includes('provider-private-key') && !(await stored(uuid)).includes('provider-private-key'), 'never answered nor stored in plaintext');
    const read = await ctx.client.get(`${INTEGRATIONS}/${uuid}`, { headers: { accept: INTEGRATION } });
    assert.deepEqual(read.json.spec.config.github.appPrivateKey, { hash });

    const kept = await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ hash }), uuid), { headers: io(INTEGRATION) });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(kept.json.spec.config.github.appPrivateKey, { hash });
    assertError(await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ hash: `sha256:${'0'.repeat(64)}` }), uuid), { headers: io(INTEGRATION) }), 409, /appPrivateKey/);
    const rotated = await ctx.client.put(`${INTEGRATIONS}/${uuid}`, body(ws, github({ plaintext: 'rotated-private-key' }), uuid), { headers: io(INTEGRATION) });
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.json.spec.config.github.appPrivateKey.hash, HASH);
    assert.notEqual(rotated.json.spec.config.github.appPrivateKey.hash, hash);
    assertError(await ctx.client.post(INTEGRATIONS, body(ws, github({ plaintext: '' })), { headers: io(INTEGRATION) }), 400, /appPrivateKey/);
  });

  it('azure devops: the token as {plaintext} reads as {hash}, and may be left out', async () => {
    const ws = unique('intado');
    await createWorkspace(ctx.client, ws);
    const azure = (extra: Json) => ({ type: 'azuredevops', azuredevops: { baseUrl: 'https://dev.azure.com', organization: 'my-organization', runnerRef, ...extra } });
    const withToken = await ctx.client.post(INTEGRATIONS, body(ws, azure({ personalAccessToken: { plaintext: 'mock-pat-token-12345' } })), { headers: io(INTEGRATION) });
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
    await createProject(ctx.client, ws, 'cloud', { spec: { displayName: 'Cloud project', tags: { costCenter: ['1235'], customNumber: ['1645789'] } } });
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
