import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { PaymentMethodTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { PaymentMethod } from './model.js';

const toModel = (row: Selectable<PaymentMethodTable>): PaymentMethod => ({
  name: row.name,
  ownedByWorkspace: row.owned_by_workspace,
  ...(row.expiration_date !== null ? { expirationDate: row.expiration_date } : {}),
  ...(row.deleted_on !== null ? { deletedOn: row.deleted_on } : {}),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

const toRow = (method: PaymentMethod) => ({
  name: method.name,
  owned_by_workspace: method.ownedByWorkspace,
  expiration_date: method.expirationDate ?? null,
  deleted_on: method.deletedOn ?? null,
  document: serializeDocument(method.document),
  created_on: method.createdOn,
});

export interface PaymentMethodFilter {
  workspace?: string;
}

/** The `payment_methods` table. */
export class PaymentMethodStore {
  constructor(private readonly db: Db) {}

  async insert(method: PaymentMethod): Promise<void> {
    await this.db.insertInto('payment_methods').values(toRow(method)).execute();
  }

  /** Deleted ones too: they stay readable by name. */
  async find(name: string): Promise<PaymentMethod | undefined> {
    const row = await this.db.selectFrom('payment_methods').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** Live methods only, in creation order. */
  async list(filter: PaymentMethodFilter, page: PageRequest): Promise<Page<PaymentMethod>> {
    let query = this.db.selectFrom('payment_methods').where('deleted_on', 'is', null);
    if (filter.workspace !== undefined) query = query.where('owned_by_workspace', '=', filter.workspace);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }

  async update(method: PaymentMethod): Promise<void> {
    const { name: _name, created_on: _created, ...row } = toRow(method);
    await this.db.updateTable('payment_methods').set(row).where('name', '=', method.name).execute();
  }
}
