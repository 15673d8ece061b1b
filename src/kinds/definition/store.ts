import { sql } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import { dialectOf } from '../../store/database.js';
import { fetchPage } from '../../store/paged.js';
import { USAGE_STRIPES } from '../../store/migrations/0019_definition_usage.js';
import type { DefinitionTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { ReviewState, TargetType, VersionState } from './enums.js';
import type { Definition, DefinitionVersion, Review, VersionSpec, VersionSummary } from './model.js';

export interface DefinitionFilter {
  ownedBy?: string;
  /** `only`: just published definitions (the marketplace); `also`: those beside the `ownedBy` ones. */
  published?: 'only' | 'also';
}

/** A definition's block count: the sum of its stripes (migration 0019). */
export const usageCount = sql<
  number | string
>`(select coalesce(sum(blocks), 0) from definition_usage where definition_usage.definition_uuid = definitions.uuid)`;

/** A definition's row with its block count. */
type DefinitionRow = DefinitionTable & { usage_count: number | string };

/** A version's columns, with its definition's workspace (joined). */
const VERSION_COLUMNS = [
  'definition_versions.uuid',
  'definition_versions.definition_uuid',
  'definition_versions.document',
  'definition_versions.created_on',
  'definition_versions.review_state',
  'definition_versions.review',
  'definitions.owned_by_workspace',
] as const;

/** Definitions and their versions: one aggregate, one store (a version never exists without its definition). */
export class DefinitionStore {
  /** The queries of every block create (its version, its definition, the usage count), compiled once. */
  private readonly queries: CompiledQueries;

  constructor(private readonly db: Db) {
    this.queries = new CompiledQueries(db, 'definitions');
  }

  private async withVersions(rows: DefinitionRow[]): Promise<Definition[]> {
    if (rows.length === 0) return [];
    const summaries = (db: Db, uuids: string[]) =>
      db
        .selectFrom('definition_versions')
        .select(['uuid', 'definition_uuid', 'version_number', 'state', 'review_state'])
        .where('definition_uuid', 'in', uuids)
        .orderBy('version_number');
    // One definition (a block create reads its definition so) is a shape of its own; a page's list varies in length.
    const versions =
      rows.length === 1
        ? await this.queries.execute('versionsOfOne', [rows[0]!.uuid], (uuid) => summaries(this.db, [uuid]))
        : await summaries(
            this.db,
            rows.map((row) => row.uuid),
          ).execute();
    const byDefinition = new Map<string, VersionSummary[]>();
    for (const v of versions) {
      const list = byDefinition.get(v.definition_uuid) ?? [];
      list.push({
        uuid: v.uuid,
        versionNumber: Number(v.version_number),
        state: v.state as VersionState,
        ...(v.review_state ? { review: v.review_state as ReviewState } : {}),
      });
      byDefinition.set(v.definition_uuid, list);
    }
    return rows.map((row) => ({
      uuid: row.uuid,
      ownedByWorkspace: row.owned_by_workspace,
      displayName: row.display_name,
      targetType: row.target_type as TargetType,
      createdOn: row.created_on,
      document: parseDocument(row.document),
      versions: byDefinition.get(row.uuid) ?? [],
      usageCount: Number(row.usage_count),
    }));
  }

  async insertDefinition(definition: Omit<Definition, 'versions' | 'usageCount'>): Promise<void> {
    await this.db
      .insertInto('definitions')
      .values({
        uuid: definition.uuid,
        owned_by_workspace: definition.ownedByWorkspace,
        display_name: definition.displayName,
        target_type: definition.targetType,
        latest_version: 0,
        latest_released_version: 0,
        latest_published_version: 0,
        document: serializeDocument(definition.document),
        created_on: definition.createdOn,
      })
      .execute();
  }

  async updateDefinition(definition: Omit<Definition, 'versions' | 'usageCount'>): Promise<void> {
    await this.db
      .updateTable('definitions')
      .set({ display_name: definition.displayName, target_type: definition.targetType, document: serializeDocument(definition.document) })
      .where('uuid', '=', definition.uuid)
      .execute();
  }

  async findDefinition(uuid: string): Promise<Definition | undefined> {
    const [row] = await this.queries.execute('findDefinition', [uuid], (id) =>
      this.db.selectFrom('definitions').selectAll().select(usageCount.as('usage_count')).where('uuid', '=', id),
    );
    return row ? (await this.withVersions([row]))[0] : undefined;
  }

  async listDefinitions(filter: DefinitionFilter, page: PageRequest): Promise<Page<Definition>> {
    let query = this.db.selectFrom('definitions');
    const { ownedBy, published } = filter;
    if (ownedBy !== undefined && published === 'also')
      query = query.where((eb) => eb.or([eb('owned_by_workspace', '=', ownedBy), eb('latest_published_version', '>', 0)]));
    else {
      if (ownedBy !== undefined) query = query.where('owned_by_workspace', '=', ownedBy);
      if (published !== undefined) query = query.where('latest_published_version', '>', 0);
    }
    const { rows, total } = await fetchPage(
      query,
      (q) => q.selectAll().select(usageCount.as('usage_count')).orderBy('created_on').orderBy('uuid'),
      page,
    );
    return { items: await this.withVersions(rows), total };
  }

  /** Whether the definition lets consumers read their blocks' runs (`spec.runTransparency`, default false). */
  async runTransparency(uuid: string): Promise<boolean> {
    const [row] = await this.queries.execute('document', [uuid], (id) =>
      this.db.selectFrom('definitions').select('document').where('uuid', '=', id),
    );
    return row !== undefined && parseDocument(row.document).spec.runTransparency === true;
  }

  /**
   * The definition's block count moves with every block insert and delete (the block's unit of work),
   * in this connection's stripe: concurrent writers of one definition do not queue on one row.
   */
  async countUsage(uuid: string, by: number): Promise<void> {
    await this.queries.send('countUsage', [uuid, by] as const, (id, step) =>
      this.db
        .insertInto('definition_usage')
        .values({
          definition_uuid: id,
          stripe: dialectOf(this.db) === 'postgres' ? sql<number>`pg_backend_pid() % ${sql.lit(USAGE_STRIPES)}` : sql<number>`0`,
          blocks: step,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['definition_uuid', 'stripe'])
            .doUpdateSet((eb) => ({ blocks: eb('definition_usage.blocks', '+', eb.ref('excluded.blocks')) })),
        ),
    );
  }

  async deleteDefinition(uuid: string): Promise<void> {
    await this.db.deleteFrom('definition_usage').where('definition_uuid', '=', uuid).execute();
    await this.db.deleteFrom('definition_versions').where('definition_uuid', '=', uuid).execute();
    await this.db.deleteFrom('definitions').where('uuid', '=', uuid).execute();
  }

  async insertVersion(version: DefinitionVersion): Promise<void> {
    await this.db
      .insertInto('definition_versions')
      .values({
        uuid: version.uuid,
        definition_uuid: version.definitionUuid,
        version_number: version.spec.versionNumber,
        state: version.spec.state,
        runner_uuid: version.spec.runnerRef?.uuid.toLowerCase() ?? null,
        document: JSON.stringify(version.spec),
        created_on: version.createdOn,
        ...reviewColumns(version.review),
      })
      .execute();
    await this.refreshLatest(version.definitionUuid);
  }

  async updateVersion(version: DefinitionVersion): Promise<void> {
    await this.db
      .updateTable('definition_versions')
      .set({
        state: version.spec.state,
        runner_uuid: version.spec.runnerRef?.uuid.toLowerCase() ?? null,
        document: JSON.stringify(version.spec),
        ...reviewColumns(version.review),
      })
      .where('uuid', '=', version.uuid)
      .execute();
    await this.refreshLatest(version.definitionUuid);
  }

  /** Keeps the definition's latest version numbers in step with its versions (same transaction). */
  private async refreshLatest(definitionUuid: string): Promise<void> {
    const row = await this.db
      .selectFrom('definition_versions')
      .select((eb) => [
        eb.fn.max('version_number').as('latest'),
        eb.fn.max(eb.case().when('state', '=', 'RELEASED').then(eb.ref('version_number')).else(0).end()).as('released'),
        eb.fn.max(eb.case().when('review_state', '=', 'APPROVED').then(eb.ref('version_number')).else(0).end()).as('published'),
      ])
      .where('definition_uuid', '=', definitionUuid)
      .executeTakeFirstOrThrow();
    await this.db
      .updateTable('definitions')
      .set({
        latest_version: Number(row.latest ?? 0),
        latest_released_version: Number(row.released ?? 0),
        latest_published_version: Number(row.published ?? 0),
      })
      .where('uuid', '=', definitionUuid)
      .execute();
  }

  async findVersion(uuid: string): Promise<DefinitionVersion | undefined> {
    const [row] = await this.queries.execute('findVersion', [uuid], (id) =>
      this.db
        .selectFrom('definition_versions')
        .innerJoin('definitions', 'definitions.uuid', 'definition_versions.definition_uuid')
        .select(VERSION_COLUMNS)
        .where('definition_versions.uuid', '=', id),
    );
    return row ? toVersion(row) : undefined;
  }

  async findVersionByNumber(definitionUuid: string, versionNumber: number): Promise<DefinitionVersion | undefined> {
    const row = await this.db
      .selectFrom('definition_versions')
      .innerJoin('definitions', 'definitions.uuid', 'definition_versions.definition_uuid')
      .select(VERSION_COLUMNS)
      .where('definition_versions.definition_uuid', '=', definitionUuid)
      .where('definition_versions.version_number', '=', versionNumber)
      .executeTakeFirst();
    return row ? toVersion(row) : undefined;
  }

  async listVersions(filter: { definitionUuid?: string; ownedBy?: string }, page: PageRequest): Promise<Page<DefinitionVersion>> {
    let query = this.db
      .selectFrom('definition_versions')
      .innerJoin('definitions', 'definitions.uuid', 'definition_versions.definition_uuid');
    if (filter.definitionUuid !== undefined) query = query.where('definition_versions.definition_uuid', '=', filter.definitionUuid);
    if (filter.ownedBy !== undefined) query = query.where('definitions.owned_by_workspace', '=', filter.ownedBy);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.select(VERSION_COLUMNS).orderBy('definition_versions.created_on').orderBy('definition_versions.uuid'),
      page,
    );
    return { items: rows.map(toVersion), total };
  }
}

type VersionRow = {
  uuid: string;
  definition_uuid: string;
  document: string;
  created_on: string;
  owned_by_workspace: string;
  review_state: string | null;
  review: string | null;
};

function toVersion(row: VersionRow): DefinitionVersion {
  // Versions stored before the internal model carry the wire's definition reference: the column says it.
  const { buildingBlockDefinitionRef: _ref, ...spec } = JSON.parse(row.document) as VersionSpec;
  const review: Review | undefined = row.review_state
    ? { ...(row.review ? (JSON.parse(row.review) as Omit<Review, 'state'>) : {}), state: row.review_state as ReviewState }
    : undefined;
  return {
    uuid: row.uuid,
    definitionUuid: row.definition_uuid,
    ownedByWorkspace: row.owned_by_workspace,
    createdOn: row.created_on,
    spec,
    ...(review ? { review } : {}),
  };
}

/** The review's columns: its state, and who decided when (and why) as JSON. */
function reviewColumns(review: Review | undefined): { review_state: string | null; review: string | null } {
  if (!review) return { review_state: null, review: null };
  const { state, ...decision } = review;
  return { review_state: state, review: Object.keys(decision).length > 0 ? JSON.stringify(decision) : null };
}
