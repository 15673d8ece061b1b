import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../http/paging.js';
import { fetchPage } from '../../store/paged.js';
import { findDependents, type Dependent } from '../../store/dependents.js';
import type { Tables, WorkspaceTable } from '../../store/schema.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Workspace } from './model.js';

/** What a workspace owns: it cannot be deleted while any of these exist (issue 4). */
export const WORKSPACE_DEPENDENTS: Dependent[] = [
  { kind: 'meshProjects', table: 'projects', columns: ['workspace'] },
  { kind: 'meshPlatforms', table: 'platforms', columns: ['owned_by_workspace'] },
  { kind: 'meshLocations', table: 'locations', columns: ['owned_by_workspace'] },
  { kind: 'meshBuildingBlockDefinitions', table: 'definitions', columns: ['owned_by_workspace'] },
  { kind: 'meshBuildingBlockRunners', table: 'runners', columns: ['owned_by_workspace'] },
  { kind: 'meshBuildingBlocks', table: 'building_blocks', columns: ['workspace'] },
];

const toModel = (row: Selectable<WorkspaceTable>): Workspace => ({ name: row.name, createdOn: row.created_on, document: parseDocument(row.document) });

export class WorkspaceStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(workspace: Workspace): Promise<void> {
    await this.db.insertInto('workspaces').values({ name: workspace.name, document: serializeDocument(workspace.document), created_on: workspace.createdOn }).execute();
  }

  async find(name: string): Promise<Workspace | undefined> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async exists(name: string): Promise<boolean> {
    return (await this.db.selectFrom('workspaces').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async list(filter: { name?: string }, page: PageRequest): Promise<{ items: Workspace[]; total: number }> {
    let query = this.db.selectFrom('workspaces');
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }

  async update(workspace: Workspace): Promise<void> {
    await this.db.updateTable('workspaces').set({ document: serializeDocument(workspace.document) }).where('name', '=', workspace.name).execute();
  }

  dependents(name: string): Promise<string[]> {
    return findDependents(this.db, WORKSPACE_DEPENDENTS, [name]);
  }

  /** Removes the workspace and its API keys in one transaction. */
  async delete(name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('api_keys').where('owned_by_workspace', '=', name).execute();
      await trx.deleteFrom('workspaces').where('name', '=', name).execute();
    });
  }
}
