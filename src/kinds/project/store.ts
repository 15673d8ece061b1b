import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { ProjectTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Project } from './model.js';

/**
 * The active payment method, computed in the row's query: the payment method while live and
 * not expired (valid through its expiration date, UTC), else the substitute while it is.
 */
const activePaymentMethod = () => {
  const today = new Date().toISOString().slice(0, 10);
  const usable = (column: 'payment_method' | 'substitute_payment_method') =>
    sql<
      string | null
    >`(select pm.name from payment_methods pm where pm.name = projects.${sql.ref(column)} and pm.deleted_on is null and (pm.expiration_date is null or pm.expiration_date >= ${today}))`;
  return sql<string | null>`coalesce(${usable('payment_method')}, ${usable('substitute_payment_method')})`.as('active_payment_method');
};

type Row = Selectable<ProjectTable> & { active_payment_method: string | null };

const toModel = (row: Row): Project => ({
  workspace: row.workspace,
  name: row.name,
  ...(row.payment_method !== null ? { paymentMethodIdentifier: row.payment_method } : {}),
  ...(row.substitute_payment_method !== null ? { substitutePaymentMethodIdentifier: row.substitute_payment_method } : {}),
  ...(row.active_payment_method !== null ? { activePaymentMethod: row.active_payment_method } : {}),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

export interface ProjectFilter {
  workspace?: string;
  paymentMethod?: string;
}

/** The `projects` table. */
export class ProjectStore {
  constructor(private readonly db: Db) {}

  async insert(project: Project): Promise<void> {
    await this.db
      .insertInto('projects')
      .values({
        workspace: project.workspace,
        name: project.name,
        payment_method: project.paymentMethodIdentifier ?? null,
        substitute_payment_method: project.substitutePaymentMethodIdentifier ?? null,
        document: serializeDocument(project.document),
        created_on: project.createdOn,
      })
      .execute();
  }

  async find(workspace: string, name: string): Promise<Project | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .selectAll('projects')
      .select(activePaymentMethod())
      .where('workspace', '=', workspace)
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: ProjectFilter, page: PageRequest): Promise<Page<Project>> {
    let query = this.db.selectFrom('projects');
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.paymentMethod !== undefined) query = query.where('payment_method', '=', filter.paymentMethod);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.selectAll('projects').select(activePaymentMethod()).orderBy('created_on').orderBy('workspace').orderBy('name'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async update(project: Project): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({
        payment_method: project.paymentMethodIdentifier ?? null,
        substitute_payment_method: project.substitutePaymentMethodIdentifier ?? null,
        document: serializeDocument(project.document),
      })
      .where('workspace', '=', project.workspace)
      .where('name', '=', project.name)
      .execute();
  }

  async delete(project: Project): Promise<void> {
    await this.db.deleteFrom('projects').where('workspace', '=', project.workspace).where('name', '=', project.name).execute();
  }
}
