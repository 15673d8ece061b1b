import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely } from 'kysely';
import { groupCommitDialect, type GroupCommitOptions } from './sqlite-group-commit.js';
import { WalSync } from './sqlite-wal-sync.js';

interface Db {
  items: { id: string; note: string | null };
}

/** A real SQLite file with an `items` table, the group commit over it, and a look from outside. */
function itemsDatabase(synchronous: 'FULL' | 'NORMAL', options: GroupCommitOptions = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-group-commit-'));
  const file = path.join(dir, 'test.db');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma(`synchronous = ${synchronous}`);
  writer.exec('create table items (id text primary key, note text)');
  const db = new Kysely<Db>({ dialect: groupCommitDialect(writer, new SQLite(file, { readonly: true }), options) });
  return {
    db,
    /** A connection of its own, as another process would read the file. */
    committedIds: () => {
      const other = new SQLite(file, { readonly: true });
      try {
        return (other.prepare('select id from items order by id').all() as { id: string }[]).map((row) => row.id);
      } finally {
        other.close();
      }
    },
    insert: (id: string) => db.transaction().execute((trx) => trx.insertInto('items').values({ id, note: null }).execute()),
    async close(): Promise<void> {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Real SQLite files: what each commit promises is checked through a separate connection. */
describe('SQLite group commit', () => {
  const { db, committedIds, insert, close } = itemsDatabase('FULL');
  const ids = async () => (await db.selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);
  after(close);

  it('acknowledges concurrent transactions only once they are on disk', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        insert(`a${String(i).padStart(2, '0')}`).then(() => assert.ok(committedIds().includes(`a${String(i).padStart(2, '0')}`))),
      ),
    );
    assert.equal(committedIds().filter((id) => id.startsWith('a')).length, 20);
  });

  it('shows no one what a group wrote before it commits', async () => {
    const pending = insert('b1');
    for (let i = 0; i < 20; i++) await null; // the transaction has run; its group commits on the next turn of the loop
    assert.ok(!(await ids()).includes('b1'));
    await pending;
    assert.ok((await ids()).includes('b1'));
  });

  it('rolls back only the failing transaction of a group', async () => {
    const results = await Promise.allSettled([
      insert('c1'),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 'c2', note: null }).execute();
        throw new Error('refused');
      }),
      insert('c1'), // primary key taken within the same group
      insert('c3'),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      committedIds().filter((id) => id.startsWith('c')),
      ['c1', 'c3'],
    );
  });

  it('commits a write outside a transaction before it returns', async () => {
    await db.insertInto('items').values({ id: 'd1', note: 'alone' }).execute();
    assert.ok(committedIds().includes('d1'));
    const updated = await db.updateTable('items').set({ note: 'changed' }).where('id', '=', 'd1').executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 1n);
    await assert.rejects(db.insertInto('items').values({ id: 'd1', note: null }).execute(), /UNIQUE/);
    assert.deepEqual(await db.selectFrom('items').select('note').where('id', '=', 'd1').execute(), [{ note: 'changed' }]);
  });
});

/** With the WAL's fsync off the event loop (synchronous=NORMAL and a WalSync), as the server runs. */
describe('SQLite group commit with the WAL synced after the commit', () => {
  /** Each sync of the WAL: what another connection saw when it began, and how to end it. */
  const syncs: { seen: string[]; finish(): void; fail(error: Error): void }[] = [];
  const walSync = new WalSync({
    sync: () => new Promise((finish, fail) => syncs.push({ seen: committedIds(), finish, fail })),
    close: () => undefined,
  });
  const { committedIds, insert, close } = itemsDatabase('NORMAL', { walSync });
  const turns = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  after(async () => {
    const closed = close();
    for (const sync of syncs) sync.finish();
    await closed;
  });

  it('acknowledges a group only once the WAL sync begun after its commit has finished', async () => {
    let acknowledged = false;
    const pending = insert('e1').then(() => (acknowledged = true));
    await turns();
    assert.equal(syncs.length, 1, 'the commit asked for a sync');
    assert.deepEqual(syncs[0]!.seen, ['e1'], 'the sync began after the commit');
    assert.equal(acknowledged, false, 'not acknowledged before the sync');
    // Meanwhile the event loop serves: another transaction commits and waits for a sync of its own.
    let secondAcknowledged = false;
    const second = insert('e2').then(() => (secondAcknowledged = true));
    await turns();
    assert.deepEqual(committedIds(), ['e1', 'e2']);
    syncs[0]!.finish();
    await pending;
    await turns();
    assert.equal(secondAcknowledged, false, 'the first sync may have begun before the second commit');
    assert.equal(syncs.length, 2);
    syncs[1]!.finish();
    await second;
  });

  it('fails the transactions of a group whose sync failed', async () => {
    const pending = insert('f1');
    await turns();
    syncs.at(-1)!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await assert.rejects(pending, /EIO/);
  });
});

