import { CompiledQuery, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import type { DialectName } from '../../store/database.js';
import { fetchPage } from '../../store/paged.js';
import { unanswered } from '../../store/pg-pipeline.js';
import type { RunStepTable, RunTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { BlockRuns, Run, RunBehavior, RunOutput, RunSnapshot, RunStatus } from '../block/run.js';
import type { StepRow } from '../block/run.js';

const toModel = (row: Selectable<RunTable>): Run => ({
  uuid: row.uuid,
  blockUuid: row.block_uuid,
  runNumber: Number(row.run_number),
  behavior: row.behavior as RunBehavior,
  status: row.status as RunStatus,
  runnerUuid: row.runner_uuid,
  definitionUuid: row.definition_uuid,
  definitionOwner: row.definition_owner,
  workspace: row.workspace,
  ...(row.node_id !== null ? { nodeId: row.node_id } : {}),
  createdOn: row.created_on,
  ...(row.claimed_on !== null ? { claimedOn: row.claimed_on } : {}),
  ...(row.ended_on !== null ? { endedOn: row.ended_on } : {}),
  updatedOn: row.updated_on,
  snapshot: JSON.parse(row.document) as RunSnapshot,
  outputs: JSON.parse(row.outputs) as Record<string, RunOutput>,
  logBytes: Number(row.log_bytes),
});

const toStep = (row: Selectable<RunStepTable>): StepRow => ({
  sourceId: row.source_id,
  stepId: row.step_id,
  position: Number(row.position),
  displayName: row.display_name,
  status: row.status,
  ...(row.user_message !== null ? { userMessage: row.user_message } : {}),
  ...(row.system_message !== null ? { systemMessage: row.system_message } : {}),
  outputs: JSON.parse(row.outputs) as Record<string, RunOutput>,
  updatedOn: row.updated_on,
});

/** `findForReport` on PostgreSQL: the run's row with its source's steps as one JSON array (node-pg parses it). */
const FIND_FOR_REPORT_SQL = `select runs.*, (select coalesce(json_agg(s order by s.position), '[]'::json) from run_steps s
  where s.run_uuid = $1 and s.source_id = $2) as report_steps from runs where uuid = $1 for update`;

/**
 * Steps upserted on PostgreSQL in one statement whatever their number, each column an array:
 * $1 the run, $2 the time, $3–$10 the steps' columns.
 */
const PUT_STEPS_SQL = `insert into run_steps (run_uuid, source_id, step_id, position, display_name, status, user_message, system_message, outputs, updated_on)
  select $1, s.source_id, s.step_id, s.position, s.display_name, s.status, s.user_message, s.system_message, s.outputs, $2
  from unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
    as s(source_id, step_id, position, display_name, status, user_message, system_message, outputs)
  on conflict (run_uuid, source_id, step_id) do update set position = excluded.position, display_name = excluded.display_name,
    status = excluded.status, user_message = excluded.user_message, system_message = excluded.system_message,
    outputs = excluded.outputs, updated_on = excluded.updated_on`;

/** A status report on PostgreSQL: its steps' upsert runs as part of the run's update (a data-modifying `with`). */
const REPORT_SQL = `with put as (${PUT_STEPS_SQL}) update runs set status = $11, outputs = $12, updated_on = $2, log_bytes = $13 where uuid = $1`;

/** `PUT_STEPS_SQL`'s parameters. */
const stepColumns = (runUuid: string, steps: readonly StepRow[], now: string) => [
  runUuid,
  now,
  steps.map((step) => step.sourceId),
  steps.map((step) => step.stepId),
  steps.map((step) => step.position),
  steps.map((step) => step.displayName),
  steps.map((step) => step.status),
  steps.map((step) => step.userMessage ?? null),
  steps.map((step) => step.systemMessage ?? null),
  steps.map((step) => JSON.stringify(step.outputs)),
];

/**
 * The `runs`, `run_sources` and `run_steps` tables: the block lifecycle's runs, and what runners
 * report. The statements of status reports and block creates are compiled once (`CompiledQueries`):
 * a report is a cheap request, and building its queries with Kysely cost as much as running them.
 */
export class RunStore implements BlockRuns {
  private readonly queries: CompiledQueries;

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {
    this.queries = new CompiledQueries(db, 'runs');
  }

  async insert(run: Run): Promise<void> {
    await this.queries.insertRows('insert', 'runs', [
      {
        uuid: run.uuid,
        block_uuid: run.blockUuid,
        run_number: run.runNumber,
        behavior: run.behavior,
        status: run.status,
        runner_uuid: run.runnerUuid,
        definition_uuid: run.definitionUuid,
        definition_owner: run.definitionOwner,
        workspace: run.workspace,
        node_id: null,
        document: JSON.stringify(run.snapshot),
        outputs: JSON.stringify(run.outputs),
        created_on: run.createdOn,
        claimed_on: null,
        ended_on: null,
        updated_on: run.updatedOn,
        log_bytes: run.logBytes,
      },
    ]);
  }

  async find(uuid: string): Promise<Run | undefined> {
    const [row] = await this.queries.execute('find', [uuid], (id) => this.db.selectFrom('runs').selectAll().where('uuid', '=', id));
    return row ? toModel(row) : undefined;
  }

  /** When the run ended; undefined while it goes on or when there is no such run. */
  async endedOn(uuid: string): Promise<string | undefined> {
    const [row] = await this.queries.execute('endedOn', [uuid], (id) =>
      this.db.selectFrom('runs').select('ended_on').where('uuid', '=', id),
    );
    return row?.ended_on ?? undefined;
  }

  /** The run as it is now, locked until the transaction ends (PostgreSQL; SQLite transactions are serial). */
  async findForUpdate(uuid: string): Promise<Run | undefined> {
    const [row] = await this.queries.execute('findForUpdate', [uuid], (id) => {
      const query = this.db.selectFrom('runs').selectAll().where('uuid', '=', id);
      return this.dialect === 'postgres' ? query.forUpdate() : query;
    });
    return row ? toModel(row) : undefined;
  }

  /**
   * What a status report starts from: the run, locked until the transaction ends, and the steps of
   * one of its sources in order. One statement on PostgreSQL, where a report's cost is mostly its
   * round trips (bench/pg-round-trip.ts); SQLite's two reads are calls in the process.
   */
  async findForReport(uuid: string, sourceId: string): Promise<{ run: Run; steps: StepRow[] } | undefined> {
    if (this.dialect !== 'postgres') {
      const run = await this.findForUpdate(uuid);
      return run && { run, steps: await this.steps(uuid, sourceId) };
    }
    const { rows } = await this.db.executeQuery<Selectable<RunTable> & { report_steps: Selectable<RunStepTable>[] }>(
      CompiledQuery.raw(FIND_FOR_REPORT_SQL, [uuid, sourceId]),
    );
    const [row] = rows;
    return row && { run: toModel(row), steps: row.report_steps.map(toStep) };
  }

  /** A status report arrived: the run is not silent (the timeout counts from here). */
  async touch(uuid: string, at: string): Promise<void> {
    await this.db.updateTable('runs').set({ updated_on: at }).where('uuid', '=', uuid).execute();
  }

  async endIfActive(uuid: string, status: 'ABORTED' | 'FAILED', at: string): Promise<void> {
    await this.db
      .updateTable('runs')
      .set({ status, ended_on: at, updated_on: at })
      .where('uuid', '=', uuid)
      .where('status', 'in', ['PENDING', 'IN_PROGRESS'])
      .execute();
  }

  async nextRunNumber(blockUuid: string): Promise<number> {
    const [row] = await this.queries.execute('nextRunNumber', [blockUuid], (block) =>
      this.db
        .selectFrom('runs')
        .select((eb) => eb.fn.max('run_number').as('max'))
        .where('block_uuid', '=', block),
    );
    return Number(row?.max ?? 0) + 1;
  }

  async update(run: Run): Promise<void> {
    await this.db
      .updateTable('runs')
      .set({
        status: run.status,
        node_id: run.nodeId ?? null,
        outputs: JSON.stringify(run.outputs),
        claimed_on: run.claimedOn ?? null,
        ended_on: run.endedOn ?? null,
        updated_on: run.updatedOn,
        log_bytes: run.logBytes,
      })
      .where('uuid', '=', run.uuid)
      .execute();
  }

  /**
   * A status report that leaves the run going: its steps (changed at the run's `updatedOn`), and the
   * run's outputs, log size and time, and status. On PostgreSQL one statement, where it was one per step
   * and one for the run, each a round trip of a report's few (an unchanged status assigned again
   * leaves its index alone there). SQLite runs them one by one in process, and assigns the status
   * only when it changed: it rewrites the entries of every index on an assigned column, even when its
   * value stays the same.
   */
  async report(run: Run, statusChanged: boolean, steps: readonly StepRow[]): Promise<void> {
    const outputs = JSON.stringify(run.outputs);
    if (this.dialect === 'postgres') {
      // Nothing of its answer is read: it goes with the events and the commit (store/pg-pipeline.ts).
      await this.db.executeQuery(
        unanswered(CompiledQuery.raw(REPORT_SQL, [...stepColumns(run.uuid, steps, run.updatedOn), run.status, outputs, run.logBytes])),
      );
      return;
    }
    await this.putSteps(run.uuid, steps, run.updatedOn);
    if (statusChanged) {
      await this.queries.execute(
        'reportStatus',
        [run.status, outputs, run.updatedOn, run.logBytes, run.uuid] as const,
        (status, out, at, bytes, id) =>
          this.db.updateTable('runs').set({ status, outputs: out, updated_on: at, log_bytes: bytes }).where('uuid', '=', id),
      );
    } else {
      await this.queries.execute('report', [outputs, run.updatedOn, run.logBytes, run.uuid] as const, (out, at, bytes, id) =>
        this.db.updateTable('runs').set({ outputs: out, updated_on: at, log_bytes: bytes }).where('uuid', '=', id),
      );
    }
  }

  /**
   * Hands the oldest waiting run of these runners to one caller: a single UPDATE … RETURNING (the
   * claim index gives the oldest waiting run as its first entry), with `FOR UPDATE SKIP LOCKED` on
   * PostgreSQL so concurrent claimers on any instance never get the same run. Compiled once per
   * number of runners.
   */
  async claim(runnerUuids: readonly string[], nodeId: string | undefined, now: string): Promise<Run | undefined> {
    if (runnerUuids.length === 0) return undefined;
    const args: [string | null, string, string, string, number, ...string[]] = [
      nodeId ?? null,
      now,
      'IN_PROGRESS',
      'PENDING',
      1,
      ...runnerUuids,
    ];
    const [row] = await this.queries.execute(`claim${runnerUuids.length}`, args, (node, at, claimed, waiting, one, ...runners) => {
      let next = this.db
        .selectFrom('runs')
        .select('uuid')
        .where('runner_uuid', 'in', runners)
        .where('status', '=', waiting)
        .orderBy('created_on')
        .orderBy('uuid')
        .limit(one);
      if (this.dialect === 'postgres') next = next.forUpdate().skipLocked();
      return this.db
        .updateTable('runs')
        .set({ status: claimed, node_id: node, claimed_on: at, updated_on: at })
        .where('uuid', '=', next)
        .where('status', '=', waiting)
        .returningAll();
    });
    if (!row) return undefined;
    return toModel(row);
  }

  /**
   * Every runner with how many of its runs wait to be claimed (0 included). One query: each runner's
   * waiting runs are a range of the claim index (runner, status), so a scrape costs the runners plus
   * the waiting runs, never the run history.
   */
  async waitingByRunner(): Promise<{ runner: string; waiting: number }[]> {
    const rows = await this.db
      .selectFrom('runners')
      .leftJoin('runs', (join) => join.onRef('runs.runner_uuid', '=', 'runners.uuid').on('runs.status', '=', 'PENDING'))
      .select(['runners.uuid as runner', (eb) => eb.fn.count<number | string>('runs.uuid').as('waiting')])
      .groupBy('runners.uuid')
      .execute();
    return rows.map((row) => ({ runner: row.runner, waiting: Number(row.waiting) }));
  }

  async everClaimed(blockUuid: string): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('runs')
        .select('uuid')
        .where('block_uuid', '=', blockUuid)
        .where('claimed_on', 'is not', null)
        .executeTakeFirst()) !== undefined
    );
  }

  async activeRun(blockUuid: string): Promise<Run | undefined> {
    const row = await this.db
      .selectFrom('runs')
      .selectAll()
      .where('block_uuid', '=', blockUuid)
      .where('status', 'in', ['PENDING', 'IN_PROGRESS'])
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** `definitionOwner`: only runs of that workspace's definitions. */
  async list(filter: { blockUuid?: string; nodeId?: string; definitionOwner?: string }, page: PageRequest): Promise<Page<Run>> {
    let query = this.db.selectFrom('runs');
    if (filter.blockUuid !== undefined) query = query.where('block_uuid', '=', filter.blockUuid);
    if (filter.nodeId !== undefined) query = query.where('node_id', '=', filter.nodeId);
    if (filter.definitionOwner !== undefined) query = query.where('definition_owner', '=', filter.definitionOwner);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  async upsertSource(runUuid: string, sourceId: string, document: object, now: string): Promise<void> {
    await this.db
      .insertInto('run_sources')
      .values({ run_uuid: runUuid, source_id: sourceId, document: JSON.stringify(document), created_on: now })
      .onConflict((oc) => oc.columns(['run_uuid', 'source_id']).doUpdateSet({ document: JSON.stringify(document) }))
      .execute();
  }

  /** The ids of a run's status sources (at most MAX_SOURCES_PER_RUN). */
  async sourceIds(runUuid: string): Promise<string[]> {
    const rows = await this.queries.execute('sourceIds', [runUuid], (run) =>
      this.db.selectFrom('run_sources').select('source_id').where('run_uuid', '=', run),
    );
    return rows.map((row) => row.source_id);
  }

  /** Up to `limit` steps after `after` (source, then position order): a log is read in slices, never whole. */
  async stepsAfter(runUuid: string, after: { sourceId: string; position: number } | undefined, limit: number): Promise<StepRow[]> {
    let query = this.db.selectFrom('run_steps').selectAll().where('run_uuid', '=', runUuid);
    if (after)
      query = query.where((eb) =>
        eb.or([eb('source_id', '>', after.sourceId), eb.and([eb('source_id', '=', after.sourceId), eb('position', '>', after.position)])]),
      );
    const rows = await query.orderBy('source_id').orderBy('position').limit(limit).execute();
    return rows.map(toStep);
  }

  /** The steps of one status source, in order. */
  async steps(runUuid: string, sourceId: string): Promise<StepRow[]> {
    const rows = await this.queries.execute('steps', [runUuid, sourceId], (run, source) =>
      this.db.selectFrom('run_steps').selectAll().where('run_uuid', '=', run).where('source_id', '=', source).orderBy('position'),
    );
    return rows.map(toStep);
  }

  /** Creates or replaces steps of the run (`now` their time of change): on PostgreSQL in one statement. */
  async putSteps(runUuid: string, steps: readonly StepRow[], now: string): Promise<void> {
    if (steps.length === 0) return;
    if (this.dialect === 'postgres') {
      await this.db.executeQuery(CompiledQuery.raw(PUT_STEPS_SQL, stepColumns(runUuid, steps, now)));
      return;
    }
    for (const step of steps) {
      const args: [string, string, string, number, string, string, string | null, string | null, string, string] = [
        runUuid,
        step.sourceId,
        step.stepId,
        step.position,
        step.displayName,
        step.status,
        step.userMessage ?? null,
        step.systemMessage ?? null,
        JSON.stringify(step.outputs),
        now,
      ];
      await this.queries.execute(
        'putStep',
        args,
        (run, source, id, position, displayName, status, userMessage, systemMessage, outputs, at) => {
          const changes = {
            position,
            display_name: displayName,
            status,
            user_message: userMessage,
            system_message: systemMessage,
            outputs,
            updated_on: at,
          };
          return this.db
            .insertInto('run_steps')
            .values({ run_uuid: run, source_id: source, step_id: id, ...changes })
            .onConflict((oc) => oc.columns(['run_uuid', 'source_id', 'step_id']).doUpdateSet(changes));
        },
      );
    }
  }

  /**
   * Runs going on but silent since `before` (the run timeout). A run silent since then was created
   * before then: `runs_silent` (status, created_on) narrows the read to those, and no index holds
   * `updated_on`, which every status report writes (migration 0028).
   */
  async silentSince(before: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('runs')
      .select('uuid')
      .where('status', '=', 'IN_PROGRESS')
      .where('created_on', '<', before)
      .where('updated_on', '<', before)
      .limit(1000)
      .execute();
    return rows.map((row) => row.uuid);
  }
}
