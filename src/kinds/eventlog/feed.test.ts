import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../store/database.js';
import { inTransaction } from '../../store/transaction.js';
import { EventFeed, type Subscriber } from './feed.js';
import { matchesFilter } from './filter.js';
import type { EventDraft, EventFilter, EventRecord } from './model.js';
import { EventStore } from './store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const draft = (title: string, workspace?: string): EventDraft => ({
  title,
  eventType: 'Created',
  description: `${title} happened`,
  ...(workspace ? { workspace } : {}),
  content: { title },
});

function collector(filter: EventFilter = {}) {
  const received: EventRecord[] = [];
  const subscriber: Subscriber & { received: EventRecord[]; failures: unknown[] } = {
    filter,
    received,
    failures: [],
    deliver: (records) => void received.push(...records),
    ready: () => Promise.resolve(),
    fail: (error) => void subscriber.failures.push(error),
  };
  return subscriber;
}

async function until(check: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The feed over a real (SQLite) events table: one read per wake-up, fanned out, resumes exact. */
describe('EventFeed', () => {
  let dir: string;
  let database: Database;
  let store: EventStore;
  let feed: EventFeed;
  let reads = 0;
  const append = async (...drafts: EventDraft[]) => {
    const records = await inTransaction(database.db, (trx) =>
      new EventStore(trx).append(drafts, { authorType: 'System', identifier: 'system' }),
    );
    feed.wake();
    return records;
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'blockyard-feed-'));
    database = await openDatabase(loadConfig({ BLOCKYARD_DATA_DIR: dir }), pino({ level: 'silent' }));
    store = new EventStore(database.db);
    feed = new EventFeed(database.db, { batch: 50, pollMs: 60_000 });
    // Count the feed's reads of new events.
    const inner = (feed as unknown as { store: EventStore }).store;
    const after = inner.after.bind(inner);
    inner.after = (seq, limit) => {
      reads++;
      return after(seq, limit);
    };
  });
  after(async () => {
    feed.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fans each new batch out to every subscriber with one read, each filtering in memory', async () => {
    const subscribers = Array.from({ length: 20 }, (_, i) => collector(i % 2 === 0 ? { workspaces: ['alpha'] } : { title: 'BETA' }));
    const subscriptions = await Promise.all(subscribers.map((s) => feed.subscribe(s)));
    const before = reads;
    await append(draft('alpha one', 'alpha'), draft('beta one', 'beta'), draft('nothing'));
    await until(() => subscribers.every((s) => s.received.length === 1), 'deliveries');
    assert.ok(reads - before <= 2, `${reads - before} reads for one commit and 20 subscribers`);
    for (const [i, s] of subscribers.entries())
      assert.deepEqual(
        s.received.map((r) => r.title),
        [i % 2 === 0 ? 'alpha one' : 'beta one'],
      );
    for (const subscription of subscriptions) subscription.close();
    assert.equal(feed.size, 0);
  });

  it('hands every subscriber that takes a whole batch the same array (its text is then joined once)', async () => {
    const batches: (readonly EventRecord[])[][] = [[], [], []];
    const subscribers = [collector(), collector(), collector({ workspaces: ['alpha'] })].map((s, i) => ({
      ...s,
      deliver: (records: readonly EventRecord[]) => void batches[i]!.push(records),
    }));
    const subscriptions = await Promise.all(subscribers.map((s) => feed.subscribe(s)));
    await append(draft('alpha two', 'alpha'), draft('gamma two', 'gamma'));
    await until(() => batches.every((received) => received.length === 1), 'deliveries');
    assert.equal(batches[0]![0], batches[1]![0], 'the unfiltered subscribers share the batch');
    assert.deepEqual(
      batches[0]![0]!.map((r) => r.title),
      ['alpha two', 'gamma two'],
    );
    assert.deepEqual(
      batches[2]![0]!.map((r) => r.title),
      ['alpha two'],
    );
    for (const subscription of subscriptions) subscription.close();
  });

  it('lets the event loop turn between two full batches of one large commit (the streams get it in slices)', async () => {
    const deliveries: number[] = [];
    let turnedAfter: number | undefined;
    const s = {
      ...collector(),
      deliver: (records: readonly EventRecord[]) => {
        deliveries.push(records.length);
        // What waits for the event loop's next round (another request) runs before the next batch is handed out.
        if (deliveries.length === 1) setImmediate(() => (turnedAfter = deliveries.length));
      },
    };
    const subscription = await feed.subscribe(s);
    await append(...Array.from({ length: 120 }, (_, i) => draft(`bulk ${i}`)));
    await until(() => deliveries.reduce((sum, n) => sum + n, 0) === 120, 'deliveries');
    assert.deepEqual(deliveries, [50, 50, 20], 'batches of 50');
    assert.equal(turnedAfter, 1, 'the event loop turned before the second batch');
    subscription.close();
  });

  it('reports how far the slowest subscriber is behind: positions and the age of the oldest event not handed to it', async () => {
    assert.deepEqual(await feed.lag(), { positions: 0, seconds: 0 }, 'no subscriber: no lag');
    const s = collector();
    const subscription = await feed.subscribe(s);
    assert.deepEqual(await feed.lag(), { positions: 0, seconds: 0 }, 'up to date');
    // Committed without waking the feed (as another instance's commit before its notification arrives).
    const written = Date.parse('2026-01-01T00:00:00.000Z');
    await inTransaction(database.db, (trx) =>
      new EventStore(trx).append(
        [draft('unseen one'), draft('unseen two')],
        { authorType: 'System', identifier: 'system' },
        new Date(written).toISOString(),
      ),
    );
    assert.deepEqual(await feed.lag(written + 2500), { positions: 2, seconds: 2.5 });
    feed.wake();
    await until(() => s.received.length === 2, 'the two events');
    assert.deepEqual(await feed.lag(), { positions: 0, seconds: 0 }, 'handed over: up to date again');
    subscription.close();
  });

  it('starts a subscriber without a position at the present: nothing from before', async () => {
    await append(draft('old'));
    const s = collector();
    const subscription = await feed.subscribe(s);
    await append(draft('new'));
    await until(() => s.received.length === 1, 'the new event');
    await sleep(50);
    assert.deepEqual(
      s.received.map((r) => r.title),
      ['new'],
    );
    subscription.close();
  });

  it('says when its first subscriber comes and its last leaves (what other instances notify for)', async () => {
    const said: boolean[] = [];
    const watched = new EventFeed(database.db, { pollMs: 60_000, onWatching: (watching) => void said.push(watching) });
    const one = await watched.subscribe(collector());
    const two = await watched.subscribe(collector());
    assert.deepEqual(said, [true]);
    one.close();
    one.close();
    assert.deepEqual(said, [true], 'one subscriber left');
    two.close();
    assert.deepEqual(said, [true, false]);
    await watched.subscribe(collector());
    watched.close();
    assert.deepEqual(said, [true, false, true, false]);
  });

  it('resumes after a position while events keep coming: nothing missed, nothing twice, in commit order', async () => {
    const live = collector();
    const liveSubscription = await feed.subscribe(live);
    const first = await append(...Array.from({ length: 120 }, (_, i) => draft(`backlog ${i}`)));
    const resumeAfter = first[9]!.seq;
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await append(draft(`during ${i}`));
        await sleep(1);
      }
    })();
    await sleep(20);
    const resumed = collector();
    const subscription = await feed.subscribe(resumed, resumeAfter);
    await sleep(150);
    writing = false;
    await writer;
    const last = await store.lastSeq();
    await until(() => resumed.received.at(-1)?.seq === last && live.received.at(-1)?.seq === last, 'both at the end');
    const seqs = resumed.received.map((r) => r.seq);
    const expected = (await store.after(resumeAfter, 10_000)).map((r) => r.seq);
    assert.deepEqual(seqs, expected);
    assert.deepEqual(
      live.received.map((r) => r.seq),
      (await store.after(first[0]!.seq - 1, 10_000)).map((r) => r.seq),
    );
    subscription.close();
    liveSubscription.close();
  });

  it('lets a subscriber that fell behind read on from the log at its pace and rejoin: nothing missed or repeated', async () => {
    const s = collector();
    let release: () => void = () => undefined;
    let dropped = 0;
    const held: { subscription?: Awaited<ReturnType<EventFeed['subscribe']>> } = {};
    // The first live delivery "overflows": dropped, and the subscriber is not ready for a while.
    s.deliver = (records, catchUp) => {
      if (!catchUp && dropped === 0) {
        dropped = records.length;
        s.ready = () => new Promise((resolve) => (release = () => resolve()));
        held.subscription!.fallBehind(records[0]!.seq - 1);
        return;
      }
      s.received.push(...records);
    };
    const subscription = await feed.subscribe(s);
    held.subscription = subscription;
    const start = await store.lastSeq();
    for (let i = 0; i < 5; i++) await append(...Array.from({ length: 60 }, (_, j) => draft(`burst ${i}.${j}`)));
    await sleep(50);
    assert.ok(dropped > 0);
    assert.equal(s.received.length, 0, 'nothing while not ready');
    s.ready = () => Promise.resolve();
    release();
    await append(draft('after'));
    const last = await store.lastSeq();
    await until(() => s.received.at(-1)?.seq === last, 'the end');
    await append(draft('live again'));
    await until(() => s.received.at(-1)?.title === 'live again', 'live again');
    assert.deepEqual(
      s.received.map((r) => r.seq),
      (await store.after(start, 10_000)).map((r) => r.seq),
    );
    subscription.close();
  });

  it('passes on what it read only once it is on disk (durable), live and catching up alike', async () => {
    let release!: () => void;
    let durableAsked = 0;
    const gated = new EventFeed(database.db, {
      batch: 50,
      pollMs: 60_000,
      minIntervalMs: 0,
      durable: () => {
        durableAsked++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    try {
      const [first] = await append(draft('before the subscriber'));
      const catchingUp = collector();
      await gated.subscribe(catchingUp, first!.seq - 1);
      await until(() => durableAsked === 1, 'the catch-up read');
      await sleep(20);
      assert.equal(catchingUp.received.length, 0, 'read, not yet passed on');
      release();
      await until(() => catchingUp.received.length === 1, 'the event, once durable');
      await append(draft('live'));
      gated.wake();
      await until(() => durableAsked >= 2, 'the live read');
      await sleep(20);
      assert.equal(catchingUp.received.length, 1, 'the live event waits for the disk too');
      release();
      await until(() => catchingUp.received.at(-1)?.title === 'live', 'the live event, once durable');
    } finally {
      release?.();
      gated.close();
    }
  });
});

describe('matchesFilter', () => {
  const event: EventRecord = {
    seq: 1,
    uuid: 'u',
    createdAt: '2025-05-29T12:00:00.000Z',
    title: 'Workspace Created',
    eventType: 'Created',
    description: 'Workspace Likvid Mobile was created',
    workspace: 'likvid',
    content: {},
    author: { authorType: 'ApiKey', identifier: 'k1' },
  };
  it('treats from as inclusive and until as exclusive', () => {
    assert.equal(matchesFilter(event, { from: event.createdAt }), true);
    assert.equal(matchesFilter(event, { until: event.createdAt }), false);
    assert.equal(matchesFilter(event, { until: '2025-05-29T12:00:00.001Z' }), true);
    assert.equal(matchesFilter(event, { from: '2025-05-29T12:00:00.001Z' }), false);
  });
  it('matches title and description by contains, case-insensitive', () => {
    assert.equal(matchesFilter(event, { title: 'space cre' }), true);
    assert.equal(matchesFilter(event, { description: 'LIKVID' }), true);
    assert.equal(matchesFilter(event, { title: 'Deleted' }), false);
  });
  it('folds case as the database does: Unicode, or ASCII only (SQLite)', () => {
    const accented = { ...event, title: 'Ärger Created' };
    assert.equal(matchesFilter(accented, { title: 'ärger' }), true);
    assert.equal(matchesFilter(accented, { title: 'ärger' }, 'ascii'), false);
    assert.equal(matchesFilter(accented, { title: 'Ärger CREATED' }, 'ascii'), true);
  });
  it('excludes exact titles only', () => {
    assert.equal(matchesFilter(event, { excludeTitles: ['Workspace Created'] }), false);
    assert.equal(matchesFilter(event, { excludeTitles: ['Workspace'] }), true);
  });
  it('keeps only the listed workspaces, never an event of none', () => {
    assert.equal(matchesFilter(event, { workspaces: ['likvid'] }), true);
    assert.equal(matchesFilter(event, { workspaces: ['other'] }), false);
    assert.equal(matchesFilter(event, { workspaces: [] }), false);
    const { workspace: _, ...global } = event;
    assert.equal(matchesFilter(global, { workspaces: ['likvid'] }), false);
    assert.equal(matchesFilter(global, {}), true);
  });
  it('matches author and event type exactly', () => {
    assert.equal(matchesFilter(event, { authorType: 'ApiKey', authorIdentifier: 'k1', eventType: 'Created' }), true);
    assert.equal(matchesFilter(event, { authorType: 'ApiUser' }), false);
    assert.equal(matchesFilter(event, { authorIdentifier: 'K1' }), false);
    assert.equal(matchesFilter(event, { eventType: 'Changed' }), false);
  });
});
