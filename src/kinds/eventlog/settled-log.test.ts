import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { createPostgresDatabase, DIALECTS, skipUnless } from '../../../test/support/databases.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../store/database.js';
import { inTransaction } from '../../store/transaction.js';
import type { EventRecord } from './model.js';
import { SettledLog } from './settled-log.js';
import { EventStore } from './store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const system = { authorType: 'System', identifier: 'system' } as const;
const titles = (records: readonly EventRecord[]) => records.map((record) => record.title);

/** The log as far as it is settled, on both real databases: writers never wait for each other's numbers. */
for (const dialect of DIALECTS) {
  describe(`SettledLog [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    let log: SettledLog;
    let store: EventStore;
    /** Appends one event in a transaction of its own and commits. */
    const append = (title: string) =>
      inTransaction(database.db, (trx) =>
        new EventStore(trx).append([{ title, eventType: 'Created', description: title, content: {} }], system),
      );
    /** Appends one event in a transaction left open: `end(commit)` finishes it. */
    const appendOpen = async (title: string) => {
      let finish!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (finish = resolve));
      let appended!: () => void;
      const holding = new Promise<void>((resolve) => (appended = resolve));
      const transaction = database.db
        .transaction()
        .execute(async (trx) => {
          await new EventStore(trx).append([{ title, eventType: 'Created', description: title, content: {} }], system);
          appended();
          if (!(await decided)) throw new Error('rolled back on purpose');
        })
        .catch((error: Error) => assert.equal(error.message, 'rolled back on purpose'));
      await holding;
      return async (commit: boolean) => {
        finish(commit);
        await transaction;
      };
    };

    before(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-settled-log-'));
      const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      database = await openDatabase(
        loadConfig({
          BLOCKYARD_DATA_DIR: dir,
          ...(postgres
            ? { BLOCKYARD_DATABASE_URL: postgres.url, BLOCKYARD_MASTER_KEY: 'q83vEjRWeJq8A2kX8iZy4K2gQ5cQn7jvY0X3bS1tN8o=' }
            : {}),
        }),
        pino({ level: 'silent' }),
      );
      store = new EventStore(database.db);
      log = new SettledLog(store);
      cleanup = async () => {
        await database.close();
        await postgres?.drop();
        rmSync(dir, { recursive: true, force: true });
      };
    });

    after(() => cleanup());

    it('reads what committed in order, and starts new readers after it', async () => {
      const start = await log.head();
      await append('one');
      await append('two');
      assert.deepEqual(titles(await log.after(start, 10)), ['one', 'two']);
      assert.equal(await log.head(), await store.lastSeq());
    });

    if (dialect === 'sqlite') return; // one writer: the next write waits for the open one, no gap can arise

    it('gives a transaction a run of consecutive numbers without holding back the other appenders', async () => {
      const start = await log.head();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let firstAppended!: () => void;
      const appendedFirst = new Promise<void>((resolve) => (firstAppended = resolve));
      const unit = database.db.transaction().execute(async (trx) => {
        const events = new EventStore(trx);
        const firstSeq = await events.reserveRun(2);
        assert.ok(firstSeq !== undefined);
        const draft = (title: string) => [{ title, eventType: 'Created' as const, description: title, content: {} }];
        const [first] = await events.append(draft('run 1'), system, undefined, firstSeq);
        firstAppended();
        await released;
        const [second] = await events.append(draft('run 2'), system, undefined, firstSeq + 1);
        return [first!.seq, second!.seq] as const;
      });
      await appendedFirst;
      // Before migration 0027 the unit held the appenders' lock to its commit: this write waited here.
      const beside = await Promise.race([append('beside'), sleep(3000).then(() => undefined)]);
      assert.ok(beside, 'an append beside the unit waited for its commit');
      assert.deepEqual(await log.after(start, 10), [], 'delivered past numbers still in flight');
      release();
      const [first, second] = await unit;
      assert.equal(second, first + 1);
      assert.ok(beside[0]!.seq > second, 'the write beside took a number inside the unit’s run');
      assert.deepEqual(titles(await log.after(start, 10)), ['run 1', 'run 2', 'beside']);
    });

    it("releases the appenders' lock when a reservation fails (a session-level lock would outlive the transaction)", async () => {
      await assert.rejects(
        inTransaction(database.db, (trx) => new EventStore(trx).reserveRun(-1e18)),
        /out of bounds/,
      );
      // pg_locks shows the whole server's locks: only this database's are this test's.
      const { rows } = await sql<{ mode: string }>`select mode from pg_locks where locktype = 'advisory' and granted
        and database = (select oid from pg_database where datname = current_database())`.execute(database.db);
      assert.deepEqual(rows, [], 'an advisory lock is still held');
      assert.ok(await Promise.race([append('after'), sleep(3000).then(() => undefined)]), 'an append waited after the failed reservation');
    });

    it('lets a write commit while another holds an earlier number, and delivers neither before the earlier one settles', async () => {
      const start = await log.head();
      const end = await appendOpen('first');
      // Before migration 0018 this write waited here on the numbers' row until the first one ended.
      const committed = await Promise.race([append('second').then(() => true), sleep(3000).then(() => false)]);
      assert.ok(committed, 'a write waited for another transaction holding event numbers');
      assert.deepEqual(titles(await store.after(start, 10)), ['second'], 'the second is committed, the first is not');
      assert.deepEqual(await log.after(start, 10), [], 'delivered past a number still in flight');
      await end(true);
      assert.deepEqual(titles(await log.after(start, 10)), ['first', 'second']);
    });

    it('skips a number whose transaction rolled back, once it has ended', async () => {
      const start = await log.head();
      const end = await appendOpen('rolled back');
      await append('kept');
      assert.deepEqual(await log.after(start, 10), []);
      await end(false);
      assert.deepEqual(titles(await log.after(start, 10)), ['kept']);
    });

    it('starts a new reader only once the transactions holding numbers below the newest have ended', async () => {
      const before = await log.head();
      const end = await appendOpen('late');
      const early = await append('early');
      let head: number | undefined;
      const heading = log.head().then((value) => (head = value));
      await sleep(200);
      assert.equal(head, undefined, 'a new reader started while a number below the newest was in flight');
      await end(true);
      await heading;
      assert.ok(head! >= early[0]!.seq);
      // Everything committed once the head was given is at or below it: a reader starting there misses nothing.
      assert.deepEqual(titles(await log.after(before, 10)), ['late', 'early']);
      assert.deepEqual(await log.after(head!, 10), []);
    });
  });
}
