import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventDraft } from '../eventlog/model.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { Platform } from '../platform/model.js';
import type { ProjectService } from '../project/service.js';
import type { ReferenceGraph } from '../references.js';
import type { WorkspaceService } from '../workspace/service.js';
import { parseTenantName, tenantName, type Tenant, type TenantInput } from './model.js';
import { TenantStore, type TenantFilter } from './store.js';
import { TENANT_EVENTS } from './wire/index.js';
import { TENANT_TITLES } from './events.js';

const subject = (tenant: Tenant) => ({ codec: TENANT_EVENTS, id: tenantName(tenant), workspace: tenant.workspace, object: tenant });

/** The records of deleted tenants go with their project or platform (`of`), each with its event. */
export async function purgeDeletedTenants(
  trx: Db,
  of: { workspace: string; project: string } | { platformUuid: string },
  events: EventDraft[],
): Promise<void> {
  for (const tenant of await new TenantStore(trx).purgeDeletedOf(of))
    events.push(
      eventOf(TENANT_TITLES.tenantPurged, { codec: TENANT_EVENTS, id: tenant.uuid, workspace: tenant.workspace, object: tenant }),
    );
}

/** Tenants without any notion of who asks (AuthorizedTenantService adds that). */
export class TenantService {
  private readonly store: TenantStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new TenantStore(db);
  }

  /** The owning workspace and project of a new tenant exist (the caller may act there: checked before). */
  async requireOwners(input: TenantInput): Promise<void> {
    await this.workspaces.requireExists(input.workspace, 'metadata.ownedByWorkspace');
    await this.projects.requireExisting(input.workspace, input.project, 'metadata.ownedByProject');
  }

  async create(ctx: RequestContext, input: TenantInput, platform: Platform): Promise<Tenant> {
    const tenant: Tenant = {
      uuid: randomUUID(),
      workspace: input.workspace,
      project: input.project,
      platform: { uuid: platform.uuid, name: platform.name, location: platform.location, platformType: platform.platformType },
      // No replication here: the tenant exists at once, under a generated id unless one was imported.
      platformTenantId: input.platformTenantId ?? `${input.workspace}-${input.project}`,
      ...(input.landingZone !== undefined ? { landingZone: input.landingZone } : {}),
      createdOn: new Date().toISOString(),
      document: input.document,
    };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new TenantStore(trx).insert(tenant);
        events.push(eventOf(TENANT_TITLES.tenantCreated, subject(tenant)));
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(
          `meshProject ${input.workspace}.${input.project} already has a meshTenant on platform ${platform.name}.${platform.location}`,
        );
      throw error;
    }
    return tenant;
  }

  findLive(workspace: string, project: string, platformUuid: string): Promise<Tenant | undefined> {
    return this.store.findLive(workspace, project, platformUuid);
  }

  /** The import's update of a live tenant: landing zone, platform tenant id and extra fields. */
  async update(ctx: RequestContext, existing: Tenant, input: TenantInput): Promise<Tenant> {
    const { landingZone: _previous, ...kept } = existing;
    const tenant: Tenant = {
      ...kept,
      platformTenantId: input.platformTenantId ?? existing.platformTenantId,
      ...(input.landingZone !== undefined ? { landingZone: input.landingZone } : {}),
      document: input.document,
    };
    if (!differs(existing, tenant)) return tenant;
    await this.events.change(ctx, async (trx, events) => {
      await new TenantStore(trx).update(tenant);
      events.push(eventOf(TENANT_TITLES.tenantChanged, { ...subject(tenant), previous: existing }));
    });
    return tenant;
  }

  /** By uuid, or by its full name `<ws>.<project>.<platform>.<location>` (the live tenant). */
  async find(identifier: string): Promise<Tenant | undefined> {
    const uuid = canonicalUuid(identifier);
    if (uuid) return this.store.find(uuid);
    const name = parseTenantName(identifier);
    return name ? this.store.findLiveByName(name) : undefined;
  }

  list(filter: TenantFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** Deleting is immediate (there is no replication to undo); the record stays until purged. */
  async delete(ctx: RequestContext, tenant: Tenant): Promise<void> {
    await this.requireUnused(tenant);
    const deletedOn = new Date().toISOString();
    await this.events.change(ctx, async (trx, events) => {
      await new TenantStore(trx).markDeleted(tenant.uuid, deletedOn);
      events.push(eventOf(TENANT_TITLES.tenantDeleted, subject({ ...tenant, deletedOn })));
    });
  }

  async purge(ctx: RequestContext, tenant: Tenant): Promise<void> {
    await this.requireUnused(tenant);
    await this.events.change(ctx, async (trx, events) => {
      await new TenantStore(trx).purge(tenant.uuid);
      events.push(eventOf(TENANT_TITLES.tenantPurged, subject(tenant)));
    });
  }

  private async requireUnused(tenant: Tenant): Promise<void> {
    const dependents = await this.references.holding(this.db, 'tenant', [tenant.uuid]);
    if (dependents.length > 0)
      throw conflict(`meshTenant ${tenantName(tenant)} is still the target of ${dependents.join(', ')}; delete them first`);
  }
}
