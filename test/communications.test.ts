/**
 * meshCommunicationDefinition and meshCommunication v1-preview, black-box on both
 * databases: the vendor examples, the 4xx paths (nothing stored), targets (workspace, tenant,
 * building block), resolution by the target workspace's keys, the definition's counters after every
 * change, workspace isolation and events; on PostgreSQL, counters that stay exact while three
 * instances resolve and delete the same communications concurrently.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blockWorld, postBlock, tenantTarget, v2Body } from './support/blocks.js';
import { media, type ApiClient, type Response } from './support/client.js';
import { skipUnless } from './support/databases.js';
import { allEvents, titlesOf } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase, startInstanceOf, startTestServer, type TestServer } from './support/server.js';
import { createWorkspace, io, unique, type Json } from './support/structure.js';

const DEFINITIONS = '/api/meshobjects/meshcommunicationdefinitions';
const DEFINITION = media('meshcommunicationdefinition', 'v1-preview');
const COMMUNICATIONS = '/api/meshobjects/meshcommunications';
const COMMUNICATION = media('meshcommunication', 'v1-preview');
const COMMUNICATION_MESHCLOUD = media('meshCommunication', 'v1-preview', 'meshcloud');

/** The vendor's POST example (no skipEmailNotifications: it defaults to false). */
const definitionBody = (communication: Json = {}): Json => ({
  apiVersion: 'v1-preview',
  kind: 'meshCommunicationDefinition',
  spec: {
    communication: {
      title: 'Important Update',
      message: 'This is a test communication.',
      type: 'ACTION_REQUIRED',
      dueDate: '2099-04-30',
      ...communication,
    },
  },
});

/** The vendor's POST example, to a workspace unless told otherwise. */
const communicationBody = (definitionUuid: string, name: string, kind = 'meshWorkspace'): Json => ({
  kind: 'meshCommunication',
  apiVersion: 'v1-preview',
  spec: { targetMeshObjectRef: { kind, name }, communicationDefinitionRef: { uuid: definitionUuid, kind: 'meshCommunicationDefinition' } },
});

const assertError = (response: Response, status: number, message: RegExp) => {
  assert.equal(response.status, status, response.text);
  assert.match(response.json.message, message);
};

async function createDefinition(client: ApiClient, communication: Json = {}): Promise<Json> {
  const response = await client.post(DEFINITIONS, definitionBody(communication), { headers: io(DEFINITION) });
  assert.equal(response.status, 201, response.text);
  return response.json;
}

async function send(client: ApiClient, definitionUuid: string, name: string, kind = 'meshWorkspace'): Promise<Json> {
  const response = await client.post(COMMUNICATIONS, communicationBody(definitionUuid, name, kind), { headers: io(COMMUNICATION) });
  assert.equal(response.status, 201, response.text);
  return response.json;
}

const counters = async (client: ApiClient, uuid: string) => {
  const response = await client.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } });
  assert.equal(response.status, 200, response.text);
  return response.json.status as Json;
};

const resolve = (client: ApiClient, uuid: string) =>
  client.post(`${COMMUNICATIONS}/${uuid}/resolve`, undefined, { headers: { accept: COMMUNICATION } });

