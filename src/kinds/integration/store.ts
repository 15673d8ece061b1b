import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { IntegrationTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Integration, IntegrationType } from './model.js';

const toModel = (row: Selectable<IntegrationTable>): Integration => ({
  uuid: row.uuid,
  ownedByWorkspace: row.owned_by_workspace,
  displayName: row.display_name,
  type: row.integration_type as IntegrationType,
  builtIn: Boolean(row.built_in),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

export interface IntegrationFilter {
  displayName?: string;
  ownedByWorkspace?: string;
  type?: IntegrationType;
}

/** The `integrations` table. */
export class IntegrationStore {
  constructor(private readonly db: Db) {}

  async insert(integration: Integration): Promise<void> {
    await this.db
      .insertInto('integrations')
      .values({
        uuid: integration.uuid,
        owned_by_workspace: integration.ownedByWorkspace,
        display_name: integration.displayName,
        integration_type: integration.type,
        built_in: integration.builtIn ? 1 : 0,
        document: serializeDocument(integration.document),
        created_on: integration.createdOn,
      })
      .execute();
  }

  async update(integration: Integration): Promise<void> {
    await this.db
      .updateTable('integrations')
      .set({ display_name: integration.displayName, document: serializeDocument(integration.document) })
      .where('uuid', '=', integration.uuid)
      .execute();
  }

  async find(uuid: string): Promise<Integration | undefined> {
    const row = await this.db.selectFrom('integrations').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** `scope`: a workspace-scoped caller sees its workspace's integrations and the built-in ones. */
  async list(filter: IntegrationFilter & { scope?: string }, page: PageRequest): Promise<Page<Integration>> {
    let query = this.db.selectFrom('integrations');
    const scope = filter.scope;
    if (scope !== undefined) query = query.where((eb) => eb.or([eb('owned_by_workspace', '=', scope), eb('built_in', '=', 1)]));
    if (filter.displayName !== undefined) query = query.where('display_name', '=', filter.displayName);
    if (filter.ownedByWorkspace !== undefined) query = query.where('owned_by_workspace', '=', filter.ownedByWorkspace);
    if (filter.type !== undefined) query = query.where('integration_type', '=', filter.type);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  async delete(uuid: string): Promise<void> {
    await this.db.deleteFrom('integrations').where('uuid', '=', uuid).execute();
  }

  /**
   * Definition versions naming the integration (`implementation.<type>.integrationRef.uuid`): they keep
   * it from being deleted. Found by a text search of the stored versions, then checked exactly.
   */
  async usedBy(uuid: string): Promise<number> {
    const { rows } = await sql<{ document: string }>`select document from definition_versions where document like ${`%${uuid}%`}`.execute(
      this.db,
    );
    return rows.filter((row) => {
      const implementation =
        (JSON.parse(row.document) as { implementation?: Record<string, unknown> }).implementation ??
        (JSON.parse(row.document) as { spec?: { implementation?: Record<string, unknown> } }).spec?.implementation;
      return Object.values(implementation ?? {}).some(
        (value) => (value as { integrationRef?: { uuid?: unknown } } | null)?.integrationRef?.uuid === uuid,
      );
    }).length;
  }
}
