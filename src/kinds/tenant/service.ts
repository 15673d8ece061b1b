import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUuid } from '../../http/validation.js';
import { isUniqueViolation } from '../../store/database.js';
import type { PlatformService } from '../platform/service.js';
import type { Platform } from '../platform/model.js';
import type { ProjectService } from '../project/service.js';
import type { WorkspaceService } from '../workspace/service.js';
import { parseTenantName, tenantName, type Tenant, type TenantInput } from './model.js';
import type { TenantQuery } from './parse-tenant-filter.js';
import type { TenantStore } from './store.js';

/** Tenants without any notion of who asks (AuthorizedTenantService adds that). */
export class TenantService {
  constructor(
    private readonly store: TenantStore,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly platforms: PlatformService,
  ) {}

  /** The platform a body names; both forms, when sent, must name the same one. */
  async resolvePlatform(input: TenantInput): Promise<Platform> {
    const found: Platform[] = [];
    for (const reference of input.platformRefs) found.push(await this.platforms.requireExisting(reference, 'uuid' in reference ? 'spec.platformRef.uuid' : 'spec.platformIdentifier'));
    if (found.some((platform) => platform.uuid !== found[0]!.uuid)) throw badRequest('spec.platformRef and spec.platformIdentifier name different platforms');
    return found[0]!;
  }

  /** Checks every reference of a new tenant: 422 for a missing workspace, project or platform. */
  async resolve(input: TenantInput): Promise<Platform> {
    await this.workspaces.requireExists(input.workspace, 'metadata.ownedByWorkspace');
    await this.projects.requireExisting(input.workspace, input.project, 'metadata.ownedByProject');
    return this.resolvePlatform(input);
  }

  async create(input: TenantInput, platform: Platform): Promise<Tenant> {
    const tenant: Tenant = {
      uuid: randomUUID(),
      workspace: input.workspace,
      project: input.project,
      platform: { uuid: platform.uuid, name: platform.name, location: platform.location, platformType: platform.platformType },
      // No replication here: the tenant exists at once, under a generated id unless one was imported.
      platformTenantId: input.platformTenantId ?? `${input.workspace}-${input.project}`,
      createdOn: new Date().toISOString(),
      document: input.document,
    };
    try {
      await this.store.insert(tenant);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshProject ${input.workspace}.${input.project} already has a meshTenant on platform ${platform.name}.${platform.location}`);
      throw error;
    }
    return tenant;
  }

  findLive(workspace: string, project: string, platformUuid: string): Promise<Tenant | undefined> {
    return this.store.findLive(workspace, project, platformUuid);
  }

  /** The import's update of a live tenant: landing zone, platform tenant id and extra fields. */
  async update(existing: Tenant, input: TenantInput): Promise<Tenant> {
    const tenant: Tenant = { ...existing, platformTenantId: input.platformTenantId ?? existing.platformTenantId, document: input.document };
    await this.store.update(tenant);
    return tenant;
  }

  /** By uuid, or by its full name `<ws>.<project>.<platform>.<location>` (the live tenant). */
  async get(identifier: string): Promise<Tenant> {
    let tenant: Tenant | undefined;
    if (isUuid(identifier)) tenant = await this.store.find(identifier);
    else {
      const name = parseTenantName(identifier);
      const platform = name && (await this.platforms.findByIdentifier(name.platform, name.location));
      tenant = name && platform ? await this.store.findLive(name.workspace, name.project, platform.uuid) : undefined;
    }
    if (!tenant) throw notFound(`meshTenant ${identifier} not found`);
    return tenant;
  }

  /** A platform identifier that names no platform matches no tenant. */
  async list(query: TenantQuery, page: PageRequest): Promise<{ items: Tenant[]; total: number }> {
    const { platform: platformIdentifier, ...filter } = query;
    if (platformIdentifier === undefined) return this.store.list(filter, page);
    const platform = await this.platforms.findByIdentifier(platformIdentifier.name, platformIdentifier.location);
    return platform ? this.store.list({ ...filter, platformUuid: platform.uuid }, page) : { items: [], total: 0 };
  }

  /** Deleting is immediate (there is no replication to undo); the record stays until purged. */
  async delete(tenant: Tenant): Promise<void> {
    const dependents = await this.store.dependents(tenant.uuid);
    if (dependents.length > 0) throw conflict(`meshTenant ${tenantName(tenant)} is still the target of ${dependents.join(', ')}; delete them first`);
    await this.store.markDeleted(tenant.uuid, new Date().toISOString());
  }

  async purge(tenant: Tenant): Promise<void> {
    const dependents = await this.store.dependents(tenant.uuid);
    if (dependents.length > 0) throw conflict(`meshTenant ${tenantName(tenant)} is still the target of ${dependents.join(', ')}; delete them first`);
    await this.store.purge(tenant.uuid);
  }
}
