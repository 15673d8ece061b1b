import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { PlatformTypeTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import { typeKey, type LifecycleState, type PlatformCategory, type PlatformType } from './model.js';

const toModel = (row: Selectable<PlatformTypeTable>): PlatformType => ({
  name: row.name,
  uuid: row.uuid,
  category: row.category as PlatformCategory,
  lifecycleState: row.lifecycle_state as LifecycleState,
  builtIn: Boolean(row.built_in),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

export interface PlatformTypeFilter {
  category?: PlatformCategory;
  lifecycleState?: LifecycleState;
}

/** The `platform_types` table. */
export class PlatformTypeStore {
  constructor(private readonly db: Db) {}

  async insert(type: PlatformType): Promise<void> {
    await this.db
      .insertInto('platform_types')
      .values({
        name: type.name,
        type_key: typeKey(type.name),
        uuid: type.uuid,
        category: type.category,
        lifecycle_state: type.lifecycleState,
        built_in: type.builtIn ? 1 : 0,
        document: serializeDocument(type.document),
        created_on: type.createdOn,
      })
      .execute();
  }

  async update(type: PlatformType): Promise<void> {
    await this.db
      .updateTable('platform_types')
      .set({ lifecycle_state: type.lifecycleState, document: serializeDocument(type.document) })
      .where('name', '=', type.name)
      .execute();
  }

  async find(name: string): Promise<PlatformType | undefined> {
    const row = await this.db.selectFrom('platform_types').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** By the upper-cased name platforms use (`AZURE`, `MY-TYPE`). */
  async findByKey(key: string): Promise<PlatformType | undefined> {
    const row = await this.db.selectFrom('platform_types').selectAll().where('type_key', '=', typeKey(key)).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: PlatformTypeFilter, page: PageRequest): Promise<Page<PlatformType>> {
    let query = this.db.selectFrom('platform_types');
    if (filter.category !== undefined) query = query.where('category', '=', filter.category);
    if (filter.lifecycleState !== undefined) query = query.where('lifecycle_state', '=', filter.lifecycleState);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }
}
