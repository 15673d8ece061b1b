/**
 * The counters of a communication definition as a side door: workspaces A, B and C receive
 * communications of the same definitions and A resolves its own. B's key reads the definitions (GET
 * and list, every version that has counters) and its event log (list and by uuid), and must learn
 * only B's counts; the definitions' admins (who send them) see the totals, in reads and in the events
 * of the definitions, which only they read.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { media, type ApiClient } from './support/client.js';
import { allEvents, EVENT_LOG, EVENTS, type Event } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, io, unique, type Json } from './support/structure.js';

const DEFINITIONS = '/api/meshobjects/meshcommunicationdefinitions';
const COMMUNICATIONS = '/api/meshobjects/meshcommunications';
const COMMUNICATION = media('meshcommunication', 'v1-preview');
/** Every version of meshCommunicationDefinition that shows counters (there is one today). */
const DEFINITION_VERSIONS = ['v1-preview'];
const DEFINITION = media('meshcommunicationdefinition', 'v1-preview');

async function createDefinition(admin: ApiClient, type: string): Promise<string> {
  const body = {
    apiVersion: 'v1-preview',
    kind: 'meshCommunicationDefinition',
    spec: { communication: { title: `Counted ${type}`, message: 'm', type, dueDate: '2099-04-30' } },
  };
  const response = await admin.post(DEFINITIONS, body, { headers: io(DEFINITION) });
  assert.equal(response.status, 201, response.text);
  return response.json.metadata.uuid;
}

async function send(admin: ApiClient, definition: string, workspace: string): Promise<string> {
  const body = {
    apiVersion: 'v1-preview',
    kind: 'meshCommunication',
    spec: {
      targetMeshObjectRef: { kind: 'meshWorkspace', name: workspace },
      communicationDefinitionRef: { uuid: definition, kind: 'meshCommunicationDefinition' },
    },
  };
  const response = await admin.post(COMMUNICATIONS, body, { headers: io(COMMUNICATION) });
  assert.equal(response.status, 201, response.text);
  return response.json.metadata.uuid;
}

async function resolve(client: ApiClient, communication: string): Promise<void> {
  const response = await client.post(`${COMMUNICATIONS}/${communication}/resolve`, undefined, { headers: { accept: COMMUNICATION } });
  assert.equal(response.status, 200, response.text);
}

/** The `status` of each definition as the client reads it, by GET and in the list, in every version. */
async function statusesSeenBy(client: ApiClient, definitions: string[]): Promise<Json[]> {
  const seen: Json[] = [];
  for (const version of DEFINITION_VERSIONS) {
    const accept = media('meshcommunicationdefinition', version);
    const listed = await client.get(`${DEFINITIONS}?size=350`, { headers: { accept } });
    assert.equal(listed.status, 200, listed.text);
    const byUuid = new Map(
      (listed.json._embedded.meshCommunicationDefinitions as Json[]).map((item) => [item.metadata.uuid as string, item.status as Json]),
    );
    for (const uuid of definitions) {
      const read = await client.get(`${DEFINITIONS}/${uuid}`, { headers: { accept } });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(byUuid.get(uuid), read.json.status, `${version}: the list shows what GET shows`);
      seen.push(read.json.status);
    }
  }
  return seen;
}

