import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EventStore } from '../src/kinds/eventlog/store.js';
import { allEvents, EVENT_LOG, EVENTS, eventsAbout, listEvents, titlesOf } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createWorkspace, io, PATHS, unique, WORKSPACE, workspaceBody } from './support/structure.js';

const ADMIN_AUTHOR = { authorType: 'ApiUser', identifier: TEST_ADMIN.username };

describeEachDatabase('event log: shape, titles, authors, filters, visibility', (ctx) => {
  it('a workspace created, renamed, re-tagged and deleted writes one event each, by the API user', async () => {
    const client = ctx.client;
    const name = unique('ev-ws');
    await createWorkspace(client, name);
    const put = await client.put(`${PATHS.workspaces}/${name}`, workspaceBody(name, { spec: { displayName: 'Renamed' } }), {
      headers: io(WORKSPACE),
    });
    assert.equal(put.status, 200, put.text);
    // The same PUT again changes nothing and writes nothing.
    assert.equal(
      (
        await client.put(`${PATHS.workspaces}/${name}`, workspaceBody(name, { spec: { displayName: 'Renamed' } }), {
          headers: io(WORKSPACE),
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await client.put(
          `${PATHS.workspaces}/${name}`,
          workspaceBody(name, { spec: { displayName: 'Renamed' }, metadata: { tags: { env: ['dev'] } } }),
          { headers: io(WORKSPACE) },
        )
      ).status,
      200,
    );
    assert.equal((await client.delete(`${PATHS.workspaces}/${name}`)).status, 204);
    const events = await eventsAbout(client, name, `workspaceIdentifier=${name}`);
    assert.deepEqual(titlesOf(events), ['Workspace Created', 'Workspace Name Changed', 'Workspace Tags Changed', 'Workspace Deleted']);
    for (const event of events) {
      assert.deepEqual(event.spec.author, ADMIN_AUTHOR);
      assert.deepEqual(event.spec.workspaceRef, { name, kind: 'meshWorkspace' });
      assert.equal(event.kind, 'meshEventLog');
      assert.equal(event.apiVersion, 'v1-preview');
    }
    const [created, renamed] = events;
    assert.equal(created!.spec.eventType, 'Created');
    assert.equal(created!.spec.previousContent, undefined);
    assert.equal(renamed!.spec.eventType, 'Changed');
    // Content is the workspace as its GET answers (links aside), before and after.
    assert.equal(renamed!.spec.content.kind, 'meshWorkspace');
    assert.equal(renamed!.spec.content._links, undefined);
    assert.equal(renamed!.spec.content.spec.displayName, 'Renamed');
    assert.equal(renamed!.spec.previousContent.spec.displayName, `Workspace ${name}`);
    const one = await client.get(`${EVENTS}/${created!.metadata.uuid}`, { headers: { accept: EVENT_LOG } });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.json, created);
    assert.match(one.headers['content-type']!, /mesheventlog\.v1-preview\+?.*json/);
  });

  it('a refused request writes no event', async () => {
    const client = ctx.client;
    const name = unique('ev-refused');
    await createWorkspace(client, name);
    const before = (await listEvents(client)).total;
    assert.equal((await client.post(PATHS.workspaces, workspaceBody(name), { headers: io(WORKSPACE) })).status, 409);
    assert.equal((await client.put(`${PATHS.workspaces}/${name}`, workspaceBody('other-name'), { headers: io(WORKSPACE) })).status, 400);
    assert.equal((await listEvents(client)).total, before);
  });

  it('lists newest first; from is inclusive and until exclusive; bad instants are 400 naming the field', async () => {
    const client = ctx.client;
    const name = unique('ev-time');
    await createWorkspace(client, name);
    await client.put(`${PATHS.workspaces}/${name}`, workspaceBody(name, { spec: { displayName: 'Later' } }), { headers: io(WORKSPACE) });
    const { events } = await listEvents(client, `workspaceIdentifier=${name}`);
    assert.deepEqual(titlesOf(events), ['Workspace Name Changed', 'Workspace Created']);
    const at = events[1]!.metadata.createdAt as string;
    assert.ok(titlesOf((await listEvents(client, `workspaceIdentifier=${name}&from=${at}`)).events).includes('Workspace Created'));
    assert.ok(!titlesOf((await listEvents(client, `workspaceIdentifier=${name}&until=${at}`)).events).includes('Workspace Created'));
    const after = new Date(Date.parse(at) + 1).toISOString();
    assert.ok(!titlesOf((await listEvents(client, `workspaceIdentifier=${name}&from=${after}`)).events).includes('Workspace Created'));
    assert.ok(titlesOf((await listEvents(client, `workspaceIdentifier=${name}&until=${after}`)).events).includes('Workspace Created'));
    for (const field of ['from', 'until']) {
      const bad = await client.get(`${EVENTS}?${field}=yesterday`, { headers: { accept: EVENT_LOG } });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.json.message, new RegExp(`^${field}:`));
    }
    for (const [field, value] of [
      ['eventType', 'Exploded'],
      ['authorType', 'Unknown'],
    ]) {
      const bad = await client.get(`${EVENTS}?${field}=${value}`, { headers: { accept: EVENT_LOG } });
      assert.equal(bad.status, 400, bad.text);
      assert.match(bad.json.message, new RegExp(`^${field}:`));
    }
  });

  it('title and description contain (case-insensitive), excludeTitle repeats, author and event type match', async () => {
    const client = ctx.client;
    const name = unique('ev-text');
    await createWorkspace(client, name);
    await client.put(`${PATHS.workspaces}/${name}`, workspaceBody(name, { spec: { displayName: 'X' }, metadata: { tags: { a: ['b'] } } }), {
      headers: io(WORKSPACE),
    });
    const q = `workspaceIdentifier=${name}`;
    assert.deepEqual(titlesOf((await listEvents(client, `${q}&title=name%20CHANGED`)).events), ['Workspace Name Changed']);
    assert.equal((await listEvents(client, `${q}&description=${name}`)).total, 3);
    assert.equal((await listEvents(client, `${q}&description=nothing-like-this`)).total, 0);
    assert.deepEqual(
      titlesOf((await listEvents(client, `${q}&excludeTitle=Workspace%20Name%20Changed&excludeTitle=Workspace%20Tags%20Changed`)).events),
      ['Workspace Created'],
    );
    assert.equal((await listEvents(client, `${q}&eventType=Changed`)).total, 2);
    assert.equal((await listEvents(client, `${q}&authorType=ApiUser&authorIdentifier=${TEST_ADMIN.username}`)).total, 3);
    assert.equal((await listEvents(client, `${q}&authorType=ApiKey`)).total, 0);
    assert.equal((await listEvents(client, `${q}&title=%25`)).total, 0); // LIKE wildcards are text
  });

  it('workspaceName matches the display name partially; with workspaceIdentifier it is 400', async () => {
    const client = ctx.client;
    const name = unique('ev-dn');
    const marker = unique('Zebra');
    await createWorkspace(client, name, { spec: { displayName: `The ${marker} Team` } });
    const { events } = await listEvents(client, `workspaceName=${marker.toLowerCase()}`);
    assert.deepEqual(titlesOf(events), ['Workspace Created']);
    assert.equal(events[0]!.spec.workspaceRef.name, name);
    assert.equal((await listEvents(client, `workspaceName=${name}-not-a-display-name`)).total, 0);
    const both = await client.get(`${EVENTS}?workspaceName=x&workspaceIdentifier=${name}`, { headers: { accept: EVENT_LOG } });
    assert.equal(both.status, 400, both.text);
    assert.match(both.json.message, /^workspaceName:/);
  });

  it("a key sees its own workspace's events with EVENTLOG_LIST, all with ADM_EVENTLOG_LIST, none without", async () => {
    const client = ctx.client;
    const mine = unique('ev-mine');
    const theirs = unique('ev-theirs');
    await createWorkspace(client, mine);
    await createWorkspace(client, theirs);
    const { client: member, key } = await clientWithKey(client, mine, ['EVENTLOG_LIST', 'WORKSPACE_SAVE', 'WORKSPACE_LIST']);
    const { client: auditor } = await clientWithKey(client, mine, ['ADM_EVENTLOG_LIST']);
    const { client: stranger } = await clientWithKey(client, mine, ['WORKSPACE_LIST']);
    // The member's own change, authored by its key.
    assert.equal(
      (
        await member.put(`${PATHS.workspaces}/${mine}`, workspaceBody(mine, { spec: { displayName: 'By key' } }), {
          headers: io(WORKSPACE),
        })
      ).status,
      200,
    );
    const seen = await allEvents(member);
    assert.ok(seen.length > 0);
    assert.ok(
      seen.every((event) => event.spec.workspaceRef?.name === mine),
      'only its own workspace',
    );
    const byKey = seen.find((event) => event.spec.title === 'Workspace Name Changed');
    assert.deepEqual(byKey?.spec.author, { authorType: 'ApiKey', identifier: key.uuid });
    assert.equal((await listEvents(member, `authorType=ApiKey&authorIdentifier=${key.uuid}`)).total, 1);
    assert.equal((await listEvents(member, `workspaceIdentifier=${theirs}`)).total, 0);
    const [theirEvent] = (await listEvents(client, `workspaceIdentifier=${theirs}`)).events;
    assert.equal((await member.get(`${EVENTS}/${theirEvent!.metadata.uuid}`, { headers: { accept: EVENT_LOG } })).status, 404);
    assert.equal((await auditor.get(`${EVENTS}/${theirEvent!.metadata.uuid}`, { headers: { accept: EVENT_LOG } })).status, 200);
    assert.equal((await listEvents(auditor, `workspaceIdentifier=${theirs}`)).total, 1);
    assert.equal((await stranger.get(EVENTS, { headers: { accept: EVENT_LOG } })).status, 403);
    // The index lists the event log for those who may read it.
    const index = async (c: typeof client) =>
      (await c.get('/api/meshobjects', { headers: { accept: 'application/vnd.vendor.api.meshobjects.v2.hal+json' } })).json._links;
    assert.ok((await index(member)).mesheventlogs, 'listed for EVENTLOG_LIST');
    assert.equal((await index(stranger)).mesheventlogs, undefined);
    assert.ok((await index(client)).mesheventlogs.href.includes('excludeTitle'));
  });

  it('retention: pruning deletes events older than the cut-off, oldest first, in bounded batches, never the newest', async () => {
    const client = ctx.client;
    const db = ctx.server.server.database.db;
    const store = new EventStore(db);
    const marker = unique('ev-old');
    const old = Array.from({ length: 5 }, (_, i) => ({
      title: 'Workspace Created',
      eventType: 'Created' as const,
      description: `${marker} ${i}`,
      content: { i },
    }));
    await store.append(old, { authorType: 'System', identifier: 'system' }, '2000-01-01T00:00:00.000Z');
    await createWorkspace(client, unique('ev-newer')); // the newest event always stays: make it another one
    assert.equal((await listEvents(client, `description=${marker}`)).total, 5);
    assert.equal(await store.prune('2000-01-02T00:00:00.000Z', 3), 3);
    assert.equal((await listEvents(client, `description=${marker}`)).total, 2);
    assert.equal(await store.prune('2000-01-02T00:00:00.000Z', 3), 2);
    assert.equal((await listEvents(client, `description=${marker}`)).total, 0);
    // Everything older than the cut-off: all but the newest event go.
    const before = (await listEvents(client)).total;
    assert.ok(before > 1);
    assert.equal(await store.prune('2999-01-01T00:00:00.000Z', 100_000), before - 1);
    assert.equal((await listEvents(client)).total, 1);
    const name = unique('ev-after');
    await createWorkspace(client, name);
    const { events } = await listEvents(client);
    assert.deepEqual(titlesOf(events), ['Workspace Created', events[1]!.spec.title]);
    assert.equal(events[0]!.spec.workspaceRef.name, name);
  });
});
