import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { CommunicationTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { CommunicationContent, CommunicationType } from '../communicationdefinition/model.js';
import type { Communication, ResolutionStatus, TargetKind } from './model.js';

/** A communication with its definition's document (the list and reads join them). */
type Row = CommunicationTable & { definition_document: string };

const toModel = (row: Row): Communication => {
  const { title, dueDate } = JSON.parse(row.definition_document) as CommunicationContent;
  return {
    uuid: row.uuid,
    workspace: row.workspace,
    target: { kind: row.target_kind as TargetKind, name: row.target_name },
    definition: { uuid: row.definition_uuid, title, dueDate, type: row.communication_type as CommunicationType },
    ...(row.resolution_status !== null ? { resolutionStatus: row.resolution_status as ResolutionStatus } : {}),
    createdOn: row.created_on,
  };
};

/** The list's filters (exact, AND); `workspace` is the caller's scope. */
export interface CommunicationFilter {
  definitionUuid?: string;
  resolutionStatus?: ResolutionStatus;
  type?: CommunicationType;
  workspace?: string;
}

/** The `communications` table, read with its definition's title and due date. */
export class CommunicationStore {
  constructor(private readonly db: Db) {}

  private joined() {
    return this.db
      .selectFrom('communications')
      .innerJoin('communication_definitions', 'communication_definitions.uuid', 'communications.definition_uuid');
  }

  private static readonly COLUMNS = [
    'communications.uuid',
    'communications.definition_uuid',
    'communications.workspace',
    'communications.target_kind',
    'communications.target_name',
    'communications.communication_type',
    'communications.resolution_status',
    'communications.created_on',
    'communication_definitions.document as definition_document',
  ] as const;

  async find(uuid: string): Promise<Communication | undefined> {
    const row = await this.joined().select(CommunicationStore.COLUMNS).where('communications.uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: CommunicationFilter, page: PageRequest): Promise<Page<Communication>> {
    let query = this.joined();
    if (filter.definitionUuid !== undefined) query = query.where('communications.definition_uuid', '=', filter.definitionUuid);
    if (filter.resolutionStatus !== undefined) query = query.where('communications.resolution_status', '=', filter.resolutionStatus);
    if (filter.type !== undefined) query = query.where('communications.communication_type', '=', filter.type);
    if (filter.workspace !== undefined) query = query.where('communications.workspace', '=', filter.workspace);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.select(CommunicationStore.COLUMNS).orderBy('communications.created_on').orderBy('communications.uuid'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async insert(communication: Communication): Promise<void> {
    await this.db
      .insertInto('communications')
      .values({
        uuid: communication.uuid,
        definition_uuid: communication.definition.uuid,
        workspace: communication.workspace,
        target_kind: communication.target.kind,
        target_name: communication.target.name,
        communication_type: communication.definition.type,
        resolution_status: communication.resolutionStatus ?? null,
        created_on: communication.createdOn,
      })
      .execute();
  }

  /** OPEN → RESOLVED in one statement; false when it was not OPEN (resolved meanwhile, or a NOTIFICATION). */
  async resolve(uuid: string): Promise<boolean> {
    const result = await this.db
      .updateTable('communications')
      .set({ resolution_status: 'RESOLVED' })
      .where('uuid', '=', uuid)
      .where('resolution_status', '=', 'OPEN')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes it; answers its resolution status as it was at the deletion (null: none), or undefined when it was gone already. */
  async delete(uuid: string): Promise<{ resolutionStatus: string | null } | undefined> {
    const row = await this.db.deleteFrom('communications').where('uuid', '=', uuid).returning('resolution_status').executeTakeFirst();
    return row ? { resolutionStatus: row.resolution_status } : undefined;
  }
}
