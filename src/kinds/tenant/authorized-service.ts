import { isAdminFor, isAllowed, isAllowedAsManager, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { forbidden, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Platform } from '../platform/model.js';
import type { Tenant, TenantInput } from './model.js';
import type { TenantService } from './service.js';
import type { TenantQuery } from './parse-tenant-filter.js';

/**
 * `TENANT_*` act on tenants of the key's own workspace, `ADM_TENANT_*` on all. Importing a tenant
 * with its platform tenant id needs `ADM_TENANT_IMPORT`, or `MANAGED_TENANT_IMPORT` in the workspace
 * that owns the platform; purging needs admin rights.
 */
export class AuthorizedTenantService {
  constructor(private readonly inner: TenantService) {}

  async get(principal: Principal, identifier: string): Promise<Tenant> {
    const tenant = await this.inner.get(identifier);
    if (!isAllowed(principal, 'TENANT', 'LIST', tenant.workspace)) throw notFound(`meshTenant ${identifier} not found`);
    return tenant;
  }

  async list(principal: Principal, filter: TenantQuery, page: PageRequest) {
    const scope = listScope(principal, 'TENANT');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return { items: [], total: 0 };
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  private requireImport(principal: Principal, input: TenantInput, platform: Platform): void {
    if (input.platformTenantId !== undefined && !isAllowedAsManager(principal, 'TENANT_IMPORT', platform.ownedByWorkspace)) {
      throw forbidden("you don't have sufficient permissions: spec.platformTenantId needs ADM_TENANT_IMPORT (or MANAGED_TENANT_IMPORT of the platform's workspace)");
    }
  }

  async create(principal: Principal, input: TenantInput): Promise<Tenant> {
    requireAllowed(principal, 'TENANT', 'SAVE', input.workspace);
    const platform = await this.inner.resolve(input);
    this.requireImport(principal, input, platform);
    return this.inner.create(input, platform);
  }

  /** The declarative import: create, or update the live tenant of the project on the platform. */
  async save(principal: Principal, input: TenantInput): Promise<{ tenant: Tenant; created: boolean }> {
    requireAllowed(principal, 'TENANT', 'SAVE', input.workspace);
    const platform = await this.inner.resolve(input);
    this.requireImport(principal, input, platform);
    const existing = await this.inner.findLive(input.workspace, input.project, platform.uuid);
    if (!existing) return { tenant: await this.inner.create(input, platform), created: true };
    return { tenant: await this.inner.update(existing, input), created: false };
  }

  async delete(principal: Principal, identifier: string, purge: boolean): Promise<void> {
    const tenant = await this.get(principal, identifier);
    requireAllowed(principal, 'TENANT', 'DELETE', tenant.workspace);
    if (!purge) return this.inner.delete(tenant);
    if (!isAdminFor(principal, 'TENANT', 'DELETE')) throw forbidden("you don't have sufficient permissions: purging a tenant needs ADM_TENANT_DELETE");
    await this.inner.purge(tenant);
  }
}
