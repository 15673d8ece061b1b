import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { LandingZoneTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { LandingZone } from './model.js';

const toModel = (row: Selectable<LandingZoneTable>): LandingZone => ({
  name: row.name,
  platformUuid: row.platform_uuid,
  ownedByWorkspace: row.owned_by_workspace,
  displayName: row.display_name,
  restricted: Boolean(row.restricted),
  ...(row.disabled_on !== null ? { disabledOn: row.disabled_on } : {}),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

const toRow = (zone: LandingZone) => ({
  name: zone.name,
  platform_uuid: zone.platformUuid,
  owned_by_workspace: zone.ownedByWorkspace,
  display_name: zone.displayName,
  restricted: zone.restricted ? 1 : 0,
  disabled_on: zone.disabledOn ?? null,
  document: serializeDocument(zone.document),
  created_on: zone.createdOn,
});

export interface LandingZoneFilter {
  name?: string;
  displayName?: string;
  platformUuid?: string;
  ownedByWorkspace?: string;
  disabled?: boolean;
  restricted?: boolean;
}

/** The `landing_zones` table. */
export class LandingZoneStore {
  constructor(private readonly db: Db) {}

  async insert(zone: LandingZone): Promise<void> {
    await this.db.insertInto('landing_zones').values(toRow(zone)).execute();
  }

  async update(zone: LandingZone): Promise<void> {
    const { name: _name, created_on: _created, platform_uuid: _platform, ...row } = toRow(zone);
    await this.db.updateTable('landing_zones').set(row).where('name', '=', zone.name).execute();
  }

  async find(name: string): Promise<LandingZone | undefined> {
    const row = await this.db.selectFrom('landing_zones').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** `workspace`: only that workspace's zones (a caller's scope). */
  async list(filter: LandingZoneFilter & { scope?: string }, page: PageRequest): Promise<Page<LandingZone>> {
    let query = this.db.selectFrom('landing_zones');
    if (filter.scope !== undefined) query = query.where('owned_by_workspace', '=', filter.scope);
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    if (filter.displayName !== undefined) query = query.where('display_name', '=', filter.displayName);
    if (filter.platformUuid !== undefined) query = query.where('platform_uuid', '=', filter.platformUuid);
    if (filter.ownedByWorkspace !== undefined) query = query.where('owned_by_workspace', '=', filter.ownedByWorkspace);
    if (filter.disabled !== undefined) query = query.where('disabled_on', filter.disabled ? 'is not' : 'is', null);
    if (filter.restricted !== undefined) query = query.where('restricted', '=', filter.restricted ? 1 : 0);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('name'), page);
    return { items: rows.map(toModel), total };
  }
}
