import type { RequestContext } from '../../auth/context.js';
import { isAdminFor } from '../../auth/policy.js';
import { badRequest, insufficientPermissions, unprocessable } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { PlatformType, PlatformTypeInput } from './model.js';
import type { PlatformTypeService } from './service.js';
import type { PlatformTypeFilter } from './store.js';

/**
 * Platform types are read by every caller (OpenAPI: "No specific permission is required"). A type
 * belongs to no workspace and every workspace's platforms may use it, so (as for a location without
 * an owner) making or changing one needs `ADM_PLATFORMINSTANCE_SAVE` (the OpenAPI's "permission to
 * save platforms", in its admin form), deactivating one `ADM_PLATFORMINSTANCE_DELETE` (OpenAPI:
 * "admin users with delete permissions on platforms").
 */
export class AuthorizedPlatformTypeService extends CallerView<PlatformType> {
  protected readonly kindName = 'meshPlatformType';

  constructor(private readonly inner: PlatformTypeService) {
    super();
  }

  find(_ctx: RequestContext, name: string): Promise<PlatformType | undefined> {
    return this.inner.find(name);
  }

  list(_ctx: RequestContext, filter: PlatformTypeFilter, page: PageRequest): Promise<Page<PlatformType>> {
    return this.inner.list(filter, page);
  }

  async create(ctx: RequestContext, input: PlatformTypeInput): Promise<PlatformType> {
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', 'SAVE'))
      throw insufficientPermissions('ADM_PLATFORMINSTANCE_SAVE is required to make a platform type');
    return this.inner.create(ctx, input);
  }

  /** PUT: an upsert by name. */
  async save(ctx: RequestContext, name: string, input: PlatformTypeInput): Promise<PlatformType> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the platform type "${name}" of the path`);
    const existing = await this.find(ctx, name);
    if (!existing) return this.create(ctx, input);
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', 'SAVE'))
      throw insufficientPermissions('ADM_PLATFORMINSTANCE_SAVE is required to change a platform type');
    return this.inner.update(ctx, existing, input);
  }

  async deactivate(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', 'DELETE'))
      throw insufficientPermissions('ADM_PLATFORMINSTANCE_DELETE is required to deactivate a platform type');
    await this.inner.deactivate(ctx, existing);
  }

  /**
   * A platform names its type (`AZURE`, a custom type's name; case-insensitive) in `field`: it must
   * exist and be ACTIVE (422 otherwise); a platform keeping the type it has is not held to that.
   */
  async resolveForPlatform(ctx: RequestContext, key: string, field: string, unchanged: boolean): Promise<PlatformType> {
    const type = await this.inner.findByKey(key);
    if (!type) throw this.doesNotExist(key, field);
    if (!unchanged && type.lifecycleState !== 'ACTIVE')
      throw unprocessable(`${field}: meshPlatformType "${type.name}" is deactivated and takes no new platforms`);
    return type;
  }
}
