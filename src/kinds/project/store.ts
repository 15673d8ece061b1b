import type { Kysely, Selectable } from 'kysely';
import type { PageRequest } from '../../http/paging.js';
import { findDependents, type Dependent } from '../../store/dependents.js';
import { fetchPage } from '../../store/paged.js';
import type { ProjectTable, Tables } from '../../store/schema.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Project } from './model.js';

/** A project cannot be deleted while live tenants belong to it (issue 4). */
const PROJECT_DEPENDENTS: Dependent[] = [{ kind: 'meshTenants', table: 'tenants', columns: ['workspace', 'project'], unlessSet: 'deleted_on' }];

const toModel = (row: Selectable<ProjectTable>): Project => ({
  workspace: row.workspace,
  name: row.name,
  ...(row.payment_method !== null ? { paymentMethodIdentifier: row.payment_method } : {}),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

export interface ProjectFilter {
  workspace?: string;
  paymentMethod?: string;
}

export class ProjectStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(project: Project): Promise<void> {
    await this.db
      .insertInto('projects')
      .values({ workspace: project.workspace, name: project.name, payment_method: project.paymentMethodIdentifier ?? null, document: serializeDocument(project.document), created_on: project.createdOn })
      .execute();
  }

  async find(workspace: string, name: string): Promise<Project | undefined> {
    const row = await this.db.selectFrom('projects').selectAll().where('workspace', '=', workspace).where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: ProjectFilter, page: PageRequest): Promise<{ items: Project[]; total: number }> {
    let query = this.db.selectFrom('projects');
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.paymentMethod !== undefined) query = query.where('payment_method', '=', filter.paymentMethod);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('workspace').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }

  async update(project: Project): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ payment_method: project.paymentMethodIdentifier ?? null, document: serializeDocument(project.document) })
      .where('workspace', '=', project.workspace)
      .where('name', '=', project.name)
      .execute();
  }

  dependents(project: Project): Promise<string[]> {
    return findDependents(this.db, PROJECT_DEPENDENTS, [project.workspace, project.name]);
  }

  /** Removes the project with the records of its deleted tenants, in one transaction. */
  async delete(project: Project): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tenants').where('workspace', '=', project.workspace).where('project', '=', project.name).where('deleted_on', 'is not', null).execute();
      await trx.deleteFrom('projects').where('workspace', '=', project.workspace).where('name', '=', project.name).execute();
    });
  }
}
