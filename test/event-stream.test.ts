import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, it } from 'node:test';
import { allEvents } from './support/events.js';
import { createKey, login } from './support/identity.js';
import { basic, describeEachDatabase, TEST_ADMIN, type TestServer } from './support/server.js';
import { openStream, type SseStream } from './support/sse.js';
import { io, unique, WORKSPACE, workspaceBody } from './support/structure.js';

/**
 * The event log's live watch: `GET /api/meshobjects/mesheventlogs` with
 * `Accept: text/event-stream`, over real TLS on both databases. Workspace writes produce the events.
 */
const EVENTS = '/api/meshobjects/mesheventlogs';
const EVENT_LOG = 'application/vnd.vendor.api.mesheventlog.v1-preview.hal+json';
const ADMIN = basic(TEST_ADMIN.username, TEST_ADMIN.password);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase(
  'event stream',
  (ctx) => {
    const ca = () => readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8');
    const stream = async (query = '', options: { authorization?: string; lastEventId?: string } = {}) =>
      track(
        await openStream(ctx.server.url, await ca(), `${EVENTS}${query}`, {
          authorization: options.authorization ?? ADMIN,
          ...(options.lastEventId ? { lastEventId: options.lastEventId } : {}),
        }),
      );
    const createWorkspace = async (name: string, displayName = `Workspace ${name}`) => {
      const response = await ctx.server.client.post('/api/meshobjects/meshworkspaces', workspaceBody(name, { spec: { displayName } }), {
        headers: io(WORKSPACE),
      });
      assert.equal(response.status, 201, response.text);
    };
    const deleteWorkspace = async (name: string) => {
      const response = await ctx.server.client.delete(`/api/meshobjects/meshworkspaces/${name}`, { headers: { accept: WORKSPACE } });
      assert.ok(response.status === 204 || response.status === 202, response.text);
    };
    const open: SseStream[] = [];
    const track = (s: SseStream) => (open.push(s), s);
    afterEach(() => {
      for (const s of open.splice(0)) s.close();
    });

    it('streams each new event as id, event name and the list item as data', async () => {
      const s = await stream();
      assert.equal(s.status, 200);
      assert.match(String(s.headers['content-type']), /^text\/event-stream/);
      const name = unique('live');
      await createWorkspace(name);
      const [event] = await s.waitFor(1);
      assert.equal(event!.event, 'meshEventLog');
      const data = event!.json;
      assert.equal(data.kind, 'meshEventLog');
      assert.equal(data.apiVersion, 'v1-preview');
      assert.equal(event!.id, data.metadata.uuid);
      assert.equal(data.spec.title, 'Workspace Created');
      assert.equal(data.spec.workspaceRef.name, name);
      // The same representation as the list and the object answer.
      const one = await ctx.server.client.get(`${EVENTS}/${event!.id}`, { headers: { accept: EVENT_LOG } });
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(data, one.json);
      s.close();
    });

    it('applies the list filters: contains, excludeTitle, workspaceIdentifier, eventType', async () => {
      const a = unique('filt');
      const b = unique('filt');
      const byWorkspace = await stream(`?workspaceIdentifier=${a}`);
      await createWorkspace(a, `Filtered ${a}`);
      await createWorkspace(b, `Filtered ${b}`);
      // workspaceName is resolved when the stream starts: the workspaces whose display name contains it then.
      const deletes = await stream(`?title=deleted&workspaceName=Filtered%20filt`);
      const notCreated = await stream(`?excludeTitle=Workspace%20Created&excludeTitle=Nothing&workspaceIdentifier=${b}`);
      const typed = await stream(`?eventType=Deleted&workspaceIdentifier=${b}`);
      await deleteWorkspace(b);
      await deleteWorkspace(a);
      const marker = unique('filt');
      await createWorkspace(marker);
      await byWorkspace.waitFor(2);
      await deletes.waitFor(2);
      await notCreated.waitFor(1);
      await typed.waitFor(1);
      await sleep(300);
      assert.deepEqual(
        byWorkspace.events.map((e) => [e.json.spec.title, e.json.spec.workspaceRef.name]),
        [
          ['Workspace Created', a],
          ['Workspace Deleted', a],
        ],
      );
      assert.deepEqual(deletes.events.map((e) => e.json.spec.workspaceRef.name).sort(), [a, b].sort());
      assert.deepEqual(
        notCreated.events.map((e) => e.json.spec.title),
        ['Workspace Deleted'],
      );
      assert.deepEqual(
        typed.events.map((e) => e.json.spec.eventType),
        ['Deleted'],
      );
      for (const s of [byWorkspace, deletes, notCreated, typed]) s.close();
    });

    it('answers a bad filter as the list does, before streaming', async () => {
      const s = await stream('?workspaceName=x&workspaceIdentifier=y');
      assert.equal(s.status, 400, s.text);
      assert.match(JSON.parse(s.text).message, /workspaceName/);
      const until = await stream('?until=yesterday');
      assert.equal(until.status, 400, until.text);
    });

    it("never delivers another workspace's events to a workspace key", async () => {
      const mine = unique('mine');
      const other = unique('other');
      await createWorkspace(mine);
      const key = await createKey(ctx.server.client, mine, ['EVENTLOG_LIST']);
      const token = await login(ctx.server.client, key);
      const s = await stream('', { authorization: `Bearer ${token}` });
      assert.equal(s.status, 200, s.text);
      // Asking for the other workspace explicitly gives nothing either.
      const asked = await stream(`?workspaceIdentifier=${other}`, { authorization: `Bearer ${token}` });
      await createWorkspace(other);
      await deleteWorkspace(other);
      await deleteWorkspace(mine);
      await s.waitFor(1);
      await sleep(300);
      const events = s.events;
      await sleep(300);
      // Its own workspace's deletion (and its keys'), nothing of the other.
      assert.ok(events.length >= 1);
      assert.deepEqual([...new Set(events.map((e) => e.json.spec.workspaceRef?.name))], [mine]);
      assert.ok(
        events.some((e) => e.json.spec.title === 'Workspace Deleted'),
        JSON.stringify(events.map((e) => e.json.spec.title)),
      );
      assert.equal(asked.events.length, 0);
      // Without EVENTLOG_LIST: 403, as the list.
      const keyless = await createKey(ctx.server.client, mine + 'x', ['WORKSPACE_LIST']);
      const denied = await stream('', { authorization: `Bearer ${await login(ctx.server.client, keyless)}` });
      assert.equal(denied.status, 403, denied.text);
      s.close();
      asked.close();
    });

    it("delivers every event of concurrent writes once, in the order of the log, and none of them to another workspace's key", async () => {
      const s = await stream();
      // A key of a workspace none of the writes touch, streaming meanwhile (gaps are settled on the same path).
      const bystander = unique('bystander');
      await createWorkspace(bystander);
      const token = await login(ctx.server.client, await createKey(ctx.server.client, bystander, ['EVENTLOG_LIST']));
      const theirs = await stream('', { authorization: `Bearer ${token}` });
      assert.equal(theirs.status, 200, theirs.text);
      const prefix = unique('concurrent');
      const names = Array.from({ length: 150 }, (_, i) => `${prefix}-${i}`);
      // All at once: on PostgreSQL their event numbers are taken and committed out of order, so the
      // stream must wait at each number still in flight rather than deliver past it.
      await Promise.all(names.map((name) => createWorkspace(name)));
      const ours = () => s.events.filter((event) => event.json.spec.workspaceRef?.name?.startsWith(`${prefix}-`)).map((event) => event.id!);
      for (let waited = 0; waited < 20_000 && ours().length < names.length; waited += 50) await sleep(50);
      const inLog = (await allEvents(ctx.server.client, `description=${prefix}`)).map((event) => event.metadata.uuid as string);
      // The list is newest first (by number): the stream's order is its reverse.
      assert.equal(inLog.length, names.length);
      assert.deepEqual(ours(), inLog.reverse());
      assert.deepEqual(
        theirs.events.filter((event) => event.json.spec.workspaceRef?.name !== bystander),
        [],
      );
    });

    it('resumes after a disconnect with Last-Event-ID: nothing missed, nothing repeated', async () => {
      const prefix = unique('resume');
      for (const n of [1, 2, 3, 4, 5, 6]) await createWorkspace(`${prefix}-${n}`, `${prefix} ${n}`);
      // Their deletions are the events followed.
      const query = `?title=Deleted&description=${prefix}`;
      const s = await stream(query);
      await deleteWorkspace(`${prefix}-1`);
      await deleteWorkspace(`${prefix}-2`);
      const seen = (await s.waitFor(2)).slice(0, 2);
      s.close();
      await s.done;
      // While disconnected.
      for (const n of [3, 4, 5]) await deleteWorkspace(`${prefix}-${n}`);
      const resumed = await stream(query, { lastEventId: seen.at(-1)!.id! });
      assert.equal(resumed.status, 200, resumed.text);
      await deleteWorkspace(`${prefix}-6`);
      const rest = await resumed.waitFor(4);
      await sleep(300);
      const names = [...seen, ...resumed.events].map((e) => e.json.spec.workspaceRef.name);
      assert.deepEqual(
        names,
        [1, 2, 3, 4, 5, 6].map((n) => `${prefix}-${n}`),
      );
      assert.equal(new Set([...seen, ...rest].map((e) => e.id)).size, 6);
    });

    it('ends a stream within seconds when its key is deleted: a stream never outlives its credential', async () => {
      const workspace = unique('revoked');
      const key = await createKey(ctx.server.client, workspace, ['EVENTLOG_LIST']);
      const s = await stream('', { authorization: `Bearer ${await login(ctx.server.client, key)}` });
      assert.equal(s.status, 200, s.text);
      const deleted = await ctx.server.client.delete(`/api/meshobjects/meshapikeys/${key.uuid}`, {
        headers: { accept: 'application/vnd.vendor.api.meshapikey.v1-preview.hal+json' },
      });
      assert.ok(deleted.status < 300, deleted.text);
      const started = Date.now();
      await Promise.race([s.done, sleep(15_000)]);
      assert.ok(s.ended, 'the stream is still open 15 s after its key was deleted');
      assert.ok(Date.now() - started < 12_000);
      assert.ok(
        s.comments.some((c) => c.startsWith('closed: the credentials no longer hold')),
        JSON.stringify(s.comments),
      );
    });

    it('answers an unknown Last-Event-ID 410 and a malformed one 400', async () => {
      const unknown = await stream('', { lastEventId: '6f1c0a7e-0000-4000-8000-000000000000' });
      assert.equal(unknown.status, 410, unknown.text);
      assert.match(JSON.parse(unknown.text).message, /names no event in the log/);
      const malformed = await stream('', { lastEventId: 'not-an-id' });
      assert.equal(malformed.status, 400, malformed.text);
    });

    it('sends heartbeat comments', async () => {
      const s = await stream('?title=none-such');
      await s.waitForComment((c) => c.startsWith('heartbeat'), 5000);
      s.close();
    });

    it('limits open streams per credential (429), and frees the slot when one closes', async () => {
      const key = await createKey(ctx.server.client, unique('limit'), ['EVENTLOG_LIST']);
      const authorization = `Bearer ${await login(ctx.server.client, key)}`;
      const streams = [];
      for (let i = 0; i < 4; i++) streams.push(await stream('', { authorization }));
      assert.deepEqual(
        streams.map((s) => s.status),
        [200, 200, 200, 200],
      );
      const fifth = await stream('', { authorization });
      assert.equal(fifth.status, 429, fifth.text);
      assert.match(JSON.parse(fifth.text).message, /at most 4 event streams may be open per credential/);
      // Another credential is not affected.
      const admin = await stream();
      assert.equal(admin.status, 200);
      streams[1]!.close();
      await streams[1]!.done;
      let again: SseStream | undefined;
      for (let i = 0; i < 50 && again?.status !== 200; i++) {
        await sleep(50);
        again = await stream('', { authorization });
      }
      assert.equal(again?.status, 200, again?.text);
    });

    it('disconnects a reader that does not read once its buffer is full, and keeps serving the others', async () => {
      const prefix = unique('slow');
      const slow = await stream('?title=Workspace%20Created');
      const fast = await stream('?title=Workspace%20Created');
      slow.pause();
      // Large events (64 KB of tags each): the socket's buffers fill, then the stream's 16 KiB bound.
      const tags = { big: Array.from({ length: 250 }, (_, i) => `${i}-${'x'.repeat(250)}`) };
      let closed = false;
      for (let i = 0; i < 400 && !closed; i++) {
        const name = `${prefix}-${i}`;
        const response = await ctx.server.client.post(
          '/api/meshobjects/meshworkspaces',
          workspaceBody(name, { metadata: { tags }, spec: { displayName: `${prefix} ${i}` } }),
          { headers: io(WORKSPACE) },
        );
        assert.equal(response.status, 201, response.text);
        if (i % 10 === 9) closed = (await readFile(ctx.server.logFile, 'utf8')).includes('event stream closed: its reader is too slow');
      }
      // The writes may end before the stall is judged (two heartbeat intervals of a socket that takes
      // nothing, checked at each heartbeat): the paused reader never reads, so it must come within a few.
      for (const deadline = Date.now() + 10_000; !closed && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        closed = (await readFile(ctx.server.logFile, 'utf8')).includes('event stream closed: its reader is too slow');
      }
      assert.ok(closed, 'the slow reader was never disconnected');
      // The other stream got every event.
      const count = (await ctx.server.client.get(`${EVENTS}?workspaceName=${prefix}&size=1`, { headers: { accept: EVENT_LOG } })).json.page
        .totalElements;
      assert.ok(count > 0);
      await fast.waitFor(count, 30_000);
      assert.deepEqual(
        fast.events.map((e) => e.json.spec.workspaceRef.name),
        Array.from({ length: count }, (_, i) => `${prefix}-${i}`),
      );
      slow.resume();
      await slow.done;
      assert.ok(slow.events.length < count, 'the slow reader cannot have received everything');
      fast.close();
    });

    it('ends open streams at shutdown with a closing comment; they resume on the restarted server', async () => {
      const prefix = unique('restart');
      const query = `?title=Workspace%20Created`;
      const s = await stream(query);
      await createWorkspace(`${prefix}-1`, `${prefix} 1`);
      const [first] = await s.waitFor(1);
      await (ctx.server as TestServer).restart();
      await s.done;
      assert.ok(
        s.comments.some((c) => c.includes('shutting down')),
        JSON.stringify(s.comments),
      );
      await createWorkspace(`${prefix}-2`, `${prefix} 2`);
      const resumed = await stream(query, { lastEventId: first!.id! });
      await createWorkspace(`${prefix}-3`, `${prefix} 3`);
      await resumed.waitFor(2);
      assert.deepEqual(
        resumed.events.map((e) => e.json.spec.workspaceRef.name),
        [`${prefix}-2`, `${prefix}-3`],
      );
    });
  },
  {
    BLOCKYARD_EVENT_STREAM_HEARTBEAT_SECONDS: '1',
    BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL: '4',
    BLOCKYARD_EVENT_STREAM_BUFFER_BYTES: '16384',
    BLOCKYARD_RATE_LIMIT_MAX: '100000',
  },
);
