import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import { fetchPage } from '../../store/paged.js';
import type { RunnerTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import { RUNNER_SEEN_RESOLUTION_MS, type Runner, type RunnerImplementationType } from './model.js';

const toModel = (row: Selectable<RunnerTable>): Runner => ({
  uuid: row.uuid,
  ownedByWorkspace: row.owned_by_workspace,
  implementationType: row.implementation_type as RunnerImplementationType,
  restriction: row.restriction as Runner['restriction'],
  createdOn: row.created_on,
  ...(row.last_seen !== null ? { lastSeen: row.last_seen } : {}),
  document: parseDocument(row.document),
});

/** The `runners` table. */
export class RunnerStore {
  private readonly queries: CompiledQueries;

  constructor(private readonly db: Db) {
    this.queries = new CompiledQueries(db, 'runners');
  }

  async insert(runner: Runner): Promise<void> {
    await this.db
      .insertInto('runners')
      .values({
        uuid: runner.uuid,
        owned_by_workspace: runner.ownedByWorkspace,
        implementation_type: runner.implementationType,
        restriction: runner.restriction,
        document: serializeDocument(runner.document),
        created_on: runner.createdOn,
        last_seen: null,
      })
      .execute();
  }

  async update(runner: Runner): Promise<void> {
    await this.db
      .updateTable('runners')
      .set({
        owned_by_workspace: runner.ownedByWorkspace,
        implementation_type: runner.implementationType,
        restriction: runner.restriction,
        document: serializeDocument(runner.document),
      })
      .where('uuid', '=', runner.uuid)
      .execute();
  }

  /**
   * Records that the runner claimed a run `now`: at most one write a second per runner
   * (RUNNER_SEEN_RESOLUTION_MS), because every claim writing the runner's row would queue the claims
   * of all its daemons on that row's lock until each commit (PostgreSQL). Compiled once.
   */
  async seen(uuid: string, now: string): Promise<void> {
    const staleBefore = new Date(Date.parse(now) - RUNNER_SEEN_RESOLUTION_MS).toISOString();
    await this.queries.send('seen', [now, uuid, staleBefore] as const, (at, runner, stale) =>
      this.db
        .updateTable('runners')
        .set({ last_seen: at })
        .where('uuid', '=', runner)
        .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', stale)])),
    );
  }

  /** Compiled once: every claim reads its runner so. */
  async find(uuid: string): Promise<Runner | undefined> {
    const [row] = await this.queries.execute('find', [uuid], (id) => this.db.selectFrom('runners').selectAll().where('uuid', '=', id));
    return row ? toModel(row) : undefined;
  }

  async list(filter: { workspace?: string; orPublic?: boolean }, page: PageRequest): Promise<Page<Runner>> {
    let query = this.db.selectFrom('runners');
    const { workspace, orPublic } = filter;
    if (workspace !== undefined && orPublic)
      query = query.where((eb) => eb.or([eb('owned_by_workspace', '=', workspace), eb('restriction', '=', 'PUBLIC')]));
    else if (workspace !== undefined) query = query.where('owned_by_workspace', '=', workspace);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  async delete(uuid: string): Promise<void> {
    await this.db.deleteFrom('runners').where('uuid', '=', uuid).execute();
  }
}
