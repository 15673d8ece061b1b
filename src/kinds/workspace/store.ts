import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { WorkspaceTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Workspace } from './model.js';

const toModel = (row: Selectable<WorkspaceTable>): Workspace => ({
  name: row.name,
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

/** The `workspaces` table. */
export class WorkspaceStore {
  constructor(private readonly db: Db) {}

  async insert(workspace: Workspace): Promise<void> {
    await this.db
      .insertInto('workspaces')
      .values({ name: workspace.name, document: serializeDocument(workspace.document), created_on: workspace.createdOn })
      .execute();
  }

  async find(name: string): Promise<Workspace | undefined> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async exists(name: string): Promise<boolean> {
    return (await this.db.selectFrom('workspaces').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async list(filter: { name?: string }, page: PageRequest): Promise<Page<Workspace>> {
    let query = this.db.selectFrom('workspaces');
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }

  /** Identifiers of the workspaces whose `spec.displayName` contains `text` (case-insensitive), at most 1000. */
  async namesWithDisplayNameContaining(text: string): Promise<string[]> {
    const needle = text.toLowerCase();
    const rows = await this.db.selectFrom('workspaces').select(['name', 'document']).orderBy('name').execute();
    return rows
      .filter((row) => {
        const displayName = parseDocument(row.document).spec.displayName;
        return typeof displayName === 'string' && displayName.toLowerCase().includes(needle);
      })
      .map((row) => row.name)
      .slice(0, 1000);
  }

  async update(workspace: Workspace): Promise<void> {
    await this.db
      .updateTable('workspaces')
      .set({ document: serializeDocument(workspace.document) })
      .where('name', '=', workspace.name)
      .execute();
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('workspaces').where('name', '=', name).execute();
  }
}