/**
 * Whatever a write's fate, the group it joined ends: refused and accepted writes run concurrently,
 * and once they settled another process can take the write lock at once (busy_timeout 0: a lock left
 * behind is an error, not a wait), every write acknowledged is on disk and no refused one is.
 */
describe('SQLite group commit leaves no lock behind', () => {
  /** Each write's id is inserted into `items`; a reference in `refs` to no item fails the group's commit. */
  interface RefsDb extends Db {
    refs: { id: string; item: string };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-group-commit-'));
  const file = path.join(dir, 'test.db');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  writer.exec(`create table items (id text primary key, note text);
    create table refs (id text primary key, item text not null references items (id) deferrable initially deferred);
    insert into items values ('taken', null)`);
  const db = new Kysely<RefsDb>({ dialect: groupCommitDialect(writer, new SQLite(file, { readonly: true })) });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The writes: refused ones throw in their transaction, fail a statement, or fail their group's commit. */
  const KINDS = ['transaction', 'alone', 'throws', 'failingStatement', 'failingAlone', 'failingCommit', 'failingCommitAlone'] as const;
  type Kind = (typeof KINDS)[number];
  const accepted = (kind: Kind) => kind === 'transaction' || kind === 'alone';
  const failsCommit = (kind: Kind) => kind === 'failingCommit' || kind === 'failingCommitAlone';
  const turns = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  async function write(kind: Kind, id: string, pause: number): Promise<void> {
    const item = { id, note: null };
    const dangling = { id, item: `${id}-nowhere` };
    switch (kind) {
      case 'alone':
        return void (await db.insertInto('items').values(item).execute());
      case 'failingAlone': // the second row's key is taken: the statement stores neither
        return void (await db
          .insertInto('items')
          .values([item, { id: 'taken', note: null }])
          .execute());
      case 'failingCommitAlone':
        return void (await db.insertInto('refs').values(dangling).execute());
      default:
        return db.transaction().execute(async (trx) => {
          await trx.insertInto('items').values(item).execute();
          await turns(pause); // holding the writer while others queue
          if (kind === 'throws') throw new Error('refused');
          if (kind === 'failingStatement') await trx.insertInto('items').values({ id: 'taken', note: null }).execute();
          if (kind === 'failingCommit') await trx.insertInto('refs').values(dangling).execute();
        });
    }
  }

  /** Another process's connection: takes the write lock at once or fails. */
  function lockIsFree(): boolean {
    const other = new SQLite(file, { timeout: 0 });
    try {
      other.exec('begin immediate');
      other.exec('rollback');
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw error;
    } finally {
      other.close();
    }
  }

  let run = 0;
  it('ends every group, whichever way its writes end', async () => {
    const writes = fc.array(fc.record({ kind: fc.constantFrom(...KINDS), delay: fc.nat(3), pause: fc.nat(2) }), {
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(writes, async (planned) => {
        const prefix = `r${++run}-`;
        const results = await Promise.allSettled(
          planned.map(async ({ kind, delay, pause }, i) => {
            await turns(delay);
            return write(kind, `${prefix}${i}`, pause);
          }),
        );
        await turns(2); // the last group's end, scheduled when its last write left
        assert.ok(lockIsFree(), 'a connection of its own takes the write lock at once');
        const stored = new Set(
          (writer.prepare('select id from items where id like ?').all(`${prefix}%`) as { id: string }[]).map((row) => row.id),
        );
        assert.equal((writer.prepare('select count(*) as n from refs').get() as { n: number }).n, 0);
        const anyCommitFails = planned.some(({ kind }) => failsCommit(kind));
        planned.forEach(({ kind }, i) => {
          const { status } = results[i]!;
          const id = `${prefix}${i}`;
          if (!accepted(kind)) assert.equal(status, 'rejected', `${kind} ${id} is refused`);
          // A write fails with its group's commit: it may be any accepted write of this run.
          else if (!anyCommitFails) assert.equal(status, 'fulfilled', `${kind} ${id} is accepted`);
          assert.equal(stored.has(id), status === 'fulfilled', `${kind} ${id}: stored exactly when acknowledged`);
        });
      }),
      { numRuns: 60 },
    );
  });
});
