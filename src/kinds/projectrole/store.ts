import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { ProjectRoleTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { ProjectRole } from './model.js';

const toModel = (row: Selectable<ProjectRoleTable>): ProjectRole => ({
  name: row.name,
  displayName: row.display_name,
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

/** The `project_roles` table. */
export class ProjectRoleStore {
  constructor(private readonly db: Db) {}

  async insert(role: ProjectRole): Promise<void> {
    await this.db
      .insertInto('project_roles')
      .values({ name: role.name, display_name: role.displayName, document: serializeDocument(role.document), created_on: role.createdOn })
      .execute();
  }

  async update(role: ProjectRole): Promise<void> {
    await this.db
      .updateTable('project_roles')
      .set({ display_name: role.displayName, document: serializeDocument(role.document) })
      .where('name', '=', role.name)
      .execute();
  }

  async find(name: string): Promise<ProjectRole | undefined> {
    const row = await this.db.selectFrom('project_roles').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** By `spec.name` ("Project Admin"), else by identifier (`project-admin`). */
  async findByRoleName(roleName: string): Promise<ProjectRole | undefined> {
    const rows = await this.db
      .selectFrom('project_roles')
      .selectAll()
      .where((eb) => eb.or([eb('display_name', '=', roleName), eb('name', '=', roleName)]))
      .execute();
    const row = rows.find((r) => r.display_name === roleName) ?? rows[0];
    return row ? toModel(row) : undefined;
  }

  async list(page: PageRequest): Promise<Page<ProjectRole>> {
    const { rows, total } = await fetchPage(
      this.db.selectFrom('project_roles'),
      (q) => q.selectAll().orderBy('created_on').orderBy('name'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('project_roles').where('name', '=', name).execute();
  }
}
