import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { BLOCKS, blockWorld, postBlock, tenantTarget, v2Body, type BlockWorld } from './support/blocks.js';
import { skipUnless } from './support/databases.js';
import { sql } from 'kysely';
import { SettledLog } from '../src/kinds/eventlog/settled-log.js';
import { EventStore } from '../src/kinds/eventlog/store.js';
import { allEvents } from './support/events.js';
import { clientWithKey, login } from './support/identity.js';
import { basic, startTestServer, TEST_ADMIN, type TestServer } from './support/server.js';
import { openStream } from './support/sse.js';
import { EVENTS_CHANNEL } from '../src/kinds/eventlog/recorder.js';
import { io, PATHS, unique, WORKSPACE, workspaceBody } from './support/structure.js';

/** Rate-limit windows are fixed and aligned to the clock; an hour keeps both batches of the rate-limit test in one. */
const WINDOW_SECONDS = 3600;
/** The streams' slow poll an hour away: only another instance's notification brings its events in time. */
const ENV = {
  BLOCKYARD_RATE_LIMIT_MAX: '200',
  BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  BLOCKYARD_EVENT_POLL_SECONDS: '3600',
};

/**
 * Several instances on one PostgreSQL database, with no load balancer: each request
 * goes to an instance picked at random. (Claims handed out exactly once across instances are proved in
 * runs.test.ts; killing one of several instances mid-load, with the instances as child processes, in
 * instances-kill.test.ts.)
 */