describeEachDatabase('communication definitions and communications (v1-preview)', (ctx) => {
  let admin: ApiClient;
  let workspace: string;

  before(async () => {
    admin = ctx.client;
    workspace = unique('com-ws');
    await createWorkspace(admin, workspace);
  });

  it('creates a definition from the vendor example (201, Location, counters 0), reads, lists by type and updates it with the PUT example (type kept)', async () => {
    const created = await admin.post(DEFINITIONS, definitionBody(), {
      headers: { accept: DEFINITION, 'content-type': media('meshCommunicationDefinition', 'v1-preview', 'meshcloud') },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.location, created.json._links.self.href);
    const uuid = created.json.metadata.uuid as string;
    assert.deepEqual(created.json.spec, {
      communication: {
        title: 'Important Update',
        message: 'This is a test communication.',
        dueDate: '2099-04-30',
        type: 'ACTION_REQUIRED',
        skipEmailNotifications: false,
      },
    });
    assert.deepEqual(created.json.status, { communicationsTotal: 0, communicationsResolved: 0, communicationsOpen: 0 });
    assert.deepEqual((await admin.get(`${DEFINITIONS}/${uuid.toUpperCase()}`, { headers: { accept: DEFINITION } })).json, created.json);

    const notification = await createDefinition(admin, { type: 'NOTIFICATION', skipEmailNotifications: true });
    assert.deepEqual(notification.status, { communicationsTotal: 0 }, 'open and resolved counts only for ACTION_REQUIRED (OpenAPI)');
    const listed = async (query: string) => {
      const response = await admin.get(`${DEFINITIONS}?size=350${query}`, { headers: { accept: DEFINITION } });
      assert.equal(response.status, 200, response.text);
      return (response.json._embedded.meshCommunicationDefinitions as Json[]).map((d) => d.metadata.uuid as string);
    };
    assert.ok((await listed('&type=ACTION_REQUIRED')).includes(uuid));
    assert.ok(!(await listed('&type=ACTION_REQUIRED')).includes(notification.metadata.uuid));
    assert.ok((await listed('&type=NOTIFICATION')).includes(notification.metadata.uuid));
    assertError(
      await admin.get(`${DEFINITIONS}?type=INFO`, { headers: { accept: DEFINITION } }),
      400,
      /^type: must be one of ACTION_REQUIRED, NOTIFICATION/,
    );

    // The vendor's PUT example leaves out `type`: it stays.
    const put = await admin.put(
      `${DEFINITIONS}/${uuid}`,
      {
        apiVersion: 'v1-preview',
        kind: 'meshCommunicationDefinition',
        spec: { communication: { title: 'my-new-title', message: 'my-new-message', dueDate: '2099-05-31' } },
      },
      { headers: io(DEFINITION) },
    );
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.spec.communication, {
      title: 'my-new-title',
      message: 'my-new-message',
      dueDate: '2099-05-31',
      type: 'ACTION_REQUIRED',
      skipEmailNotifications: false,
    });
    assertError(
      await admin.put(
        `${DEFINITIONS}/${uuid}`,
        { ...definitionBody(), metadata: { uuid: notification.metadata.uuid } },
        { headers: io(DEFINITION) },
      ),
      400,
      /^metadata\.uuid:/,
    );
  });

  it('refuses bad definitions with a 400 naming the field, nothing stored; only admins write definitions (403)', async () => {
    const before = (await admin.get(`${DEFINITIONS}?size=1`, { headers: { accept: DEFINITION } })).json.page.totalElements;
    const cases: [Json, RegExp][] = [
      [definitionBody({ dueDate: '2099-02-30' }), /^spec\.communication\.dueDate:/],
      [definitionBody({ dueDate: 'tomorrow' }), /^spec\.communication\.dueDate:/],
      [definitionBody({ type: 'URGENT' }), /^spec\.communication\.type: must be one of ACTION_REQUIRED, NOTIFICATION/],
      [definitionBody({ title: '' }), /^spec\.communication\.title:/],
      [definitionBody({ title: 'x'.repeat(256) }), /^spec\.communication\.title:/],
      [definitionBody({ message: 'x'.repeat(32_769) }), /^spec\.communication\.message:/],
      [definitionBody({ skipEmailNotifications: 'yes' }), /^spec\.communication\.skipEmailNotifications:/],
      [{ apiVersion: 'v1-preview', kind: 'meshCommunicationDefinition' }, /^spec:/],
    ];
    for (const [body, message] of cases) assertError(await admin.post(DEFINITIONS, body, { headers: io(DEFINITION) }), 400, message);
    assert.equal(
      (await admin.get(`${DEFINITIONS}?size=1`, { headers: { accept: DEFINITION } })).json.page.totalElements,
      before,
      'nothing stored',
    );
    const key = (
      await clientWithKey(admin, workspace, [
        'COMMUNICATIONDEFINITION_LIST',
        'COMMUNICATIONDEFINITION_SAVE',
        'COMMUNICATIONDEFINITION_DELETE',
      ])
    ).client;
    assertError(await key.post(DEFINITIONS, definitionBody(), { headers: io(DEFINITION) }), 403, /ADM_COMMUNICATIONDEFINITION_SAVE/);
  });

  it('sends the vendor example to a workspace (201, OPEN, the definition’s summary) and to a tenant and a block by uuid; counts each; refuses unknown targets (422), duplicates (409) and bad bodies (400)', async () => {
    const definition = await createDefinition(admin, { title: 'Rotate your keys', dueDate: '2099-12-31' });
    const uuid = definition.metadata.uuid as string;
    const created = await admin.post(COMMUNICATIONS, communicationBody(uuid, workspace), {
      headers: { accept: COMMUNICATION_MESHCLOUD, 'content-type': COMMUNICATION_MESHCLOUD },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.location, created.json._links.self.href);
    assert.deepEqual(created.json.metadata.ownedByWorkspace, workspace);
    assert.deepEqual(created.json.spec, {
      targetMeshObjectRef: { kind: 'meshWorkspace', name: workspace },
      communicationDefinitionRef: { uuid, kind: 'meshCommunicationDefinition' },
    });
    assert.deepEqual(created.json.status, {
      resolutionStatus: 'OPEN',
      meshCommunicationDefinition: { uuid, title: 'Rotate your keys', dueDate: '2099-12-31', communicationType: 'ACTION_REQUIRED' },
    });
    assert.equal(created.json._links.resolve.href, `${created.json._links.self.href}/resolve`);

    // A tenant and a building block: named by uuid, owned by their workspace.
    const world = await blockWorld(admin);
    const block = await postBlock(admin, v2Body({ versionUuid: world.defs.plain.versionUuid, target: tenantTarget(world.tenant) }));
    assert.equal(block.status, 201, block.text);
    const toTenant = await send(admin, uuid, world.tenant.uuid.toUpperCase(), 'meshTenant');
    assert.deepEqual([toTenant.spec.targetMeshObjectRef.name, toTenant.metadata.ownedByWorkspace], [world.tenant.uuid, world.workspace]);
    const toBlock = await send(admin, uuid, block.json.metadata.uuid, 'meshBuildingBlock');
    assert.equal(toBlock.metadata.ownedByWorkspace, world.workspace);
    assert.deepEqual(await counters(admin, uuid), { communicationsTotal: 3, communicationsResolved: 0, communicationsOpen: 3 });

    const post = (body: Json) => admin.post(COMMUNICATIONS, body, { headers: io(COMMUNICATION) });
    assertError(
      await post(communicationBody(uuid, 'no-such-workspace')),
      422,
      /^spec\.targetMeshObjectRef\.name: meshWorkspace "no-such-workspace" does not exist/,
    );
    assertError(
      await post(communicationBody(uuid, '0d5b3c1e-0000-4000-8000-000000000000', 'meshTenant')),
      422,
      /^spec\.targetMeshObjectRef\.name: meshTenant/,
    );
    assertError(
      await post(communicationBody('0d5b3c1e-0000-4000-8000-000000000000', workspace)),
      422,
      /^spec\.communicationDefinitionRef\.uuid: meshCommunicationDefinition "0d5b3c1e-0000-4000-8000-000000000000" does not exist/,
    );
    assertError(await post(communicationBody(uuid, workspace)), 409, /already sent to meshWorkspace/);
    assertError(
      await post(communicationBody(uuid, workspace, 'meshProject')),
      400,
      /^spec\.targetMeshObjectRef\.kind: must be one of meshWorkspace, meshTenant, meshBuildingBlock/,
    );
    assertError(await post(communicationBody('not-a-uuid', workspace)), 400, /^spec\.communicationDefinitionRef\.uuid:/);
    assertError(
      await post({ ...communicationBody(uuid, workspace), spec: { targetMeshObjectRef: { kind: 'meshWorkspace', name: workspace } } }),
      400,
      /^spec\.communicationDefinitionRef:/,
    );
    assert.deepEqual(
      await counters(admin, uuid),
      { communicationsTotal: 3, communicationsResolved: 0, communicationsOpen: 3 },
      'refused creates count nothing',
    );
    const listed = await admin.get(`${COMMUNICATIONS}?communicationDefinitionUuid=${uuid}`, { headers: { accept: COMMUNICATION } });
    assert.equal(listed.json.page.totalElements, 3);
  });

  it('lets the target workspace’s key with COMMUNICATION_SAVE resolve (the counters move once; again changes nothing); other keys get 403 or 404; a NOTIFICATION has nothing to resolve (409)', async () => {
    // A workspace of its own: only this test sends to it.
    const workspace = unique('com-member');
    await createWorkspace(admin, workspace);
    const definition = await createDefinition(admin);
    const uuid = definition.metadata.uuid as string;
    const communication = await send(admin, uuid, workspace);
    const other = unique('com-other');
    await createWorkspace(admin, other);
    const otherCommunication = await send(admin, uuid, other);

    const member = (await clientWithKey(admin, workspace, ['COMMUNICATION_LIST', 'COMMUNICATION_SAVE', 'COMMUNICATIONDEFINITION_LIST']))
      .client;
    const reader = (await clientWithKey(admin, workspace, ['COMMUNICATION_LIST'])).client;
    const stranger = (
      await clientWithKey(admin, other, [
        'COMMUNICATION_LIST',
        'COMMUNICATION_SAVE',
        'COMMUNICATION_DELETE',
        'COMMUNICATIONDEFINITION_LIST',
      ])
    ).client;

    assertError(await resolve(reader, communication.metadata.uuid), 403, /COMMUNICATION_SAVE/);
    assertError(await resolve(stranger, communication.metadata.uuid), 404, /not found/);
    assertError(
      await stranger.get(`${COMMUNICATIONS}/${communication.metadata.uuid}`, { headers: { accept: COMMUNICATION } }),
      404,
      /not found/,
    );
    assertError(await stranger.delete(`${COMMUNICATIONS}/${communication.metadata.uuid}`), 403, /ADM_COMMUNICATION_DELETE/);
    assertError(
      await member.post(COMMUNICATIONS, communicationBody(uuid, workspace), { headers: io(COMMUNICATION) }),
      403,
      /ADM_COMMUNICATION_SAVE/,
    );
    assert.deepEqual(await counters(admin, uuid), { communicationsTotal: 2, communicationsResolved: 0, communicationsOpen: 2 });

    const resolved = await resolve(member, communication.metadata.uuid.toUpperCase());
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.json.status.resolutionStatus, 'RESOLVED');
    assert.equal(resolved.json._links.resolve, undefined);
    assert.deepEqual(await counters(admin, uuid), { communicationsTotal: 2, communicationsResolved: 1, communicationsOpen: 1 });
    const again = await resolve(member, communication.metadata.uuid);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      await counters(admin, uuid),
      { communicationsTotal: 2, communicationsResolved: 1, communicationsOpen: 1 },
      'resolving twice counts once',
    );

    // The member sees its workspace's communications and their definition, not the other workspace's.
    const seen = await member.get(`${COMMUNICATIONS}?communicationDefinitionUuid=${uuid}`, { headers: { accept: COMMUNICATION } });
    assert.deepEqual(
      seen.json._embedded.meshCommunications.map((c: Json) => c.metadata.uuid),
      [communication.metadata.uuid],
    );
    assert.equal((await member.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } })).status, 200);
    const lonely = await createDefinition(admin);
    assertError(await member.get(`${DEFINITIONS}/${lonely.metadata.uuid}`, { headers: { accept: DEFINITION } }), 404, /not found/);
    const definitions = await member.get(`${DEFINITIONS}?size=350`, { headers: { accept: DEFINITION } });
    assert.deepEqual(
      definitions.json._embedded.meshCommunicationDefinitions.map((d: Json) => d.metadata.uuid),
      [uuid],
      'only the definitions sent to the workspace',
    );
    assert.equal(
      (await stranger.get(`${COMMUNICATIONS}/${otherCommunication.metadata.uuid}`, { headers: { accept: COMMUNICATION } })).json.status
        .resolutionStatus,
      'OPEN',
    );

    const notification = await createDefinition(admin, { type: 'NOTIFICATION' });
    const note = await send(admin, notification.metadata.uuid, workspace);
    assert.equal(note.status.resolutionStatus, undefined, 'only present for ACTION_REQUIRED (OpenAPI)');
    assertError(await resolve(member, note.metadata.uuid), 409, /NOTIFICATION: there is nothing to resolve/);
    assert.deepEqual(await counters(admin, notification.metadata.uuid), { communicationsTotal: 1 });
    const filtered = async (query: string) =>
      ((await member.get(`${COMMUNICATIONS}?${query}`, { headers: { accept: COMMUNICATION } })).json._embedded.meshCommunications as Json[])
        .map((c) => c.metadata.uuid as string)
        .sort();
    assert.deepEqual(await filtered('communicationType=NOTIFICATION'), [note.metadata.uuid]);
    assert.deepEqual(await filtered('resolutionStatus=RESOLVED'), [communication.metadata.uuid]);
    assert.deepEqual(await filtered('resolutionStatus=OPEN'), []);
    assertError(
      await member.get(`${COMMUNICATIONS}?resolutionStatus=DONE`, { headers: { accept: COMMUNICATION } }),
      400,
      /^resolutionStatus: must be one of OPEN, RESOLVED/,
    );
  });

  it('deletes communications (admins, 204, counters move by what was deleted), then the definition (409 while it has communications); the type cannot change while it has some', async () => {
    const definition = await createDefinition(admin);
    const uuid = definition.metadata.uuid as string;
    const [ws1, ws2] = [unique('com-d1'), unique('com-d2')];
    await createWorkspace(admin, ws1);
    await createWorkspace(admin, ws2);
    const first = await send(admin, uuid, ws1);
    const second = await send(admin, uuid, ws2);
    assert.equal((await resolve(admin, first.metadata.uuid)).status, 200);
    assertError(
      await admin.put(`${DEFINITIONS}/${uuid}`, definitionBody({ type: 'NOTIFICATION' }), { headers: io(DEFINITION) }),
      409,
      /^spec\.communication\.type: .* has communications/,
    );
    assertError(await admin.delete(`${DEFINITIONS}/${uuid}`), 409, /still has 2 meshCommunications/);
    assertError(await admin.delete(`/api/meshobjects/meshworkspaces/${ws2}`), 409, /meshCommunications/);

    assert.equal((await admin.delete(`${COMMUNICATIONS}/${first.metadata.uuid}`)).status, 204);
    assert.deepEqual(await counters(admin, uuid), { communicationsTotal: 1, communicationsResolved: 0, communicationsOpen: 1 });
    assert.equal((await admin.delete(`${COMMUNICATIONS}/${second.metadata.uuid}`)).status, 204);
    assert.deepEqual(await counters(admin, uuid), { communicationsTotal: 0, communicationsResolved: 0, communicationsOpen: 0 });
    assertError(await admin.delete(`${COMMUNICATIONS}/${second.metadata.uuid}`), 404, /not found/);

    const changed = await admin.put(`${DEFINITIONS}/${uuid}`, definitionBody({ type: 'NOTIFICATION' }), { headers: io(DEFINITION) });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.json.status, { communicationsTotal: 0 });
    assert.equal((await admin.delete(`${DEFINITIONS}/${uuid}`)).status, 204);
    assertError(await admin.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } }), 404, /not found/);

    // Every change is in the event log: the communications' in their workspace, the definition's for admins.
    const titles = titlesOf((await allEvents(admin)).filter((event) => JSON.stringify(event.spec.content).includes(uuid)).reverse());
    assert.deepEqual(titles, [
      'Communication Definition Created',
      'Communication Created',
      'Communication Created',
      'Communication Resolved',
      'Communication Deleted',
      'Communication Deleted',
      'Communication Definition Updated',
      'Communication Definition Deleted',
    ]);
    const [resolvedEvent] = await allEvents(admin, `workspaceIdentifier=${ws1}&title=Communication%20Resolved`);
    // Filed under ws1, it counts ws1's communications only (docs/communications.md).
    assert.equal(
      resolvedEvent!.spec.description.endsWith(
        `was resolved (meshCommunicationDefinition ${uuid} in workspace ${ws1}: 0 open, 1 resolved of 1)`,
      ),
      true,
      resolvedEvent!.spec.description,
    );
  });
});

