import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { findDependents } from '../../store/dependents.js';
import { fetchPage } from '../../store/paged.js';
import type { PlatformTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Platform } from './model.js';

const toModel = (row: Selectable<PlatformTable>): Platform => ({
  uuid: row.uuid,
  name: row.name,
  location: row.location,
  ownedByWorkspace: row.owned_by_workspace,
  platformType: row.platform_type,
  isPublic: Boolean(row.is_public),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

const toRow = (platform: Platform): PlatformTable => ({
  uuid: platform.uuid,
  name: platform.name,
  location: platform.location,
  owned_by_workspace: platform.ownedByWorkspace,
  platform_type: platform.platformType,
  is_public: platform.isPublic ? 1 : 0,
  document: serializeDocument(platform.document),
  created_on: platform.createdOn,
});

export interface PlatformFilter {
  name?: string;
  location?: string;
  ownedByWorkspace?: string;
  platformType?: string;
}

/** The `platforms` table. */
export class PlatformStore {
  constructor(private readonly db: Db) {}

  async insert(platform: Platform): Promise<void> {
    await this.db.insertInto('platforms').values(toRow(platform)).execute();
  }

  async find(uuid: string): Promise<Platform | undefined> {
    const row = await this.db.selectFrom('platforms').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async findByIdentifier(name: string, location: string): Promise<Platform | undefined> {
    const row = await this.db.selectFrom('platforms').selectAll().where('name', '=', name).where('location', '=', location).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: PlatformFilter, page: PageRequest): Promise<Page<Platform>> {
    let query = this.db.selectFrom('platforms');
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    if (filter.location !== undefined) query = query.where('location', '=', filter.location);
    if (filter.ownedByWorkspace !== undefined) query = query.where('owned_by_workspace', '=', filter.ownedByWorkspace);
    if (filter.platformType !== undefined) query = query.where('platform_type', '=', filter.platformType);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  async update(platform: Platform): Promise<void> {
    const { uuid, created_on: _created, ...rest } = toRow(platform);
    await this.db.updateTable('platforms').set(rest).where('uuid', '=', uuid).execute();
  }

  /** A platform cannot be deleted while live tenants stand on it (issue 4). */
  dependents(uuid: string): Promise<string[]> {
    return findDependents(this.db, 'platform', [uuid]);
  }

  async delete(uuid: string): Promise<void> {
    await this.db.deleteFrom('platforms').where('uuid', '=', uuid).execute();
  }
}
