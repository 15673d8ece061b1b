import { sql } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import { fetchPage } from '../../store/paged.js';
import type { TenantTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Tenant, TenantState } from './model.js';

const PLATFORM_COLUMNS = [
  'platforms.name as platform_name',
  'platforms.location as platform_location',
  'platforms.platform_type as platform_type',
] as const;

type Row = TenantTable & { platform_name: string; platform_location: string; platform_type: string };

const toModel = (row: Row): Tenant => ({
  uuid: row.uuid,
  workspace: row.workspace,
  project: row.project,
  platform: { uuid: row.platform_uuid, name: row.platform_name, location: row.platform_location, platformType: row.platform_type },
  platformTenantId: row.platform_tenant_id,
  ...(row.landing_zone !== null ? { landingZone: row.landing_zone } : {}),
  createdOn: row.created_on,
  ...(row.deleted_on !== null ? { deletedOn: row.deleted_on } : {}),
  document: parseDocument(row.document),
});

/** The tenant list's filters, combined with AND; `states`: any of them. */
export interface TenantFilter {
  workspace?: string;
  project?: string;
  /** The platform's full identifier, `<platform>.<location>`. */
  platform?: { name: string; location: string };
  /** The platform's type (upper case). */
  platformType?: string;
  landingZone?: string;
  platformTenantId?: string;
  /** ACTIVE and/or DELETED (at least one). */
  states: Exclude<TenantState, 'MARKED_FOR_DELETION'>[];
}

/** The `tenants` table; reads join the platform a tenant's name and type come from. */
export class TenantStore {
  /** A tenant by uuid is read by every block create on a tenant: compiled once. */
  private readonly queries: CompiledQueries;

  constructor(private readonly db: Db) {
    this.queries = new CompiledQueries(db, 'tenants');
  }

  private fromJoin() {
    return this.db.selectFrom('tenants').innerJoin('platforms', 'platforms.uuid', 'tenants.platform_uuid');
  }

  /** Tenants with the platform fields their name and type come from, in one query. */
  private joined() {
    return this.fromJoin().selectAll('tenants').select(PLATFORM_COLUMNS);
  }

  async insert(tenant: Tenant): Promise<void> {
    await this.db
      .insertInto('tenants')
      .values({
        uuid: tenant.uuid,
        workspace: tenant.workspace,
        project: tenant.project,
        platform_uuid: tenant.platform.uuid,
        platform_tenant_id: tenant.platformTenantId,
        landing_zone: tenant.landingZone ?? null,
        document: serializeDocument(tenant.document),
        created_on: tenant.createdOn,
        deleted_on: null,
      })
      .execute();
  }

  async update(tenant: Tenant): Promise<void> {
    await this.db
      .updateTable('tenants')
      .set({
        platform_tenant_id: tenant.platformTenantId,
        landing_zone: tenant.landingZone ?? null,
        document: serializeDocument(tenant.document),
      })
      .where('uuid', '=', tenant.uuid)
      .execute();
  }

  async find(uuid: string): Promise<Tenant | undefined> {
    const [row] = await this.queries.execute('find', [uuid], (id) => this.joined().where('tenants.uuid', '=', id));
    return row ? toModel(row) : undefined;
  }

  /** The live tenant of a project on a platform. */
  async findLive(workspace: string, project: string, platformUuid: string): Promise<Tenant | undefined> {
    const row = await this.joined()
      .where('tenants.workspace', '=', workspace)
      .where('tenants.project', '=', project)
      .where('tenants.platform_uuid', '=', platformUuid)
      .where('tenants.deleted_on', 'is', null)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** The live tenant named `<workspace>.<project>.<platform>.<location>`. */
  async findLiveByName(name: { workspace: string; project: string; platform: string; location: string }): Promise<Tenant | undefined> {
    const row = await this.joined()
      .where('tenants.workspace', '=', name.workspace)
      .where('tenants.project', '=', name.project)
      .where('platforms.name', '=', name.platform)
      .where('platforms.location', '=', name.location)
      .where('tenants.deleted_on', 'is', null)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: TenantFilter, page: PageRequest): Promise<Page<Tenant>> {
    let query = this.fromJoin();
    if (filter.workspace !== undefined) query = query.where('tenants.workspace', '=', filter.workspace);
    if (filter.project !== undefined) query = query.where('tenants.project', '=', filter.project);
    if (filter.platform !== undefined)
      query = query.where('platforms.name', '=', filter.platform.name).where('platforms.location', '=', filter.platform.location);
    if (filter.platformType !== undefined) query = query.where('platforms.platform_type', '=', filter.platformType);
    if (filter.landingZone !== undefined) query = query.where('tenants.landing_zone', '=', filter.landingZone);
    if (filter.platformTenantId !== undefined) query = query.where('tenants.platform_tenant_id', '=', filter.platformTenantId);
    const active = filter.states.includes('ACTIVE');
    const deleted = filter.states.includes('DELETED');
    if (active && !deleted) query = query.where('tenants.deleted_on', 'is', null);
    if (deleted && !active) query = query.where('tenants.deleted_on', 'is not', null);
    const { rows, total } = await fetchPage(
      query,
      (q) => q.selectAll('tenants').select(PLATFORM_COLUMNS).orderBy('tenants.created_on').orderBy('tenants.uuid'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  /** Marks the tenant deleted (idempotent); the time it was first deleted stays. */
  async markDeleted(uuid: string, at: string): Promise<void> {
    await this.db
      .updateTable('tenants')
      .set({ deleted_on: sql`coalesce(deleted_on, ${at})` })
      .where('uuid', '=', uuid)
      .execute();
  }

  async purge(uuid: string): Promise<void> {
    await this.db.deleteFrom('tenants').where('uuid', '=', uuid).execute();
  }

  /** Forgets the deleted tenants of a project or platform that goes (their units of work). */
  /** Forgets the records of the deleted tenants of a project or platform; answers them as they were (their events). */
  async purgeDeletedOf(of: { workspace: string; project: string } | { platformUuid: string }): Promise<Tenant[]> {
    let select = this.joined().where('tenants.deleted_on', 'is not', null);
    select =
      'platformUuid' in of
        ? select.where('tenants.platform_uuid', '=', of.platformUuid)
        : select.where('tenants.workspace', '=', of.workspace).where('tenants.project', '=', of.project);
    const purged = (await select.execute()).map(toModel);
    let query = this.db.deleteFrom('tenants').where('deleted_on', 'is not', null);
    query =
      'platformUuid' in of
        ? query.where('platform_uuid', '=', of.platformUuid)
        : query.where('workspace', '=', of.workspace).where('project', '=', of.project);
    await query.execute();
    return purged;
  }
}
