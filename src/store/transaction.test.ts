import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { createPostgresDatabase, DIALECTS, skipUnless } from '../../test/support/databases.js';
import { pipelinedPostgresDialect, unanswered } from './pg-pipeline.js';
import { groupCommitDialect } from './sqlite-group-commit.js';
import { afterCommit, inTransaction, keepUntilCommit, UnitOfWork, unitOfWorkDialect, type Db } from './transaction.js';

/** The unit of work on both real databases, through the same driver wrapper the server uses. */
for (const dialect of DIALECTS) {
  describe(`unit of work [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    let db: Db;
    let units: UnitOfWork;
    let cleanup: () => Promise<void>;
    let postgresUrl = '';
    // Only this table exists; the tests never touch the real schema's tables.
    const items = () => db as unknown as Kysely<{ items: { id: string } }>;
    const ids = async () => (await items().selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);
    /** As a service writes: its own transaction on the database it holds. */
    const insert = (id: string) =>
      inTransaction(db, (trx) => (trx as unknown as Kysely<{ items: { id: string } }>).insertInto('items').values({ id }).execute());

    before(async () => {
      let inner: Dialect;
      if (dialect === 'sqlite') {
        const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-unit-of-work-'));
        const file = path.join(dir, 'test.db');
        const writer = new SQLite(file);
        writer.pragma('journal_mode = WAL');
        inner = groupCommitDialect(writer, new SQLite(file, { readonly: true }));
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      } else {
        const database = await createPostgresDatabase();
        postgresUrl = database.url;
        const pool = new pg.Pool({ connectionString: database.url, max: 3, pipeline: true });
        pool.on('error', () => undefined);
        inner = pipelinedPostgresDialect(pool);
        cleanup = database.drop;
      }
      db = new Kysely({ dialect: unitOfWorkDialect(inner) });
      await sql`create table items (id text primary key)`.execute(db);
      units = new UnitOfWork(db);
    });

    after(async () => {
      await db.destroy();
      await cleanup();
    });

    it('gathers the transactions of its flow into one: they read its earlier writes, no one else does before the commit', async () => {
      // Another flow (another request), started outside the unit, reads while the unit is open.
      let release!: () => void;
      const opened = new Promise<void>((resolve) => (release = resolve));
      const readBeside = (async () => {
        await opened;
        return ids();
      })();
      const order: string[] = [];
      await units.run(async () => {
        await insert('a1');
        await insert('a2');
        assert.deepEqual(
          (await ids()).filter((id) => id.startsWith('a')),
          ['a1', 'a2'],
        );
        afterCommit(() => order.push('after the commit'));
        release();
        assert.deepEqual(
          (await readBeside).filter((id) => id.startsWith('a')),
          [],
        );
        order.push('work done');
      });
      assert.deepEqual(order, ['work done', 'after the commit']);
      assert.deepEqual(
        (await ids()).filter((id) => id.startsWith('a')),
        ['a1', 'a2'],
      );
    });

    it('undoes a failing savepoint alone, and everything when the unit fails', async () => {
      await units.run(async () => {
        await insert('b1');
        await assert.rejects(
          units.savepoint(async () => {
            await insert('b2');
            await insert('b1'); // a unique violation, inside the savepoint
          }),
        );
        await units.savepoint(() => insert('b3'));
        // The savepoint's last statement unanswered (it goes with the release): its failure still
        // undoes the savepoint alone.
        await assert.rejects(
          units.savepoint(async () => {
            await insert('b4');
            await inTransaction(db, (trx) => trx.executeQuery(unanswered(CompiledQuery.raw("insert into items (id) values ('b1')"))));
          }),
        );
      });
      assert.deepEqual(
        (await ids()).filter((id) => id.startsWith('b')),
        ['b1', 'b3'],
      );

      let hooks = 0;
      await assert.rejects(
        units.run(async () => {
          await insert('c1');
          afterCommit(() => hooks++);
          throw new Error('the unit fails');
        }),
        /the unit fails/,
      );
      assert.equal(hooks, 0);
      assert.deepEqual(
        (await ids()).filter((id) => id.startsWith('c')),
        [],
      );
    });

    it('keeps what must be written last until just before its commit, without what a rolled-back savepoint kept', async () => {
      const flushed: string[][] = [];
      const flush = async (trx: Db, kept: string[]) => {
        flushed.push(kept);
        await (trx as unknown as Kysely<{ items: { id: string } }>)
          .insertInto('items')
          .values(kept.map((id) => ({ id })))
          .execute();
      };
      await units.run(async () => {
        assert.ok(keepUntilCommit(flush, 'e1'));
        await assert.rejects(
          units.savepoint(async () => {
            keepUntilCommit(flush, 'e2');
            throw new Error('undone');
          }),
        );
        await units.savepoint(async () => void keepUntilCommit(flush, 'e3'));
        assert.deepEqual(flushed, []);
      });
      assert.deepEqual(flushed, [['e1', 'e3']]);
      assert.deepEqual(
        (await ids()).filter((id) => id.startsWith('e')),
        ['e1', 'e3'],
      );
      assert.equal(keepUntilCommit(flush, 'e4'), false, 'outside a unit the caller writes at once');
    });

    it('is left behind once it ended: the flow queries on its own again', async () => {
      await units.run(() => insert('d1'));
      await insert('d2');
      let ran = false;
      afterCommit(() => (ran = true));
      assert.ok(ran, 'outside a unit, at once');
      assert.deepEqual(
        (await ids()).filter((id) => id.startsWith('d')),
        ['d1', 'd2'],
      );
      await assert.rejects(
        units.savepoint(() => insert('d3')),
        /outside UnitOfWork.run/,
      );
    });

    it('runs again from the start when PostgreSQL breaks a deadlock by failing it', { skip: dialect !== 'postgres' }, async () => {
      await items()
        .insertInto('items')
        .values([{ id: 'x' }, { id: 'y' }])
        .execute();
      const lock = (id: string) => sql`update items set id = id where id = ${id}`;
      const other = new pg.Client({ connectionString: postgresUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(`update items set id = id where id = 'y'`);
        let attempts = 0;
        let otherDone: Promise<unknown> = Promise.resolve();
        await units.run(async () => {
          attempts += 1;
          await lock('x').execute(db);
          if (attempts > 1) return;
          // The unit waits for y first; the other transaction then waits for x: the unit has waited
          // longer, so its deadlock check (after deadlock_timeout) finds the cycle and fails it.
          setTimeout(() => (otherDone = other.query(`update items set id = id where id = 'x'`).then(() => other.query('commit'))), 100);
          await lock('y').execute(db);
        });
        await otherDone;
        assert.equal(attempts, 2);
      } finally {
        await other.end();
      }
    });
  });
}
