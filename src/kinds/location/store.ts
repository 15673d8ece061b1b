import { sql } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { LocationTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Location } from './model.js';

/** Computed in the same query as the row: no per-row lookups for a list. */
const isPublic =
  sql<number>`(case when exists (select 1 from platforms p where p.location = locations.name and p.is_public = 1) then 1 else 0 end)`.as(
    'is_public',
  );

type Row = LocationTable & { is_public: number | boolean };

const toModel = (row: Row): Location => ({
  name: row.name,
  uuid: row.uuid,
  displayName: row.display_name,
  ...(row.owned_by_workspace !== null ? { ownedByWorkspace: row.owned_by_workspace } : {}),
  createdOn: row.created_on,
  isPublic: Boolean(row.is_public),
  document: parseDocument(row.document),
});

/** The `locations` table. */
export class LocationStore {
  constructor(private readonly db: Db) {}

  private selectRows() {
    return this.db.selectFrom('locations').selectAll('locations').select(isPublic);
  }

  async insert(location: Omit<Location, 'isPublic'>): Promise<void> {
    await this.db
      .insertInto('locations')
      .values({
        name: location.name,
        uuid: location.uuid,
        display_name: location.displayName,
        owned_by_workspace: location.ownedByWorkspace ?? null,
        document: serializeDocument(location.document),
        created_on: location.createdOn,
      })
      .execute();
  }

  async find(name: string): Promise<Location | undefined> {
    const row = await this.selectRows().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async exists(name: string): Promise<boolean> {
    return (await this.db.selectFrom('locations').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async list(filter: { displayName?: string }, page: PageRequest): Promise<Page<Location>> {
    let query = this.db.selectFrom('locations');
    if (filter.displayName !== undefined) query = query.where('display_name', '=', filter.displayName);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.selectAll('locations').select(isPublic).orderBy('created_on').orderBy('name'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async update(location: Omit<Location, 'isPublic'>): Promise<void> {
    await this.db
      .updateTable('locations')
      .set({
        display_name: location.displayName,
        owned_by_workspace: location.ownedByWorkspace ?? null,
        document: serializeDocument(location.document),
      })
      .where('name', '=', location.name)
      .execute();
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('locations').where('name', '=', name).execute();
  }
}
