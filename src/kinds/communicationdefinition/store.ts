import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { CommunicationDefinitionTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { CommunicationContent, CommunicationCounters, CommunicationDefinition, CommunicationType } from './model.js';

type Row = Selectable<CommunicationDefinitionTable>;

const toModel = (row: Row): CommunicationDefinition => ({
  uuid: row.uuid,
  communication: { ...(JSON.parse(row.document) as Omit<CommunicationContent, 'type'>), type: row.communication_type as CommunicationType },
  counters: {
    total: Number(row.communications_total),
    open: Number(row.communications_open),
    resolved: Number(row.communications_resolved),
  },
  createdOn: row.created_on,
});

const documentOf = ({ type: _type, ...rest }: CommunicationContent) => JSON.stringify(rest);

export interface CommunicationDefinitionFilter {
  type?: CommunicationType;
  /** Only definitions sent to this workspace (a communication of it names them). */
  sentTo?: string;
}

/** The `communication_definitions` table and its counters. */
export class CommunicationDefinitionStore {
  constructor(private readonly db: Db) {}

  async insert(definition: CommunicationDefinition): Promise<void> {
    await this.db
      .insertInto('communication_definitions')
      .values({
        uuid: definition.uuid,
        communication_type: definition.communication.type,
        document: documentOf(definition.communication),
        created_on: definition.createdOn,
      })
      .execute();
  }

  async find(uuid: string): Promise<CommunicationDefinition | undefined> {
    const row = await this.db.selectFrom('communication_definitions').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /**
   * The counters of each definition over the communications of one workspace, in one grouped query
   * (a page of definitions costs one); a definition no communication of it names is absent.
   */
  async countsIn(workspace: string, uuids: readonly string[]): Promise<Map<string, CommunicationCounters>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('communications')
      .select((eb) => [
        'definition_uuid',
        eb.fn.countAll().as('total'),
        sql<number>`sum(case when resolution_status = 'OPEN' then 1 else 0 end)`.as('open'),
        sql<number>`sum(case when resolution_status = 'RESOLVED' then 1 else 0 end)`.as('resolved'),
      ])
      .where('workspace', '=', workspace)
      .where('definition_uuid', 'in', uuids)
      .groupBy('definition_uuid')
      .execute();
    return new Map(
      rows.map((row) => [row.definition_uuid, { total: Number(row.total), open: Number(row.open), resolved: Number(row.resolved) }]),
    );
  }

  async list(filter: CommunicationDefinitionFilter, page: PageRequest): Promise<Page<CommunicationDefinition>> {
    let query = this.db.selectFrom('communication_definitions');
    if (filter.type !== undefined) query = query.where('communication_type', '=', filter.type);
    const sentTo = filter.sentTo;
    if (sentTo !== undefined) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('communications')
            .select(sql`1`.as('one'))
            .whereRef('communications.definition_uuid', '=', 'communication_definitions.uuid')
            .where('communications.workspace', '=', sentTo),
        ),
      );
    }
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  /**
   * Replaces the content; a change of type only while no communication names the definition (their
   * resolution status depends on it): false when that condition fails, checked in the same statement.
   */
  async update(uuid: string, communication: CommunicationContent): Promise<boolean> {
    const result = await this.db
      .updateTable('communication_definitions')
      .set({ communication_type: communication.type, document: documentOf(communication) })
      .where('uuid', '=', uuid)
      .where((eb) => eb.or([eb('communication_type', '=', communication.type), eb('communications_total', '=', 0)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(uuid: string): Promise<void> {
    await this.db.deleteFrom('communication_definitions').where('uuid', '=', uuid).execute();
  }

  /**
   * A communication of the definition was created: total + 1, and open + 1 when its type is
   * resolvable, in one UPDATE (the row lock orders concurrent changes; no read-modify-write). Answers
   * the definition after the change, or undefined when it no longer exists.
   */
  async countCreated(uuid: string): Promise<CommunicationDefinition | undefined> {
    const row = await this.db
      .updateTable('communication_definitions')
      .set((eb) => ({
        communications_total: eb('communications_total', '+', 1),
        communications_open: sql<number>`communications_open + case when communication_type = 'ACTION_REQUIRED' then 1 else 0 end`,
      }))
      .where('uuid', '=', uuid)
      .returningAll()
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** Moves the counters by `delta` in one UPDATE. */
  async move(uuid: string, delta: CommunicationCounters): Promise<void> {
    await this.db
      .updateTable('communication_definitions')
      .set((eb) => ({
        communications_total: eb('communications_total', '+', delta.total),
        communications_open: eb('communications_open', '+', delta.open),
        communications_resolved: eb('communications_resolved', '+', delta.resolved),
      }))
      .where('uuid', '=', uuid)
      .execute();
  }
}