describeEachDatabase('side doors: the counters of communication definitions', (ctx) => {
  let admin: ApiClient;
  let action: string;
  let note: string;
  let b: string;
  let member: ApiClient;
  const communications: Record<string, string> = {};

  before(async () => {
    admin = ctx.client;
    const [a, c] = [unique('cnt-a'), unique('cnt-c')];
    b = unique('cnt-b');
    for (const workspace of [a, b, c]) await createWorkspace(admin, workspace);
    action = await createDefinition(admin, 'ACTION_REQUIRED');
    note = await createDefinition(admin, 'NOTIFICATION');
    // A and C first: an event that counts every workspace shows more than B's own then.
    communications.a = await send(admin, action, a);
    communications.c = await send(admin, action, c);
    communications.b = await send(admin, action, b);
    await send(admin, note, a);
    communications.bNote = await send(admin, note, b);
    const aMember = (await clientWithKey(admin, a, ['COMMUNICATION_LIST', 'COMMUNICATION_SAVE'])).client;
    await resolve(aMember, communications.a);
    member = (await clientWithKey(admin, b, ['COMMUNICATIONDEFINITION_LIST', 'COMMUNICATION_LIST', 'COMMUNICATION_SAVE', 'EVENTLOG_LIST']))
      .client;
  });

  it('B’s key reads only B’s counts, by GET and in the list; the definitions’ admins read the totals', async () => {
    assert.deepEqual(await statusesSeenBy(member, [action, note]), [
      { communicationsTotal: 1, communicationsResolved: 0, communicationsOpen: 1 },
      { communicationsTotal: 1 },
    ]);
    const totals = [{ communicationsTotal: 3, communicationsResolved: 1, communicationsOpen: 2 }, { communicationsTotal: 2 }];
    assert.deepEqual(await statusesSeenBy(admin, [action, note]), totals);
    // A key of B in the admin area of definitions is their owner: totals.
    const owner = (await clientWithKey(admin, b, ['ADM_COMMUNICATIONDEFINITION_LIST'])).client;
    assert.deepEqual(await statusesSeenBy(owner, [action, note]), totals);
  });

  it('after B resolves and loses its notification: B reads B’s counts, and B’s events of its communications carry B’s counts only (listed and by uuid); the definitions’ events (totals) are the admins’', async () => {
    await resolve(member, communications.b!);
    assert.deepEqual(await statusesSeenBy(member, [action]), [
      { communicationsTotal: 1, communicationsResolved: 1, communicationsOpen: 0 },
    ]);
    assert.deepEqual(await statusesSeenBy(admin, [action]), [{ communicationsTotal: 3, communicationsResolved: 2, communicationsOpen: 1 }]);
    assert.equal((await admin.delete(`${COMMUNICATIONS}/${communications.bNote}`)).status, 204);
    const put = await admin.put(
      `${DEFINITIONS}/${action}`,
      {
        apiVersion: 'v1-preview',
        kind: 'meshCommunicationDefinition',
        spec: { communication: { title: 'Counted again', message: 'm', dueDate: '2099-04-30' } },
      },
      { headers: io(DEFINITION) },
    );
    assert.equal(put.status, 200, put.text);

    const mentions = (event: Event) => [action, note].some((uuid) => JSON.stringify(event).includes(uuid));
    const seen = (await allEvents(member)).filter(mentions).reverse();
    const described = seen.map((event) => [event.spec.title, event.spec.description.replace(/^.*\(/, '(')]);
    assert.deepEqual(described, [
      ['Communication Created', `(meshCommunicationDefinition ${action} in workspace ${b}: 1 open, 0 resolved of 1)`],
      ['Communication Created', `(meshCommunicationDefinition ${note} in workspace ${b}: 1 sent)`],
      ['Communication Resolved', `(meshCommunicationDefinition ${action} in workspace ${b}: 0 open, 1 resolved of 1)`],
      ['Communication Deleted', `(meshCommunicationDefinition ${note} in workspace ${b}: 0 sent)`],
    ]);
    for (const event of seen) {
      assert.equal(JSON.stringify(event.spec.content).includes('communicationsTotal'), false, 'no definition counters in the content');
      const one = await member.get(`${EVENTS}/${event.metadata.uuid}`, { headers: { accept: EVENT_LOG } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.json.spec.description, event.spec.description);
    }

    const updated = (await allEvents(admin, 'title=Communication%20Definition%20Updated')).find(
      (event) => event.spec.content.metadata.uuid === action,
    );
    assert.deepEqual(
      updated?.spec.content.status,
      { communicationsTotal: 3, communicationsResolved: 2, communicationsOpen: 1 },
      'the admins’ event keeps the totals',
    );
    assert.equal(updated?.spec.workspaceRef, undefined, 'filed under no workspace');
    const hidden = await member.get(`${EVENTS}/${updated!.metadata.uuid}`, { headers: { accept: EVENT_LOG } });
    assert.equal(hidden.status, 404, 'a definition’s events are not a workspace’s');
  });
});
