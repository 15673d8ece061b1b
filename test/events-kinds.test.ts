import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { reviewVersion } from './support/definitions.js';
import { allEvents, eventsAbout, titlesOf, type Event } from './support/events.js';
import { API_KEY, clientWithKey, createKey } from './support/identity.js';
import {
  asRun,
  claimRun,
  createBlock,
  readBlock,
  register,
  registerRunner,
  report,
  runnerDefinition,
  runWorld,
  SHARED_RUNNERS,
  tenantTarget,
  waitFor,
} from './support/runs.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import {
  createLocation,
  createWorkspace,
  IMPORT_JSON,
  io,
  PATHS,
  PLATFORM,
  platformBody,
  projectBody,
  unique,
  workspaceBody,
} from './support/structure.js';

const API_USER = { authorType: 'ApiUser', identifier: TEST_ADMIN.username };
const SYSTEM = { authorType: 'System', identifier: 'system' };

const authors = (events: readonly Event[]) =>
  [...new Set(events.map((event) => JSON.stringify(event.spec.author)))].map((text) => JSON.parse(text));

describeEachDatabase('event log: every kind writes its events', (ctx) => {
  it('a block and its run, from creation through claim, steps and success to deletion, in order', async () => {
    const client = ctx.client;
    const world = await runWorld(client);
    // Transparent runs: the block's workspace may read them, so their events carry the run and its steps as a consumer reads them.
    const definition = await runnerDefinition(client, world.provider, null, { runTransparency: true });
    const block = await createBlock(client, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
    const blockUuid = block.metadata.uuid as string;
    const claimed = await claimRun(client, SHARED_RUNNERS.TERRAFORM, { headers: {} });
    const runUuid = claimed.metadata.uuid as string;
    const asRunner = asRun(client, claimed);
    assert.equal((await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 'apply', displayName: 'Apply' }] })).status, 200);
    assert.equal(
      await report(asRunner, runUuid, 'ci', {
        steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: 'planning', systemMessage: 'terraform plan -var secret=s3cr3t' }],
      }),
      false,
    );
    assert.equal(await report(asRunner, runUuid, 'ci', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED' }] }), false);
    assert.equal((await readBlock(client, blockUuid)).status.status, 'SUCCEEDED');
    const events = await eventsAbout(client, blockUuid, `workspaceIdentifier=${world.consumer}`);
    assert.deepEqual(titlesOf(events), [
      'Building Block Created',
      'Building Block Run Requested',
      'Building Block Run Claimed',
      'Building Block Status Changed',
      'Building Block Run Steps Changed',
      'Building Block Run Steps Changed',
      'Building Block Run Status Changed',
      'Building Block Status Changed',
    ]);
    // The runner's reports carry the run token, which acts for whoever claimed the run.
    assert.deepEqual(authors(events), [API_USER]);
    const statuses = events
      .filter((event) => event.spec.title === 'Building Block Status Changed')
      .map((event) => [event.spec.previousContent.status.status, event.spec.content.status.status]);
    assert.deepEqual(statuses, [
      ['PENDING', 'IN_PROGRESS'],
      ['IN_PROGRESS', 'SUCCEEDED'],
    ]);
    // A changed step carries the time of this change, and what its log shows a consumer: no system message.
    const stepEvents = events.filter((event) => event.spec.title.startsWith('Building Block Run St') && event.spec.content.steps);
    assert.equal(stepEvents.length, 3);
    for (const event of stepEvents) {
      for (const step of event.spec.content.steps) {
        assert.equal(typeof step.updatedOn, 'string', `${event.spec.title}: step ${step.id}`);
        assert.equal(step.systemMessage, null);
      }
    }
    assert.ok(!JSON.stringify(events).includes('s3cr3t'), 'a system message reached an event');
    const ended = events.find((event) => event.spec.title === 'Building Block Run Status Changed')!;
    assert.equal(ended.spec.content.status, 'SUCCEEDED');
    assert.equal(ended.spec.previousContent.status, 'IN_PROGRESS');
    assert.equal(ended.spec.content.metadata.uuid, runUuid);
    assert.ok(events.every((event) => event.spec.workspaceRef.name === world.consumer));
    // Deleting: the request, the DESTROY run, and (this definition runs DESTROY) its success removes the block.
    assert.equal((await client.delete(`/api/meshobjects/meshbuildingblocks/${blockUuid}`)).status, 202);
    const destroy = await claimRun(client, SHARED_RUNNERS.TERRAFORM, { headers: {} });
    assert.equal(await report(asRun(client, destroy), destroy.metadata.uuid, 'ci', { status: 'SUCCEEDED' }), false);
    const later = (await eventsAbout(client, blockUuid, `workspaceIdentifier=${world.consumer}`)).slice(events.length);
    assert.deepEqual(titlesOf(later), [
      'Building Block Deletion Requested',
      'Building Block Run Requested',
      'Building Block Status Changed', // SUCCEEDED → PENDING: the DESTROY run waits
      'Building Block Run Claimed',
      'Building Block Status Changed',
      'Building Block Run Status Changed',
      'Building Block Deleted',
    ]);
  });

  it('structure, definitions with publication review, API keys: titles, authors and workspaces', async () => {
    const client = ctx.client;
    const ws = unique('evk');
    const loc = unique('evk-loc');
    await createWorkspace(client, ws);
    await createLocation(client, loc);
    // A workspace key does the workspace's own work: its events name the key.
    const { client: member, key } = await clientWithKey(client, ws, [
      'PROJECT_SAVE',
      'PROJECT_DELETE',
      'PLATFORMINSTANCE_SAVE',
      'PLATFORMINSTANCE_DELETE',
      'BUILDINGBLOCKDEFINITION_SAVE',
      'BUILDINGBLOCKDEFINITION_LIST',
    ]);
    const project = unique('prj');
    assert.equal(
      (await member.post(PATHS.projects, projectBody(ws, project), { headers: io('application/vnd.vendor.api.meshproject.v2.hal+json') }))
        .status,
      201,
    );
    assert.ok([202, 204].includes((await member.delete(`${PATHS.projects}/${ws}.${project}`)).status));
    const platform = await member.post(PATHS.platforms, platformBody(ws, unique('plf'), loc), { headers: io(PLATFORM) });
    assert.equal(platform.status, 201, platform.text);
    assert.ok([202, 204].includes((await member.delete(`${PATHS.platforms}/${platform.json.metadata.uuid}`)).status));
    // A release by the workspace waits for review; the admin approves it.
    const definition = await member.post(
      '/api/meshobjects/meshbuildingblockdefinitions',
      {
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockDefinition',
        metadata: { ownedByWorkspace: ws },
        spec: {
          displayName: unique('Def'),
          description: 'd',
          targetType: 'WORKSPACE_LEVEL',
          supportedPlatforms: [],
          notificationSubscriberUsernames: [],
          useInLandingZonesOnly: false,
        },
      },
      { headers: io('application/vnd.vendor.api.meshbuildingblockdefinition.v1-preview.hal+json') },
    );
    assert.equal(definition.status, 201, definition.text);
    const definitionUuid = definition.json.metadata.uuid as string;
    const versionUuid = definition.json.status.versions[0].versionUuid as string;
    const VERSION = 'application/vnd.vendor.api.meshbuildingblockdefinitionversion.v1-preview.hal+json';
    const release = await member.put(
      `/api/meshobjects/meshbuildingblockdefinitionversions/${versionUuid}`,
      {
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockDefinitionVersion',
        metadata: { ownedByWorkspace: ws },
        spec: {
          buildingBlockDefinitionRef: { kind: 'meshBuildingBlockDefinition', uuid: definitionUuid },
          versionNumber: 1,
          state: 'RELEASED',
          implementation: { type: 'manual' },
          inputs: {},
          outputs: {},
          deletionMode: 'PURGE',
        },
      },
      { headers: io(VERSION) },
    );
    assert.equal(release.status, 200, release.text);
    assert.equal((await reviewVersion(client, versionUuid, 'approve')).status, 200);

    const events = await allEvents(client, `workspaceIdentifier=${ws}`);
    const byKey = events.filter((event) => event.spec.author.authorType === 'ApiKey').reverse();
    assert.deepEqual(titlesOf(byKey), [
      'Project Created',
      'Project Deleted',
      'Platform Created',
      'Platform Deleted',
      'Building Block Definition Created',
      'Building Block Definition Version Added',
      'Building Block Definition Version Released',
      'Building Block Definition Marketplace Publication Request',
    ]);
    assert.deepEqual(authors(byKey), [{ authorType: 'ApiKey', identifier: key.uuid }]);
    const byUser = events.filter((event) => event.spec.author.authorType === 'ApiUser').reverse();
    assert.deepEqual(titlesOf(byUser), [
      'Workspace Created',
      'API Key Created',
      'Building Block Definition Marketplace Publication Request Approved',
    ]);
    const keyCreated = byUser[1]!;
    assert.equal(keyCreated.spec.content.metadata.uuid, key.uuid);
    assert.equal(keyCreated.spec.content.secretHash, undefined);
    const released = byKey.find((event) => event.spec.title === 'Building Block Definition Version Released')!;
    assert.equal(released.spec.eventType, 'Changed');
    assert.equal(released.spec.previousContent.spec.state, 'DRAFT');
    assert.equal(released.spec.content.spec.state, 'RELEASED');

    // Keys: permissions changed, secret rotated (a new expiresAt), deleted.
    const other = await createKey(client, ws, ['PROJECT_LIST']);
    const keyBody = (extra: Record<string, unknown>) => ({
      apiVersion: 'v1-preview',
      kind: 'meshApiKey',
      metadata: { ownedByWorkspace: ws, uuid: other.uuid },
      spec: { displayName: 'key PROJECT_LIST', ...extra },
    });
    assert.equal(
      (
        await client.put(`/api/meshobjects/meshapikeys/${other.uuid}`, keyBody({ permissions: ['PROJECT_LIST', 'TENANT_LIST'] }), {
          headers: io(API_KEY),
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await client.put(
          `/api/meshobjects/meshapikeys/${other.uuid}`,
          keyBody({ permissions: ['PROJECT_LIST', 'TENANT_LIST'], expiresAt: '2099-01-01' }),
          { headers: io(API_KEY) },
        )
      ).status,
      200,
    );
    assert.equal((await client.delete(`/api/meshobjects/meshapikeys/${other.uuid}`)).status, 204);
    const keyEvents = (await allEvents(client, `workspaceIdentifier=${ws}&title=API%20Key`))
      .filter((event) => event.spec.content.metadata.uuid === other.uuid)
      .reverse();
    assert.deepEqual(titlesOf(keyEvents), ['API Key Created', 'API Key Changed', 'API Key Secret Rotated', 'API Key Deleted']);
    assert.deepEqual(keyEvents[1]!.spec.previousContent.spec.permissions, ['PROJECT_LIST']);
    assert.deepEqual(keyEvents[1]!.spec.content.spec.permissions, ['PROJECT_LIST', 'TENANT_LIST']);
  });

  it('tenants: created, deleted, and forgotten (Tenant Purged) with their project', async () => {
    const client = ctx.client;
    const world = await runWorld(client);
    assert.equal((await client.delete(`/api/meshobjects/meshtenants/${world.tenantUuid}`)).status, 202);
    assert.ok([202, 204].includes((await client.delete(`${PATHS.projects}/${world.consumer}.${world.project}`)).status));
    const events = (await allEvents(client, `workspaceIdentifier=${world.consumer}`)).reverse();
    assert.deepEqual(titlesOf(events.filter((event) => /Tenant|Project/.test(event.spec.title))), [
      'Project Created',
      'Tenant Created',
      'Tenant Deleted',
      'Tenant Purged',
      'Project Deleted',
    ]);
    const deleted = events.find((event) => event.spec.title === 'Tenant Deleted')!;
    assert.equal(deleted.spec.content.metadata.uuid, world.tenantUuid);
    assert.equal(typeof deleted.spec.content.metadata.deletedOn, 'string');
  });

  it('the declarative import writes one event per object it changes, none for one it leaves as it is', async () => {
    const client = ctx.client;
    const ws = unique('evi');
    const objects = [workspaceBody(ws), projectBody(ws, unique('p1')), projectBody(ws, unique('p2'))];
    const put = () =>
      client.put('/api/meshobjects', JSON.stringify(objects), { headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON } });
    assert.equal((await put()).status, 200);
    assert.deepEqual(titlesOf((await allEvents(client, `workspaceIdentifier=${ws}`)).reverse()), [
      'Workspace Created',
      'Project Created',
      'Project Created',
    ]);
    assert.equal((await put()).status, 200);
    assert.equal((await allEvents(client, `workspaceIdentifier=${ws}`)).length, 3);
  });

  it('no event carries a secret in plaintext: platform config, sensitive block inputs and outputs, key secrets', async () => {
    const client = ctx.client;
    const ws = unique('evs');
    const loc = unique('evs-loc');
    await createWorkspace(client, ws);
    await createLocation(client, loc);
    const configSecret = `cfg-${randomUUID()}`;
    const created = await client.post(
      PATHS.platforms,
      platformBody(ws, unique('plf'), loc, {
        spec: { config: { type: 'azure', azure: { entraTenant: 't', credential: { plaintext: configSecret } } } },
      }),
      { headers: io(PLATFORM) },
    );
    assert.equal(created.status, 201, created.text);
    const key = await createKey(client, ws, ['PROJECT_LIST']);
    const world = await runWorld(client);
    const inputSecret = `input-${randomUUID()}`;
    const outputSecret = `output-${randomUUID()}`;
    const runner = await registerRunner(client, world.provider);
    const definition = await runnerDefinition(client, world.provider, runner.metadata.uuid, {
      inputs: {
        password: {
          type: 'STRING',
          assignmentType: 'USER_INPUT',
          isSensitive: true,
          displayName: 'Password',
          isEnvironment: false,
          updateableByConsumer: true,
        },
      },
    });
    const block = await createBlock(client, {
      versionUuid: definition.versionUuid,
      target: tenantTarget(world.tenantUuid),
      inputs: [{ key: 'password', value: inputSecret, valueType: 'STRING' }],
    });
    const run = await claimRun(client, runner.metadata.uuid, { headers: {} });
    assert.equal(
      await report(asRun(client, run), run.metadata.uuid, 'ci', {
        status: 'SUCCEEDED',
        steps: [{ id: 'a', status: 'SUCCEEDED', outputs: { token: { value: outputSecret, type: 'STRING', isSensitive: true } } }],
      }),
      false,
    );
    await waitFor('the block to succeed', async () =>
      (await readBlock(client, block.metadata.uuid)).status.status === 'SUCCEEDED' ? true : undefined,
    );
    const runnerEvents = await eventsAbout(client, runner.metadata.uuid, `workspaceIdentifier=${world.provider}&title=Runner`);
    assert.deepEqual(titlesOf(runnerEvents), ['Building Block Runner Created']);
    const text = JSON.stringify(await allEvents(client));
    for (const secret of [configSecret, key.clientSecret, inputSecret, outputSecret])
      assert.ok(!text.includes(secret), `an event carries the plaintext ${secret.slice(0, 8)}…`);
    assert.ok(!text.includes('"ciphertext"'), 'no event carries a ciphertext');
    assert.ok(text.includes('"hash"'), 'secrets appear as hashes');
  });
});

describeEachDatabase(
  'event log: the system sweep is authored by System',
  (ctx) => {
    it('a claimed run silent past the run timeout fails with an event by System', async () => {
      const client = ctx.client;
      const world = await runWorld(client);
      const definition = await runnerDefinition(client, world.provider, null);
      const block = await createBlock(client, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
      const run = await claimRun(client, SHARED_RUNNERS.TERRAFORM, { headers: {} });
      await waitFor(
        'the run to time out',
        async () => ((await readBlock(client, block.metadata.uuid)).status.status === 'FAILED' ? true : undefined),
        10_000,
        200,
      );
      const bySystem = (await eventsAbout(client, block.metadata.uuid, 'authorType=System')).filter(
        (event) => event.spec.workspaceRef?.name === world.consumer,
      );
      assert.deepEqual(titlesOf(bySystem), ['Building Block Run Status Changed', 'Building Block Status Changed']);
      assert.deepEqual(authors(bySystem), [SYSTEM]);
      assert.equal(bySystem[0]!.spec.content.metadata.uuid, run.metadata.uuid);
      assert.equal(bySystem[0]!.spec.content.status, 'FAILED');
    });
  },
  { BLOCKYARD_RUN_TIMEOUT_SECONDS: '1' },
);
