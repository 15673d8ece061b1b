import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedProjectService } from '../project/authorized-service.js';
import { projectIdentifier } from '../project/model.js';
import type { AuthorizedUserService } from '../user/authorized-service.js';
import { CallerView } from '../view.js';
import { isDeleting, UNKNOWN_CREATOR, type ServiceInstance, type ServiceInstanceInput } from './model.js';
import { deletingConflict, type ServiceInstanceService } from './service.js';
import type { ServiceInstanceFilter } from './store.js';

/** Service instances as the caller sees them: its own workspace's (`SERVICEINSTANCE_*`), or all (`ADM_SERVICEINSTANCE_*`). */
export class AuthorizedServiceInstanceService extends CallerView<ServiceInstance> {
  protected readonly kindName = 'meshServiceInstance';

  constructor(
    private readonly inner: ServiceInstanceService,
    private readonly projects: AuthorizedProjectService,
    private readonly users: AuthorizedUserService,
  ) {
    super();
  }

  async find(ctx: RequestContext, instanceId: string): Promise<ServiceInstance | undefined> {
    const instance = await this.inner.find(instanceId);
    return instance && seesWorkspace(ctx.principal, 'SERVICEINSTANCE', instance.workspace) ? instance : undefined;
  }

  list(ctx: RequestContext, filter: ServiceInstanceFilter, page: PageRequest): Promise<Page<ServiceInstance>> {
    const scope = listScope(ctx.principal, 'SERVICEINSTANCE');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return Promise.resolve(emptyPage());
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  /** The project must be one the caller sees (422 otherwise); the creator is kept when the caller sees that meshUser. */
  async create(ctx: RequestContext, input: ServiceInstanceInput): Promise<ServiceInstance> {
    requireAllowed(ctx.principal, 'SERVICEINSTANCE', 'SAVE', input.workspace);
    await this.projects.resolve(ctx, projectIdentifier({ workspace: input.workspace, name: input.project }), 'metadata.ownedByProject');
    const creator = (await this.users.find(ctx, input.creator)) ? input.creator : UNKNOWN_CREATOR;
    return this.inner.create(ctx, { ...input, creator });
  }

  /** PUT: the instance's identity (id, project, workspace, marketplace) and service never change (400). */
  async update(ctx: RequestContext, instanceId: string, input: ServiceInstanceInput): Promise<ServiceInstance> {
    const existing = await this.get(ctx, instanceId);
    requireAllowed(ctx.principal, 'SERVICEINSTANCE', 'SAVE', existing.workspace);
    requireSameIdentity(existing, input, instanceId);
    if (isDeleting(existing)) throw deletingConflict(existing);
    return this.inner.update(ctx, existing, input);
  }

  /** The declarative import: create or update by `instanceId`. */
  async save(ctx: RequestContext, input: ServiceInstanceInput): Promise<{ instance: ServiceInstance; created: boolean }> {
    const existing = await this.find(ctx, input.instanceId);
    if (!existing) return { instance: await this.create(ctx, input), created: true };
    return { instance: await this.update(ctx, input.instanceId, input), created: false };
  }

  async delete(ctx: RequestContext, instanceId: string): Promise<void> {
    const existing = await this.get(ctx, instanceId);
    requireAllowed(ctx.principal, 'SERVICEINSTANCE', 'DELETE', existing.workspace);
    await this.inner.delete(ctx, existing);
  }
}

function requireSameIdentity(existing: ServiceInstance, input: ServiceInstanceInput, instanceId: string): void {
  const fixed = [
    ['metadata.instanceId', existing.instanceId, input.instanceId],
    ['metadata.ownedByWorkspace', existing.workspace, input.workspace],
    ['metadata.ownedByProject', existing.project, input.project],
    ['metadata.marketplaceIdentifier', existing.marketplace, input.marketplace],
    ['spec.serviceId', existing.serviceId, input.serviceId],
  ] as const;
  for (const [field, was, sent] of fixed) {
    if (was !== sent)
      throw badRequest(`${field}: "${sent}" does not match "${was}" of the meshServiceInstance ${instanceId}; it cannot change`);
  }
}
