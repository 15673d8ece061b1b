import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CompiledQuery, Kysely, sql } from 'kysely';
import pg from 'pg';
import { createPostgresDatabase, skipUnless } from '../../test/support/databases.js';
import { pipelinedPostgresDialect, unanswered } from './pg-pipeline.js';

interface Tables {
  pipeline_rows: { id: number; note: string };
}

describe('pipelined PostgreSQL transactions', { skip: skipUnless('postgres') }, () => {
  let postgres: { url: string; drop(): Promise<void> };
  let db: Kysely<Tables>;
  /** Writes the pool's clients made to their sockets (each a system call, a round trip's first half). */
  let writes = 0;

  before(async () => {
    postgres = await createPostgresDatabase();
    const pool = new pg.Pool({ connectionString: postgres.url, max: 1, pipeline: true });
    pool.on('connect', (client) => {
      type Write = (...args: unknown[]) => unknown;
      const socket = client.connection.stream as unknown as Record<'_write' | '_writev', Write>;
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args) => {
          writes += 1;
          return original(...args);
        };
      }
    });
    db = new Kysely<Tables>({ dialect: pipelinedPostgresDialect(pool) });
    await sql`create table pipeline_rows (id integer primary key, note text not null)`.execute(db);
  });

  after(async () => {
    await db?.destroy();
    await postgres?.drop();
  });

  beforeEach(async () => {
    await sql`delete from pipeline_rows`.execute(db);
    writes = 0;
  });

  const insert = (id: number, note = 'n') => CompiledQuery.raw('insert into pipeline_rows (id, note) values ($1, $2)', [id, note]);
  const stored = async () => (await db.selectFrom('pipeline_rows').select('id').orderBy('id').execute()).map((row) => row.id);

  it("sends a transaction's BEGIN with its first statement and an unanswered statement with its COMMIT", async () => {
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(insert(1));
      const answer = await trx.executeQuery(unanswered(insert(2)));
      assert.deepEqual(answer.rows, []);
    });
    assert.equal(writes, 2);
    assert.deepEqual(await stored(), [1, 2]);
  });

  it('sends nothing for a transaction that ran no statement', async () => {
    await db.transaction().execute(async () => undefined);
    await assert.rejects(
      db.transaction().execute(async () => {
        throw new Error('before any statement');
      }),
      /before any statement/,
    );
    assert.equal(writes, 0);
  });

  it('fails the commit with the error of an unanswered statement, and stores nothing of the transaction', async () => {
    await db.executeQuery(insert(7));
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(1));
        await trx.executeQuery(unanswered(insert(7)));
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.deepEqual(await stored(), [7]);
  });

  it("fails the next statement with the unanswered one's error, not with the transaction's abort", async () => {
    await db.executeQuery(insert(7));
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(unanswered(insert(7)));
        await trx.executeQuery(insert(8));
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.deepEqual(await stored(), [7]);
  });

  it('refuses to acknowledge a commit that PostgreSQL answered with a rollback', async () => {
    await db.executeQuery(insert(7));
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(1));
        // A failure swallowed by the work ends the transaction on the server all the same.
        await trx.executeQuery(insert(7)).catch(() => undefined);
      }),
      /rolled back/,
    );
    assert.deepEqual(await stored(), [7]);
  });

  it('runs an unanswered statement at once outside a transaction', async () => {
    await db.executeQuery(unanswered(insert(3)));
    assert.deepEqual(await stored(), [3]);
  });

  it('rolls back what was sent when the work fails after its first statement', async () => {
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(1));
        await trx.executeQuery(unanswered(insert(2)));
        throw new Error('the work failed');
      }),
      /the work failed/,
    );
    assert.deepEqual(await stored(), []);
    // The connection is usable afterwards, outside any transaction.
    await db.transaction().execute(async (trx) => trx.executeQuery(insert(4)));
    assert.deepEqual(await stored(), [4]);
  });
});