describe('several instances on PostgreSQL', { skip: skipUnless('postgres') }, () => {
  const instances: TestServer[] = [];
  let world: BlockWorld;
  const anyInstance = () => instances[Math.floor(Math.random() * instances.length)]!.client;

  before(async () => {
    instances.push(await startTestServer('postgres', { env: ENV }));
    const shared = { databaseUrl: instances[0]!.env.BLOCKYARD_DATABASE_URL!, dataDir: instances[0]!.dataDir };
    instances.push(await startTestServer('postgres', { shared, env: ENV }));
    instances.push(await startTestServer('postgres', { shared, env: ENV }));
    world = await blockWorld(instances[0]!.client);
  });

  after(async () => {
    for (const instance of instances.slice(1).reverse()) await instance.server.close();
    await instances[0]?.stop();
  });

  // First: no stream may have been open on any instance yet.
  it('notifies no commit while no instance has an event stream open', async () => {
    const listener = new pg.Client({ connectionString: instances[0]!.env.BLOCKYARD_DATABASE_URL });
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.connect();
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    try {
      for (const instance of instances) {
        const response = await instance.client.post('/api/meshobjects/meshworkspaces', workspaceBody(unique('quiet')), {
          headers: io(WORKSPACE),
        });
        assert.equal(response.status, 201, response.text);
      }
      // A NOTIFY goes out after its commit: give it time to arrive. (An instance whose listening
      // connection reconnects says `asking`: not a commit's notification, whose payload is empty.)
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(
        heard.filter((payload) => payload === ''),
        [],
        'commits notified with no stream open anywhere',
      );
    } finally {
      await listener.end();
    }
  });

  it("wakes a stream on one instance with another instance's commits", async () => {
    const ca = await readFile(path.join(instances[0]!.dataDir, 'tls', 'cert.pem'), 'utf8');
    const name = unique('woken');
    const stream = await openStream(instances[1]!.url, ca, `/api/meshobjects/mesheventlogs?workspaceIdentifier=${name}`, {
      authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password),
    });
    try {
      assert.equal(stream.status, 200, stream.text);
      const started = Date.now();
      const response = await instances[0]!.client.post('/api/meshobjects/meshworkspaces', workspaceBody(name), { headers: io(WORKSPACE) });
      assert.equal(response.status, 201, response.text);
      const [event] = await stream.waitFor(1, 5000);
      assert.equal(event!.json.spec.title, 'Workspace Created');
      assert.ok(Date.now() - started < 2000, `delivered after ${Date.now() - started} ms`);
    } finally {
      stream.close();
    }
  });

  it('accepts a token issued by one instance on every other one', async () => {
    const { key } = await clientWithKey(instances[0]!.client, world.workspace, ['BUILDINGBLOCK_LIST']);
    const token = await login(instances[1]!.client, key);
    for (const instance of instances) {
      const response = await instance.client.get(`${BLOCKS}?workspaceIdentifier=${world.workspace}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' },
      });
      assert.equal(response.status, 200, response.text);
    }
  });

  it('creates exactly one block under concurrent identical creates of an onlyApplyOncePerTenant definition on all instances', async () => {
    const tenant = world.other.tenant;
    const body = v2Body({ versionUuid: world.defs.once.versionUuid, target: tenantTarget(tenant) });
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => postBlock(instances[i % instances.length]!.client, body)));
    const statuses = responses.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(statuses),
    );
    const list = await anyInstance().get(`${BLOCKS}?tenantUuid=${tenant.uuid}&definitionUuid=${world.defs.once.uuid}`, {
      headers: { accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' },
    });
    assert.equal(list.json.page.totalElements, 1);
  });

  it("every acknowledged change on any instance has its event and every event its change; a stream's reading of the log gives them all, in order", async () => {
    const prefix = unique('evinst');
    const names = Array.from({ length: 24 }, (_, i) => `${prefix}-${i}`);
    // Concurrent creates on all instances, each name twice (one of each pair is refused: no event), then renames.
    const creates = await Promise.all(
      [...names, ...names].map((name, i) =>
        instances[i % instances.length]!.client.post(PATHS.workspaces, workspaceBody(name), { headers: io(WORKSPACE) }),
      ),
    );
    assert.ok(
      creates.every((r) => r.status === 201 || r.status === 409),
      JSON.stringify(creates.map((r) => r.status)),
    );
    const created = names.filter((name) => creates.some((r) => r.status === 201 && r.json.metadata.name === name));
    assert.equal(created.length, names.length);
    const renames = await Promise.all(
      names.map((name, i) =>
        instances[(i + 1) % instances.length]!.client.put(
          `${PATHS.workspaces}/${name}`,
          workspaceBody(name, { spec: { displayName: `Renamed ${i}` } }),
          { headers: io(WORKSPACE) },
        ),
      ),
    );
    assert.ok(renames.every((r) => r.status === 200));
    // Read through each instance: the same events, one per acknowledged change.
    for (const instance of instances) {
      const events = (await allEvents(instance.client, 'title=Workspace')).filter((event) =>
        event.spec.workspaceRef?.name?.startsWith(`${prefix}-`),
      );
      const of = (title: string) =>
        events
          .filter((event) => event.spec.title === title)
          .map((event) => event.spec.workspaceRef.name as string)
          .sort();
      assert.deepEqual(of('Workspace Created'), [...names].sort());
      assert.deepEqual(of('Workspace Name Changed'), [...names].sort());
      assert.equal(events.length, names.length * 2);
    }
    // The numbers: once every write has ended, a stream's reading of the log (as far as it is settled)
    // gives every committed event, in number order — gaps left by rolled-back numbers do not hold it back.
    const db = instances[0]!.server.database.db;
    const { rows } = await sql<{ seq: string | number }>`select seq from events order by seq`.execute(db);
    const settled: number[] = [];
    const log = new SettledLog(new EventStore(db));
    for (let batch = await log.after(0, 500); batch.length > 0; batch = await log.after(settled.at(-1)!, 500))
      settled.push(...batch.map((event) => event.seq));
    assert.deepEqual(
      settled,
      rows.map((row) => Number(row.seq)),
    );
  });

  it('limits a credential across instances, not per instance', async () => {
    const { token } = await clientWithKey(instances[0]!.client, world.workspace, ['BUILDINGBLOCK_LIST']);
    const asKey = (server: TestServer) => server.client.with({ authorization: `Bearer ${token}` });
    // Both batches must fall into one window: with 60 s windows a boundary between them (a slow machine
    // makes the first batch take seconds) let the whole second batch through now and then.
    const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
    if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 250));
    // 150 requests on the first instance, then (after the counts were shared) 150 on the second: 200 allowed in all.
    const first = await Promise.all(
      Array.from({ length: 150 }, () =>
        asKey(instances[0]!).get('/api', { headers: { accept: 'application/vnd.vendor.api.v1.hal+json' } }),
      ),
    );
    assert.ok(first.every((r) => r.status === 200));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = await Promise.all(
      Array.from({ length: 150 }, () =>
        asKey(instances[1]!).get('/api', { headers: { accept: 'application/vnd.vendor.api.v1.hal+json' } }),
      ),
    );
    const limited = second.filter((r) => r.status === 429);
    assert.ok(
      limited.length >= 75,
      `the second instance let ${150 - limited.length} of 150 through after 150 of 200 were used on the first`,
    );
    assert.ok(limited.every((r) => Number(r.headers['retry-after']) >= 1));
  });
});
