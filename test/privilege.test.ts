/**
 * Privilege and secrets. Each attack of the adversarial review, tried as an attacker would:
 * bounded key delegation, admin rights from ADM_ codes only (never from a workspace's name),
 * API users only from admin-equivalent callers, operator-only run data, sensitive values of any JSON
 * type sealed, platforms and the marketplace trusting nobody by default.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PERMISSION_CODES } from '../src/auth/permissions.js';
import type { ApiClient } from './support/client.js';
import { media } from './support/client.js';
import { assertError, createReleasedDefinition, DEFINITION, DEFINITIONS, reviewVersion, VERSION } from './support/definitions.js';
import { API_KEY, clientWithKey, createKey, login, type KeyCredentials } from './support/identity.js';
import {
  asRun,
  BLOCK_V2,
  claim,
  claimForNode,
  claimRun,
  createBlock,
  getBlock,
  getRun,
  logs,
  patch,
  putRunner,
  register,
  registerRunner,
  runnerBody,
  runnerCertificate,
  RUNS,
  RUN,
  SHARED_RUNNERS,
  tenantTarget,
  TENANT_LEVEL,
} from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import {
  createLocation,
  createPlatform,
  createProject,
  createWorkspace,
  io,
  PATHS,
  PLATFORM,
  TENANT,
  tenantBody,
  unique,
  type Json,
} from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
const API_USER = media('apiuser', 'v1');
const ADMIN_CODES = [...PERMISSION_CODES].filter((code) => code.startsWith('ADM_'));
const keyBody = (workspace: string, permissions: string[], expiresAt?: string) => ({
  apiVersion: 'v1-preview',
  kind: 'meshApiKey',
  metadata: { ownedByWorkspace: workspace },
  spec: { displayName: unique('key'), permissions, ...(expiresAt ? { expiresAt } : {}) },
});
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

describeEachDatabase('privilege and secrets', (ctx) => {
  describe('1. key managers cannot escalate', () => {
    let workspace: string;
    let manager: { client: ApiClient; key: KeyCredentials };
    let strong: KeyCredentials;

    before(async () => {
      workspace = unique('esc');
      await createWorkspace(ctx.client, workspace);
      manager = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST', 'APIKEY_SAVE', 'APIKEY_DELETE']);
      strong = await createKey(ctx.client, workspace, ['BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE', 'WORKSPACE_DELETE', 'APIKEY_SAVE']);
    });

    it('grants only permissions it holds: minting BUILDINGBLOCK_*, WORKSPACE_DELETE or MANAGED_TENANT_IMPORT is 403; a subset is 201', async () => {
      for (const permissions of [
        ['BUILDINGBLOCK_LIST'],
        ['WORKSPACE_DELETE'],
        ['MANAGED_TENANT_IMPORT'],
        ['APIKEY_SAVE', 'ADM_APIKEY_SAVE'],
      ]) {
        assertError(await manager.client.post(KEYS, keyBody(workspace, permissions), { headers: io(API_KEY) }), 403, /lacks/);
      }
      const subset = await manager.client.post(KEYS, keyBody(workspace, ['APIKEY_LIST']), { headers: io(API_KEY) });
      assert.equal(subset.status, 201, subset.text);
    });

    it('cannot PUT more permissions onto itself: 403, and its token gains nothing', async () => {
      const self = await manager.client.get(`${KEYS}/${manager.key.uuid}`, { headers: { accept: API_KEY } });
      assert.equal(self.status, 200, self.text);
      const widened = { ...self.json, spec: { ...self.json.spec, permissions: [...self.json.spec.permissions, 'BUILDINGBLOCK_LIST'] } };
      assertError(
        await manager.client.put(`${KEYS}/${manager.key.uuid}`, widened, { headers: io(API_KEY) }),
        403,
        /lacks BUILDINGBLOCK_LIST/,
      );
      assertError(await manager.client.get('/api/meshobjects/meshbuildingblocks', { headers: { accept: BLOCK_V2 } }), 403);
    });

    it('never rotates, changes or deletes a stronger key of its workspace; the stronger key still logs in', async () => {
      assertError(
        await manager.client.post(`${KEYS}/${strong.uuid}/rotate-secret`, undefined, { headers: { accept: API_KEY } }),
        403,
        /holds permissions this key lacks/,
      );
      const current = (await ctx.client.get(`${KEYS}/${strong.uuid}`, { headers: { accept: API_KEY } })).json;
      assertError(
        await manager.client.put(
          `${KEYS}/${strong.uuid}`,
          { ...current, spec: { ...current.spec, permissions: ['APIKEY_SAVE'] } },
          { headers: io(API_KEY) },
        ),
        403,
      );
      assertError(await manager.client.delete(`${KEYS}/${strong.uuid}`), 403);
      await login(ctx.client, strong);
    });

    it('an expiring key makes no key that outlives it, and cannot drop its own expiry', async () => {
      const expiring = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST', 'APIKEY_SAVE']);
      const own = (await ctx.client.get(`${KEYS}/${expiring.key.uuid}`, { headers: { accept: API_KEY } })).json;
      const limited = await ctx.client.put(
        `${KEYS}/${expiring.key.uuid}`,
        { ...own, spec: { ...own.spec, expiresAt: tomorrow() } },
        { headers: io(API_KEY) },
      );
      assert.equal(limited.status, 200, limited.text);
      const token = await login(ctx.client, { clientId: expiring.key.clientId, clientSecret: limited.json.status.clientSecret });
      const client = ctx.client.with({ authorization: `Bearer ${token}` });
      assertError(await client.post(KEYS, keyBody(workspace, ['APIKEY_LIST']), { headers: io(API_KEY) }), 403, /expires/);
      assertError(await client.post(KEYS, keyBody(workspace, ['APIKEY_LIST'], nextWeek()), { headers: io(API_KEY) }), 403, /expires/);
      const bounded = await client.post(KEYS, keyBody(workspace, ['APIKEY_LIST'], tomorrow()), { headers: io(API_KEY) });
      assert.equal(bounded.status, 201, bounded.text);
      const permanent = { ...limited.json, spec: { ...limited.json.spec, expiresAt: null } };
      assertError(await client.put(`${KEYS}/${expiring.key.uuid}`, permanent, { headers: io(API_KEY) }), 403, /expires/);
    });

    it('binding rights alone (a Workspace Manager’s) grant, change and remove no Workspace Owner role; an owner’s do', async () => {
      const BINDINGS = '/api/meshobjects/meshworkspacebindings/userbindings';
      const BINDING = media('meshworkspaceuserbinding', 'v2');
      const person = unique('esc-user');
      const user = await ctx.client.post(
        '/api/meshobjects/meshusers',
        {
          apiVersion: 'v2',
          kind: 'meshUser',
          metadata: { name: person },
          spec: { email: `${person}@example.com`, firstName: 'E', lastName: 'S' },
        },
        { headers: io(media('meshuser', 'v2')) },
      );
      assert.equal(user.status, 201, user.text);
      const binding = (name: string, role: string) => ({
        apiVersion: 'v2',
        kind: 'meshWorkspaceUserBinding',
        metadata: { name },
        targetRef: { name: workspace },
        roleRef: { name: role },
        subject: { name: person },
      });
      const codes = ['WORKSPACEPRINCIPALBINDING_LIST', 'WORKSPACEPRINCIPALBINDING_SAVE', 'WORKSPACEPRINCIPALBINDING_DELETE'];
      const binder = (await clientWithKey(ctx.client, workspace, codes)).client;
      const owner = (await clientWithKey(ctx.client, workspace, [...codes, 'WORKSPACE_DELETE'])).client;
      const [granted, member] = [unique('esc-owner'), unique('esc-member')];
      assertError(await binder.post(BINDINGS, binding(granted, 'Workspace Owner'), { headers: io(BINDING) }), 403, /WORKSPACE_DELETE/);
      assert.equal((await binder.post(BINDINGS, binding(member, 'Workspace Member'), { headers: io(BINDING) })).status, 201);
      assert.equal((await owner.post(BINDINGS, binding(granted, 'Workspace Owner'), { headers: io(BINDING) })).status, 201);
      assertError(await binder.delete(`${BINDINGS}/${granted}`), 403, /WORKSPACE_DELETE/);
      assert.equal((await owner.delete(`${BINDINGS}/${granted}`)).status, 204);
    });
  });

  describe('2. the workspace named admin is not an admin', () => {
    it('a key of workspace "admin" with ordinary codes can neither change a shared runner nor claim its runs', async () => {
      const { client } = await clientWithKey(ctx.client, 'admin', [
        'BUILDINGBLOCKRUNNER_LIST',
        'BUILDINGBLOCKRUNNER_SAVE',
        'BUILDINGBLOCKRUNNER_DELETE',
        'MANAGED_BUILDINGBLOCKRUN_SAVE',
        'MANAGED_BUILDINGBLOCKRUN_LIST',
      ]);
      const shared = SHARED_RUNNERS.TERRAFORM;
      const before = await ctx.client.get(`/api/meshobjects/meshbuildingblockrunners/${shared}`, {
        headers: { accept: media('meshbuildingblockrunner', 'v1-preview') },
      });
      assert.equal(before.status, 200, before.text);
      const hijack = runnerBody('admin', (await runnerCertificate()).certificate, {
        implementationType: 'TERRAFORM',
        displayName: 'Shared Terraform runner',
      });
      assertError(await putRunner(client, shared, hijack), 403, /PUBLIC runners/);
      assertError(await claim(client, shared), 403, /ADM_BUILDINGBLOCKRUN_SAVE/);
      assertError(await claimForNode(client, 'any-node', 'TERRAFORM'), 403, /ADM_BUILDINGBLOCKRUN_SAVE/);
      assertError(await client.delete(`/api/meshobjects/meshbuildingblockrunners/${shared}`), 403);
      const after = await ctx.client.get(`/api/meshobjects/meshbuildingblockrunners/${shared}`, {
        headers: { accept: media('meshbuildingblockrunner', 'v1-preview') },
      });
      assert.deepEqual(after.json, before.json, 'the shared runner is unchanged');
    });
  });

  describe('3. a narrow admin permission does not become every permission', () => {
    it('only API users and keys holding every ADM_ code make or remove API users', async () => {
      const narrow = await clientWithKey(ctx.client, 'admin', ['ADM_USER_SAVE', 'ADM_USER_LIST', 'ADM_USER_DELETE']);
      const body = { username: unique('escalated'), password: 'escalation-password-1' };
      assertError(await narrow.client.post('/api/admin/apiusers', body, { headers: io(API_USER) }), 403, /every ADM_ permission/);
      assert.equal(
        (await ctx.client.get(`/api/admin/apiusers/${body.username}`, { headers: { accept: API_USER } })).status,
        404,
        'nothing was created',
      );

      const full = await clientWithKey(ctx.client, 'admin', ADMIN_CODES);
      const made = await full.client.post('/api/admin/apiusers', body, { headers: io(API_USER) });
      assert.equal(made.status, 201, made.text);
      assertError(await narrow.client.delete(`/api/admin/apiusers/${body.username}`), 403);
      assert.equal((await full.client.delete(`/api/admin/apiusers/${body.username}`)).status, 204);
    });
  });

  describe('4. consumers read runs only when transparent, and never operator-only data', () => {
    let provider: string;
    let consumer: string;
    let operator: ApiClient;
    let reader: ApiClient;
    let runner: string;
    let tenant: string;

    before(async () => {
      provider = unique('ops');
      consumer = unique('app');
      for (const name of [provider, consumer]) await createWorkspace(ctx.client, name);
      const project = unique('prj');
      const location = unique('loc');
      await createProject(ctx.client, consumer, project);
      await createLocation(ctx.client, location);
      const platform = await createPlatform(ctx.client, provider, unique('plf'), location, {
        spec: { availability: { restriction: 'PUBLIC' } },
      });
      tenant = (await ctx.client.post(PATHS.tenants, tenantBody(consumer, project, platform), { headers: io(TENANT) })).json.metadata.uuid;
      runner = (await registerRunner(ctx.client, provider)).metadata.uuid;
      operator = (await clientWithKey(ctx.client, provider, ['MANAGED_BUILDINGBLOCKRUN_LIST', 'MANAGED_BUILDINGBLOCKRUN_SAVE'])).client;
      reader = (await clientWithKey(ctx.client, consumer, ['BUILDINGBLOCK_LIST'])).client;
    });

    /** A run of a consumer block on a definition of the provider (released by the admin), reported with both messages. */
    async function reportedRun(transparency: Json): Promise<string> {
      const { version } = await createReleasedDefinition(
        ctx.client,
        provider,
        'terraform',
        { runnerRef: { uuid: runner, kind: 'meshBuildingBlockRunner' }, preRunScript: undefined, ...transparency.version },
        { displayName: unique('Transparent'), ...TENANT_LEVEL, ...transparency.definition },
      );
      await createBlock(ctx.client, { versionUuid: version.metadata.uuid, target: tenantTarget(tenant) });
      const run = await claimRun(operator, runner);
      const runUuid = run.metadata.uuid as string;
      assert.equal(
        (await register(asRun(ctx.client, run), runUuid, { source: { id: 'ci' }, steps: [{ id: 'apply', displayName: 'Apply' }] })).status,
        200,
      );
      const update = {
        steps: [
          {
            id: 'apply',
            status: 'IN_PROGRESS',
            userMessage: 'applying for you',
            systemMessage: 'secret-log: repository https://internal.example/repo',
          },
        ],
      };
      assert.equal((await patch(asRun(ctx.client, run), runUuid, 'ci', update)).status, 200);
      return runUuid;
    }

    it('without runTransparency a consumer gets 403 for the run and its logs; the operator reads everything', async () => {
      const run = await reportedRun({});
      assertError(await getRun(reader, run), 403, /runTransparency|transparent/);
      assertError(await reader.get(`${RUNS}/${run}/logs`, { headers: { accept: RUN } }), 403);
      const full = await getRun(operator, run);
      assert.equal(full.status, 200, full.text);
      assert.ok(full.json.spec.buildingBlockDefinition.spec.implementation, 'the operator sees the implementation');
      assert.equal((await logs(operator, run))[0]!.systemMessage, 'secret-log: repository https://internal.example/repo');
    });

    it('with runTransparency (definition or version) a consumer reads statuses and user messages only', async () => {
      for (const transparency of [{ definition: { runTransparency: true } }, { version: { runTransparency: true } }]) {
        const run = await reportedRun(transparency);
        const seen = await getRun(reader, run);
        assert.equal(seen.status, 200, seen.text);
        assert.equal(seen.json.status, 'IN_PROGRESS');
        assert.equal(seen.json.spec.buildingBlockDefinition.spec, undefined, 'no implementation');
        assert.equal(seen.json.spec.buildingBlock.spec, undefined, 'no inputs');
        assert.doesNotMatch(seen.text, /internal\.example|repositoryUrl|runToken/);
        const steps = (await reader.get(`${RUNS}/${run}/logs`, { headers: { accept: RUN } })).json.steps as Json[];
        assert.equal(steps.length, 1);
        assert.equal(steps[0]!.userMessage, 'applying for you');
        assert.equal(steps[0]!.systemMessage, null, 'system messages are the operators’');
      }
    });
  });

  describe('5. sensitive values of any JSON type are sealed', () => {
    it('a runner’s sensitive INTEGER output is shown only as a hash', async () => {
      const workspace = unique('sens');
      await createWorkspace(ctx.client, workspace);
      const runner = (await registerRunner(ctx.client, workspace)).metadata.uuid as string;
      const { version } = await createReleasedDefinition(
        ctx.client,
        workspace,
        'terraform',
        {
          runnerRef: { uuid: runner, kind: 'meshBuildingBlockRunner' },
          outputs: { pin: { displayName: 'PIN', type: 'INTEGER', assignmentType: 'NONE' } },
        },
        { displayName: unique('Sealed'), targetType: 'WORKSPACE_LEVEL' },
      );
      const block = await createBlock(ctx.client, {
        versionUuid: version.metadata.uuid,
        target: { kind: 'meshWorkspace', identifier: workspace },
      });
      const run = await claimRun(ctx.client, runner);
      const update = {
        status: 'SUCCEEDED',
        steps: [{ id: 'apply', status: 'SUCCEEDED', outputs: { pin: { value: 918273, type: 'INTEGER', isSensitive: true } } }],
      };
      assert.equal((await patch(asRun(ctx.client, run), run.metadata.uuid, 'ci', update)).status, 200);
      const read = await getBlock(ctx.client, block.metadata.uuid);
      assert.equal(read.json.status.status, 'SUCCEEDED');
      const pin = (read.json.status.outputs as Json[]).find((output) => output.key === 'pin')!;
      assert.match(pin.value.hash, /^sha256:[0-9a-f]{64}$/);
      assert.doesNotMatch(read.text, /918273/);
    });

    it('a platform config secret whose plaintext is a number or an object is sealed', async () => {
      const workspace = unique('cfg');
      const location = unique('loc');
      await createWorkspace(ctx.client, workspace);
      await createLocation(ctx.client, location);
      const config = {
        type: 'custom',
        custom: {
          platformTypeRef: { name: 'CUSTOM' },
          pin: { plaintext: 55512345 },
          nested: { plaintext: { token: 'nested-secret-value' } },
        },
      };
      const uuid = await createPlatform(ctx.client, workspace, unique('plf'), location, { spec: { config } });
      const read = await ctx.client.get(`${PATHS.platforms}/${uuid}`, { headers: { accept: PLATFORM } });
      assert.equal(read.status, 200, read.text);
      assert.match(read.json.spec.config.custom.pin.hash, /^sha256:/);
      assert.match(read.json.spec.config.custom.nested.hash, /^sha256:/);
      assert.doesNotMatch(read.text, /55512345|nested-secret-value/);
    });
  });

  describe('8. the marketplace trusts nobody by default', () => {
    let owner: string;
    let other: string;
    let location: string;
    let otherKey: ApiClient;
    let project: string;

    before(async () => {
      owner = unique('mkt-own');
      other = unique('mkt-oth');
      location = unique('loc');
      project = unique('prj');
      for (const name of [owner, other]) await createWorkspace(ctx.client, name);
      await createLocation(ctx.client, location);
      await createProject(ctx.client, other, project);
      otherKey = (
        await clientWithKey(ctx.client, other, [
          'TENANT_LIST',
          'TENANT_SAVE',
          'PLATFORMINSTANCE_LIST',
          'PLATFORMINSTANCE_SAVE',
          'BUILDINGBLOCKDEFINITION_LIST',
          'BUILDINGBLOCK_LIST',
          'BUILDINGBLOCK_SAVE',
        ])
      ).client;
    });

    it('tenants only on platforms available to the workspace: own, PUBLIC or RESTRICTED to it', async () => {
      const privatePlatform = await createPlatform(ctx.client, owner, unique('priv'), location);
      const restrictedElsewhere = await createPlatform(ctx.client, owner, unique('rest'), location, {
        spec: { availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [owner] } },
      });
      const restrictedHere = await createPlatform(ctx.client, owner, unique('rest'), location, {
        spec: { availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [other] } },
      });
      const publicPlatform = await createPlatform(ctx.client, owner, unique('pub'), location, {
        spec: { availability: { restriction: 'PUBLIC' } },
      });
      for (const platform of [privatePlatform, restrictedElsewhere]) {
        assertError(
          await otherKey.post(PATHS.tenants, tenantBody(other, project, platform), { headers: io(TENANT) }),
          403,
          /not available to workspace/,
        );
      }
      for (const platform of [restrictedHere, publicPlatform]) {
        const created = await otherKey.post(PATHS.tenants, tenantBody(other, project, platform), { headers: io(TENANT) });
        assert.equal(created.status, 201, created.text);
      }
    });

    it('a workspace key cannot publish a PUBLIC platform', async () => {
      const body = {
        apiVersion: 'v2',
        kind: 'meshPlatform',
        metadata: { name: unique('azure-official'), ownedByWorkspace: other },
        spec: {
          displayName: 'Azure (official)',
          locationRef: { kind: 'meshLocation', name: location },
          availability: { restriction: 'PUBLIC' },
        },
      };
      assertError(await otherKey.post(PATHS.platforms, body, { headers: io(PLATFORM) }), 403, /PUBLIC platforms/);
      const asPrivate = await otherKey.post(
        PATHS.platforms,
        { ...body, spec: { ...body.spec, availability: { restriction: 'PRIVATE' } } },
        { headers: io(PLATFORM) },
      );
      assert.equal(asPrivate.status, 201, asPrivate.text);
    });

    it('a workspace’s release waits for an admin’s review: invisible to others until approved; rejected stays out', async () => {
      const publisher = await clientWithKey(ctx.client, owner, ['BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCKDEFINITION_SAVE']);
      const lookAlike = 'DB \u0430ccess'; // a Cyrillic а
      const { definition, version } = await createReleasedDefinition(
        publisher.client,
        owner,
        'manual',
        {},
        { displayName: unique(lookAlike), targetType: 'WORKSPACE_LEVEL' },
      );
      const uuid = definition.metadata.uuid as string;
      const versionUuid = version.metadata.uuid as string;
      assert.equal(version.status.reviewState, 'IN_REVIEW');
      assert.equal(
        (await publisher.client.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } })).json.status.publicationState,
        'IN_REVIEW',
      );

      const marketplace = async () =>
        (
          (await otherKey.get(`${DEFINITIONS}?includeAllPublished=true&size=350`, { headers: { accept: DEFINITION } })).json._embedded
            .meshBuildingBlockDefinitions as Json[]
        ).map((d) => d.metadata.uuid);
      assert.ok(!(await marketplace()).includes(uuid), 'not in another workspace’s marketplace while in review');
      assertError(await otherKey.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } }), 404);
      const order = { versionUuid, target: { kind: 'meshWorkspace', identifier: other } };
      const refused = await otherKey.post(
        '/api/meshobjects/meshbuildingblocks',
        {
          apiVersion: 'v2-preview',
          kind: 'meshBuildingBlock',
          spec: {
            displayName: 'x',
            buildingBlockDefinitionVersionRef: { uuid: versionUuid },
            targetRef: order.target,
            inputs: [],
            parentBuildingBlocks: [],
          },
        },
        { headers: io(BLOCK_V2) },
      );
      assertError(refused, 422, /does not exist/);

      // Only ADM_REVIEW_PUBLICATION reviews: the publisher itself cannot approve.
      assertError(await reviewVersion(publisher.client, versionUuid, 'approve'), 403, /ADM_REVIEW_PUBLICATION/);
      const reviewer = await clientWithKey(ctx.client, 'admin', ['ADM_REVIEW_PUBLICATION']);
      const approved = await reviewVersion(reviewer.client, versionUuid, 'approve');
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.json.status.reviewState, 'APPROVED');
      assert.ok((await marketplace()).includes(uuid), 'in the marketplace once approved');
      assert.equal(
        (await otherKey.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } })).json.status.publicationState,
        'PUBLISHED',
      );
      const ordered = await createBlock(otherKey, order);
      assert.equal(ordered.status.status, 'PENDING');

      // A second definition rejected by the reviewer stays out, and says why.
      const second = await createReleasedDefinition(
        publisher.client,
        owner,
        'manual',
        {},
        { displayName: unique('Rejected'), targetType: 'WORKSPACE_LEVEL' },
      );
      const rejected = await reviewVersion(reviewer.client, second.version.metadata.uuid, 'reject', 'looks like another definition');
      assert.equal(rejected.status, 200, rejected.text);
      assert.deepEqual(
        [rejected.json.status.reviewState, rejected.json.status.reviewReason],
        ['REJECTED', 'looks like another definition'],
      );
      assert.ok(!(await marketplace()).includes(second.definition.metadata.uuid));
      assert.equal(
        (await publisher.client.get(`${DEFINITIONS}/${second.definition.metadata.uuid}`, { headers: { accept: DEFINITION } })).json.status
          .publicationState,
        'REJECTED',
      );
      assertError(await reviewVersion(reviewer.client, versionUuid, 'reject'), 409, /approved/);
    });

    it('a release by an admin (ADM_REVIEW_PUBLICATION) is published at once', async () => {
      const { definition, version } = await createReleasedDefinition(
        ctx.client,
        owner,
        'manual',
        {},
        { displayName: unique('Official'), targetType: 'WORKSPACE_LEVEL' },
      );
      assert.equal(version.status.reviewState, 'APPROVED');
      const seen = await otherKey.get(`${DEFINITIONS}/${definition.metadata.uuid}`, { headers: { accept: DEFINITION } });
      assert.equal(seen.status, 200, seen.text);
      const offered = await otherKey.get(`/api/meshobjects/meshbuildingblockdefinitionversions/${version.metadata.uuid}`, {
        headers: { accept: VERSION },
      });
      assert.equal(offered.status, 200, offered.text);
      assert.equal(offered.json.spec.implementation, undefined, 'read as offered: the implementation stays the owner’s');
    });
  });
});
