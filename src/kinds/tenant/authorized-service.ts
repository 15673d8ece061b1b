import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, isAllowedAsManager, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedLandingZoneService } from '../landingzone/authorized-service.js';
import type { AuthorizedPlatformService } from '../platform/authorized-service.js';
import { isAvailableTo, type Platform } from '../platform/model.js';
import { CallerView } from '../view.js';
import { quotasOf, type Tenant, type TenantInput } from './model.js';
import { appliedQuotas, checkRequestedQuotas } from './quotas.js';
import type { TenantService } from './service.js';
import type { TenantFilter } from './store.js';

/**
 * Tenants as the caller sees them: its own workspace's (`TENANT_*`), or all (`ADM_TENANT_*`). A tenant
 * stands only on a platform available to its workspace (admins excepted).
 * Importing a tenant with its platform tenant id needs `ADM_TENANT_IMPORT`, or `MANAGED_TENANT_IMPORT`
 * in the workspace that owns the platform; purging needs admin rights.
 */
export class AuthorizedTenantService extends CallerView<Tenant> {
  protected readonly kindName = 'meshTenant';

  constructor(
    private readonly inner: TenantService,
    private readonly platforms: AuthorizedPlatformService,
    private readonly landingZones: AuthorizedLandingZoneService,
  ) {
    super();
  }

  /** By uuid, or by the full name of the live tenant. */
  async find(ctx: RequestContext, identifier: string): Promise<Tenant | undefined> {
    const tenant = await this.inner.find(identifier);
    return tenant && seesWorkspace(ctx.principal, 'TENANT', tenant.workspace) ? tenant : undefined;
  }

  /** A tenant a body targets: it must be visible and not deleted (a deleted one is as good as none). */
  async resolveLive(ctx: RequestContext, identifier: string, field: string): Promise<Tenant> {
    const tenant = await this.find(ctx, identifier);
    if (!tenant || tenant.deletedOn !== undefined) throw this.doesNotExist(identifier, field);
    return tenant;
  }

  list(ctx: RequestContext, filter: TenantFilter, page: PageRequest): Promise<Page<Tenant>> {
    const scope = listScope(ctx.principal, 'TENANT');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return Promise.resolve(emptyPage());
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  /** The owners (permission first, then existence), then the platform through the caller's view. */
  private async resolveInput(ctx: RequestContext, input: TenantInput): Promise<Platform> {
    requireAllowed(ctx.principal, 'TENANT', 'SAVE', input.workspace);
    await this.inner.requireOwners(input);
    const found: Platform[] = [];
    for (const reference of input.platformRefs) {
      found.push(
        await this.platforms.resolveReference(ctx, reference, 'uuid' in reference ? 'spec.platformRef.uuid' : 'spec.platformIdentifier'),
      );
    }
    if (found.some((platform) => platform.uuid !== found[0]!.uuid))
      throw badRequest('spec.platformRef and spec.platformIdentifier name different platforms');
    const platform = found[0]!;
    if (!isAvailableTo(platform, input.workspace) && !isAdminFor(ctx.principal, 'TENANT', 'SAVE')) {
      throw insufficientPermissions(
        `meshPlatform ${platform.name}.${platform.location} is not available to workspace ${input.workspace} (its own, PUBLIC or RESTRICTED to it)`,
      );
    }
    if (input.platformTenantId !== undefined && !isAllowedAsManager(ctx.principal, 'TENANT_IMPORT', platform.ownedByWorkspace)) {
      throw insufficientPermissions("spec.platformTenantId needs ADM_TENANT_IMPORT (or MANAGED_TENANT_IMPORT of the platform's workspace)");
    }
    return platform;
  }

  /**
   * The landing zone a tenant names (an enabled zone of its platform, unless the tenant keeps the one
   * it has), the requested quotas within the platform's bounds, and the quotas it gets: the zone's,
   * each overridden by its own request (kept as `status.appliedQuotas`).
   */
  private async placed(ctx: RequestContext, input: TenantInput, platform: Platform, existing: Tenant | undefined): Promise<TenantInput> {
    const zone =
      input.landingZone === undefined
        ? undefined
        : await this.landingZones.resolveForTenant(
            ctx,
            input.landingZone,
            platform,
            'spec.landingZoneIdentifier',
            existing?.landingZone === input.landingZone,
          );
    const requested = quotasOf(input);
    const field = Array.isArray(input.document.spec.quotas) ? 'spec.quotas' : 'spec.requestedQuotas';
    checkRequestedQuotas(requested, platform.document.spec, field, isAdminFor(ctx.principal, 'TENANT', 'SAVE'));
    return { ...input, document: { ...input.document, status: { appliedQuotas: appliedQuotas(requested, zone?.document.spec) } } };
  }

  async create(ctx: RequestContext, input: TenantInput): Promise<Tenant> {
    const platform = await this.resolveInput(ctx, input);
    return this.inner.create(ctx, await this.placed(ctx, input, platform, undefined), platform);
  }

  /** The declarative import: create, or update the live tenant of the project on the platform. */
  async save(ctx: RequestContext, input: TenantInput): Promise<{ tenant: Tenant; created: boolean }> {
    const platform = await this.resolveInput(ctx, input);
    const existing = await this.inner.findLive(input.workspace, input.project, platform.uuid);
    const placed = await this.placed(ctx, input, platform, existing);
    if (!existing) return { tenant: await this.inner.create(ctx, placed, platform), created: true };
    return { tenant: await this.inner.update(ctx, existing, placed), created: false };
  }

  async delete(ctx: RequestContext, identifier: string, purge: boolean): Promise<void> {
    const tenant = await this.get(ctx, identifier);
    requireAllowed(ctx.principal, 'TENANT', 'DELETE', tenant.workspace);
    if (!purge) return this.inner.delete(ctx, tenant);
    if (!isAdminFor(ctx.principal, 'TENANT', 'DELETE')) throw insufficientPermissions('purging a tenant needs ADM_TENANT_DELETE');
    await this.inner.purge(ctx, tenant);
  }
}
