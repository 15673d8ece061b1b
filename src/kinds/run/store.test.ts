import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachServiceDatabase } from '../../../test/support/service-database.js';
import type { Database } from '../../store/database.js';
import type { Run, RunSnapshot, StepRow } from '../block/run.js';
import { RunStore } from './store.js';

const CREATED = '2026-11-30T10:00:00.000Z';

const run = (uuid: string, status: Run['status'], updatedOn: string): Run => ({
  uuid,
  blockUuid: uuid,
  runNumber: 1,
  behavior: 'APPLY',
  status,
  runnerUuid: '00000000-0000-4000-8000-00000000000f',
  definitionUuid: '00000000-0000-4000-8000-00000000000d',
  definitionOwner: 'platform',
  workspace: 'app',
  createdOn: CREATED,
  updatedOn,
  snapshot: {} as RunSnapshot,
  outputs: {},
  logBytes: 0,
});

const step = (userMessage: string): StepRow => ({
  sourceId: 'ci',
  stepId: 'apply',
  position: 0,
  displayName: 'Apply',
  status: 'IN_PROGRESS',
  userMessage,
  outputs: { url: { value: `https://example.com/${userMessage}`, type: 'STRING', isSensitive: false } },
});

/** The columns of `runs` that some index holds. */
async function indexedColumns(database: Database): Promise<Set<string>> {
  const { rows } =
    database.dialect === 'sqlite'
      ? await sql<{
          column: string;
        }>`select info.name as "column" from pragma_index_list('runs') list, pragma_index_info(list.name) info`.execute(database.db)
      : await sql<{ column: string }>`select attribute.attname as "column" from pg_index ix
          join pg_attribute attribute on attribute.attrelid = ix.indrelid and attribute.attnum = any(ix.indkey)
          where ix.indrelid = 'runs'::regclass`.execute(database.db);
  return new Set(rows.map((row) => row.column));
}

describeEachServiceDatabase('the runs table', (ctx) => {
  // Runners report progress many times per run: each report written into an index was an index
  // entry rewritten on SQLite and, on PostgreSQL, a new entry in every index of the table.
  it('indexes no column that a status report keeping its status writes', async () => {
    const indexed = await indexedColumns(ctx.database);
    assert.ok(indexed.has('status') && indexed.has('uuid'), `the index listing works: ${[...indexed].join(', ')}`);
    for (const written of ['outputs', 'updated_on', 'log_bytes'])
      assert.ok(!indexed.has(written), `an index of runs holds ${written}, which every status report writes`);
  });

  it('finds the runs going on that have been silent since a moment, and no other', async () => {
    const store = new RunStore(ctx.database.db, ctx.database.dialect);
    const silent = run('00000000-0000-4000-8000-0000000000a1', 'IN_PROGRESS', '2026-11-30T10:00:01.000Z');
    const reporting = run('00000000-0000-4000-8000-0000000000a2', 'IN_PROGRESS', '2026-11-30T10:09:00.000Z');
    const waiting = run('00000000-0000-4000-8000-0000000000a3', 'PENDING', '2026-11-30T10:00:01.000Z');
    const ended = run('00000000-0000-4000-8000-0000000000a4', 'FAILED', '2026-11-30T10:00:01.000Z');
    const young = {
      ...run('00000000-0000-4000-8000-0000000000a5', 'IN_PROGRESS', '2026-11-30T10:06:00.000Z'),
      createdOn: '2026-11-30T10:06:00.000Z',
    };
    for (const each of [silent, reporting, waiting, ended, young]) await store.insert(each);
    assert.deepEqual(await store.silentSince('2026-11-30T10:05:00.000Z'), [silent.uuid]);
    assert.deepEqual((await store.silentSince('2026-11-30T10:10:00.000Z')).sort(), [silent.uuid, reporting.uuid, young.uuid]);
  });

  // Heap-only: the new row version on the same page, reached through the old one's index entries.
  if (ctx.dialect === 'postgres')
    it('a status report that keeps its run status is a heap-only update, writing no index', async () => {
      const reported = run('00000000-0000-4000-8000-0000000000c1', 'IN_PROGRESS', CREATED);
      const store = new RunStore(ctx.database.db, ctx.database.dialect);
      await store.insert(reported);
      await store.upsertSource(reported.uuid, 'ci', { id: 'ci' }, CREATED);
      const updates = await ctx.database.db.transaction().execute(async (trx) => {
        const inTransaction = new RunStore(trx, ctx.database.dialect);
        for (const [index, at] of ['2026-11-30T10:01:00.000Z', '2026-11-30T10:02:00.000Z', '2026-11-30T10:03:00.000Z'].entries())
          await inTransaction.report({ ...reported, updatedOn: at, logBytes: 10 * (index + 1), outputs: step(at).outputs }, false, [
            step(at),
          ]);
        // This transaction's own counts, so far: exact, unlike the statistics other sessions see later.
        const { rows } = await sql<{ all: string; hot: string }>`select pg_stat_get_xact_tuples_updated('runs'::regclass) as "all",
        pg_stat_get_xact_tuples_hot_updated('runs'::regclass) as hot`.execute(trx);
        return rows[0]!;
      });
      assert.deepEqual({ all: Number(updates.all), hot: Number(updates.hot) }, { all: 3, hot: 3 });
    });
});
