import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, requireAllowed } from '../../auth/policy.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { Location, LocationInput } from './model.js';
import type { LocationService } from './service.js';

/**
 * Locations are seen by every caller (COMPAT §5: "reading locations is free"). Writing one needs
 * `PLATFORMINSTANCE_SAVE` in the workspace that owns it, or admin rights for unowned ones.
 */
export class AuthorizedLocationService extends CallerView<Location> {
  protected readonly kindName = 'meshLocation';
  protected override readonly missing = 'LOCATION' as const;

  constructor(private readonly inner: LocationService) {
    super();
  }

  find(_ctx: RequestContext, name: string): Promise<Location | undefined> {
    return this.inner.find(name);
  }

  private requireWrite(ctx: RequestContext, owner: string | undefined, action: 'SAVE' | 'DELETE' = 'SAVE'): void {
    if (owner !== undefined) return requireAllowed(ctx.principal, 'PLATFORMINSTANCE', action, owner);
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', action))
      throw insufficientPermissions(`ADM_PLATFORMINSTANCE_${action} is required for a location without an owning workspace`);
  }

  list(_ctx: RequestContext, filter: { displayName?: string }, page: PageRequest): Promise<Page<Location>> {
    return this.inner.list(filter, page);
  }

  async create(ctx: RequestContext, input: LocationInput): Promise<Location> {
    this.requireWrite(ctx, input.ownedByWorkspace);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, name: string, input: LocationInput): Promise<Location> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the location "${name}" of the path`);
    const existing = await this.get(ctx, name);
    this.requireWrite(ctx, existing.ownedByWorkspace);
    this.requireWrite(ctx, input.ownedByWorkspace);
    return this.inner.update(ctx, existing, input);
  }

  async save(ctx: RequestContext, input: LocationInput): Promise<{ location: Location; created: boolean }> {
    const existing = await this.find(ctx, input.name);
    if (!existing) return { location: await this.create(ctx, input), created: true };
    return { location: await this.update(ctx, input.name, input), created: false };
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    this.requireWrite(ctx, existing.ownedByWorkspace, 'DELETE');
    await this.inner.delete(ctx, existing);
  }
}
