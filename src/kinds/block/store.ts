import { CompiledQuery, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import type { DialectName } from '../../store/database.js';
import { usageCount } from '../definition/store.js';
import { fetchPage } from '../../store/paged.js';
import type { BuildingBlockTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { Block, BlockStatus, ParentRef, SentTargetRef, TargetKind, ValueRow } from './model.js';

/** Every list filter of spec endpoints 4 and 9, each served by an index of 0004_blocks. */
export interface BlockFilter {
  workspace?: string;
  project?: string;
  platformIdentifier?: string;
  displayName?: string;
  definitionName?: string;
  definitionUuid?: string;
  versionNumber?: number;
  versionUuid?: string;
  tenantUuid?: string;
  targetKind?: TargetKind;
  status?: BlockStatus;
  definitionOwner?: string;
}

/**
 * `setStatusWhileLatest` on PostgreSQL: the row locked by the subquery, updated, and answered as it
 * was before (the subquery's values).
 */
const SET_STATUS_WHILE_LATEST_SQL = `update building_blocks b set status = $1
  from (select * from building_blocks where uuid = $2 and latest_run_uuid = $3 for update) locked
  where b.uuid = locked.uuid returning locked.*`;

interface BlockDocument {
  inputs: ValueRow[];
  parents: ParentRef[];
  targetRef?: SentTargetRef;
}

function toModel(row: Selectable<BuildingBlockTable>): Block {
  const document = JSON.parse(row.document) as BlockDocument;
  // Optional fields assigned only when present, not spread in: a list builds this per row, and each
  // conditional spread allocates and copies an object.
  const block: Block = {
    uuid: row.uuid,
    workspace: row.workspace,
    targetKind: row.target_kind as TargetKind,
    definitionUuid: row.definition_uuid,
    definitionOwner: row.definition_owner,
    versionUuid: row.version_uuid,
    versionNumber: Number(row.version_number),
    displayName: row.display_name,
    status: row.status as BlockStatus,
    forcePurge: Boolean(row.force_purge),
    createdOn: row.created_on,
    createdBy: row.created_by,
    inputs: document.inputs,
    parents: document.parents,
    outputs: JSON.parse(row.outputs) as ValueRow[],
  };
  if (row.tenant_uuid !== null)
    block.tenant = { uuid: row.tenant_uuid, project: row.project!, platformIdentifier: row.platform_identifier! };
  if (row.marked_for_deletion_on !== null) block.markedForDeletionOn = row.marked_for_deletion_on;
  if (row.marked_for_deletion_by !== null) block.markedForDeletionBy = row.marked_for_deletion_by;
  if (row.latest_run_uuid !== null) block.latestRunUuid = row.latest_run_uuid;
  if (document.targetRef) block.targetRef = document.targetRef;
  return block;
}

function toRow(block: Block, oncePerTenant: string | null): BuildingBlockTable {
  const document: BlockDocument = {
    inputs: block.inputs,
    parents: block.parents,
    ...(block.targetRef ? { targetRef: block.targetRef } : {}),
  };
  return {
    uuid: block.uuid,
    workspace: block.workspace,
    project: block.tenant?.project ?? null,
    tenant_uuid: block.tenant?.uuid ?? null,
    platform_identifier: block.tenant?.platformIdentifier ?? null,
    target_kind: block.targetKind,
    definition_uuid: block.definitionUuid,
    definition_owner: block.definitionOwner,
    version_uuid: block.versionUuid,
    version_number: block.versionNumber,
    display_name: block.displayName,
    status: block.status,
    once_per_tenant: oncePerTenant,
    force_purge: block.forcePurge ? 1 : 0,
    marked_for_deletion_on: block.markedForDeletionOn ?? null,
    marked_for_deletion_by: block.markedForDeletionBy ?? null,
    latest_run_uuid: block.latestRunUuid ?? null,
    document: JSON.stringify(document),
    outputs: JSON.stringify(block.outputs),
    created_on: block.createdOn,
    created_by: block.createdBy,
  };
}

/** The `building_blocks` table and the parent links between blocks. */
export class BlockStore {
  private readonly queries: CompiledQueries;

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {
    this.queries = new CompiledQueries(db, 'building_blocks');
  }

  /**
   * The block as it is now, locked until the transaction ends (PostgreSQL; SQLite transactions are
   * serial): lifecycle changes start from this, never from a read made before their transaction.
   */
  async findForUpdate(uuid: string): Promise<Block | undefined> {
    // Compiled once: every run's end reads its block so (on SQLite also every claim and run status change).
    const [row] = await this.queries.execute('findForUpdate', [uuid], (id) => {
      const query = this.db.selectFrom('building_blocks').selectAll().where('uuid', '=', id);
      return this.dialect === 'postgres' ? query.forUpdate() : query;
    });
    return row ? toModel(row) : undefined;
  }

  /** Inserts the block and its parent links (the caller holds the transaction). */
  async insert(block: Block, oncePerTenant: boolean): Promise<void> {
    await this.queries.insertRows('insert', 'building_blocks', [toRow(block, oncePerTenant ? block.definitionUuid : null)]);
    for (const parent of block.parents)
      await this.db
        .insertInto('building_block_parents')
        .values({ block_uuid: block.uuid, parent_uuid: parent.buildingBlockUuid })
        .execute();
  }

  async find(uuid: string): Promise<Block | undefined> {
    const [row] = await this.queries.execute('find', [uuid], (id) =>
      this.db
        .selectFrom('building_blocks')
        .selectAll()
        .where('uuid', '=', id as string),
    );
    return row ? toModel(row) : undefined;
  }

  /**
   * Several blocks by uuid. `share`: locked against changes until the transaction ends (PostgreSQL): a
   * new child reads its parents so, and a parent's run ending (which locks the parent) waits for it,
   * then finds it among the children — or ended first, and the child reads the parent's new status.
   */
  async findMany(uuids: readonly string[], lock?: 'share'): Promise<Block[]> {
    if (uuids.length === 0) return [];
    let query = this.db
      .selectFrom('building_blocks')
      .selectAll()
      .where('uuid', 'in', [...uuids]);
    if (lock === 'share' && this.dialect === 'postgres') query = query.forShare();
    return (await query.execute()).map(toModel);
  }

  async list(filter: BlockFilter, page: PageRequest): Promise<Page<Block>> {
    let query = this.db.selectFrom('building_blocks');
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.project !== undefined) query = query.where('project', '=', filter.project);
    if (filter.platformIdentifier !== undefined) query = query.where('platform_identifier', '=', filter.platformIdentifier);
    if (filter.displayName !== undefined) query = query.where('display_name', '=', filter.displayName);
    if (filter.definitionUuid !== undefined) query = query.where('definition_uuid', '=', filter.definitionUuid);
    if (filter.definitionName !== undefined) {
      const name = filter.definitionName;
      query = query.where('definition_uuid', 'in', (eb) => eb.selectFrom('definitions').select('uuid').where('display_name', '=', name));
    }
    if (filter.versionNumber !== undefined) query = query.where('version_number', '=', filter.versionNumber);
    if (filter.versionUuid !== undefined) query = query.where('version_uuid', '=', filter.versionUuid);
    if (filter.tenantUuid !== undefined) query = query.where('tenant_uuid', '=', filter.tenantUuid);
    if (filter.targetKind !== undefined) query = query.where('target_kind', '=', filter.targetKind);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.definitionOwner !== undefined) query = query.where('definition_owner', '=', filter.definitionOwner);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.selectAll().orderBy('created_on').orderBy('uuid'),
      page,
      await this.knownTotal(filter),
    );
    return { items: rows.map(toModel), total };
  }

  /**
   * Totals kept elsewhere, so a list's cost does not grow with the data: the blocks of one definition
   * (the managedBy filters) are its usage count. Other filters are counted by their index.
   */
  private async knownTotal(filter: BlockFilter): Promise<number | undefined> {
    const keys = Object.keys(filter).filter((key) => key !== 'definitionOwner');
    if (keys.length !== 1 || filter.definitionUuid === undefined) return undefined;
    const row = await this.db
      .selectFrom('definitions')
      .select([usageCount.as('usage_count'), 'owned_by_workspace'])
      .where('uuid', '=', filter.definitionUuid)
      .executeTakeFirst();
    if (!row || (filter.definitionOwner !== undefined && row.owned_by_workspace !== filter.definitionOwner)) return 0;
    return Number(row.usage_count);
  }

  /** Everything but identity, target and creation (which never change). */
  async update(block: Block): Promise<void> {
    const {
      uuid,
      created_on: _c,
      created_by: _b,
      once_per_tenant: _o,
      workspace: _w,
      project: _p,
      tenant_uuid: _t,
      platform_identifier: _pi,
      target_kind: _k,
      ...rest
    } = toRow(block, null);
    await this.db.updateTable('building_blocks').set(rest).where('uuid', '=', uuid).execute();
  }

  async setStatus(uuid: string, status: BlockStatus, latestRunUuid?: string): Promise<void> {
    if (latestRunUuid) {
      await this.queries.execute('setStatusAndRun', [status, latestRunUuid, uuid] as const, (to, run, id) =>
        this.db.updateTable('building_blocks').set({ status: to, latest_run_uuid: run }).where('uuid', '=', id),
      );
    } else {
      await this.queries.execute('setStatus', [status, uuid] as const, (to, id) =>
        this.db.updateTable('building_blocks').set({ status: to }).where('uuid', '=', id),
      );
    }
  }

  /**
   * While `runUuid` is the block's latest run, sets its status and answers the block as it was
   * (undefined, and nothing changed, otherwise). On PostgreSQL one statement that locks the row, as
   * the read for update and the update did in two round trips of every claim and run status change;
   * on SQLite the same two statements, in process.
   */
  async setStatusWhileLatest(uuid: string, runUuid: string, status: BlockStatus): Promise<Block | undefined> {
    if (this.dialect !== 'postgres') {
      const block = await this.findForUpdate(uuid);
      if (block?.latestRunUuid !== runUuid) return undefined;
      await this.setStatus(uuid, status);
      return block;
    }
    const { rows } = await this.db.executeQuery<Selectable<BuildingBlockTable>>(
      CompiledQuery.raw(SET_STATUS_WHILE_LATEST_SQL, [status, uuid, runUuid]),
    );
    const [row] = rows;
    return row ? toModel(row) : undefined;
  }

  /** The block's latest run, its status unchanged. */
  async setLatestRun(uuid: string, latestRunUuid: string): Promise<void> {
    await this.queries.send('setLatestRun', [latestRunUuid, uuid] as const, (run, id) =>
      this.db.updateTable('building_blocks').set({ latest_run_uuid: run }).where('uuid', '=', id),
    );
  }

  /** Blocks naming this one as a parent. */
  async children(uuid: string): Promise<string[]> {
    const rows = await this.db.selectFrom('building_block_parents').select('block_uuid').where('parent_uuid', '=', uuid).execute();
    return rows.map((row) => row.block_uuid);
  }

  async replaceParents(uuid: string, parents: readonly ParentRef[]): Promise<void> {
    await this.db.deleteFrom('building_block_parents').where('block_uuid', '=', uuid).execute();
    for (const parent of parents)
      await this.db.insertInto('building_block_parents').values({ block_uuid: uuid, parent_uuid: parent.buildingBlockUuid }).execute();
  }

  /** Removes the block and its parent links; whether it was there (the caller holds the transaction). */
  async delete(uuid: string): Promise<boolean> {
    await this.db.deleteFrom('building_block_parents').where('block_uuid', '=', uuid).execute();
    const result = await this.db.deleteFrom('building_blocks').where('uuid', '=', uuid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