/**
 * Several instances on one PostgreSQL database: the same communications resolved (twice each) and
 * some deleted, all at once, through three instances. Each counter must equal what the list shows.
 */
describe('communication counters under concurrent changes on several instances [postgres]', { skip: skipUnless('postgres') }, () => {
  const instances: TestServer[] = [];

  before(async () => {
    instances.push(await startTestServer('postgres', { env: { BLOCKYARD_RATE_LIMIT_MAX: '100000' } }));
    instances.push(await startInstanceOf(instances[0]!, { env: { BLOCKYARD_RATE_LIMIT_MAX: '100000' } }));
    instances.push(await startInstanceOf(instances[0]!, { env: { BLOCKYARD_RATE_LIMIT_MAX: '100000' } }));
  });

  after(async () => {
    for (const instance of instances.slice(1).reverse()) await instance.server.close();
    await instances[0]?.stop();
  });

  it('keeps communicationsTotal, communicationsOpen and communicationsResolved exact', async () => {
    const admin = instances[0]!.client;
    const definition = await createDefinition(admin);
    const uuid = definition.metadata.uuid as string;
    const sent: string[] = [];
    for (let i = 0; i < 24; i++) {
      const workspace = unique('com-race');
      await createWorkspace(admin, workspace);
      sent.push((await send(admin, uuid, workspace)).metadata.uuid as string);
    }
    const on = (i: number) => instances[i % instances.length]!.client;
    // Each communication resolved twice through different instances; every fourth also deleted meanwhile.
    const requests = sent.flatMap((communication, i) => [
      () => resolve(on(i), communication),
      () => resolve(on(i + 1), communication),
      ...(i % 4 === 0 ? [() => on(i + 2).delete(`${COMMUNICATIONS}/${communication}`)] : []),
    ]);
    const responses = await Promise.all(requests.map((request) => request()));
    for (const response of responses) assert.ok([200, 204, 404].includes(response.status), `${response.status} ${response.text}`);

    const listed = await admin.get(`${COMMUNICATIONS}?communicationDefinitionUuid=${uuid}&size=350`, {
      headers: { accept: COMMUNICATION },
    });
    const left = listed.json._embedded.meshCommunications as Json[];
    assert.equal(left.length, sent.length - sent.filter((_, i) => i % 4 === 0).length);
    assert.ok(
      left.every((c) => c.status.resolutionStatus === 'RESOLVED'),
      'every communication left was resolved',
    );
    const status = await counters(instances[2]!.client, uuid);
    assert.deepEqual(status, { communicationsTotal: left.length, communicationsResolved: left.length, communicationsOpen: 0 });
    const resolvedEvents = (await allEvents(admin, 'title=Communication%20Resolved')).filter(
      (event) => event.spec.content.spec.communicationDefinitionRef.uuid === uuid,
    );
    assert.ok(
      resolvedEvents.length <= sent.length && resolvedEvents.length >= left.length,
      `one Resolved event per communication resolved (${resolvedEvents.length})`,
    );
    assert.equal(
      new Set(resolvedEvents.map((event) => event.spec.content.metadata.uuid)).size,
      resolvedEvents.length,
      'never two for one communication',
    );
  });
});
