import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, isAllowed, requireAllowed } from '../../auth/policy.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import type { AuthorizedPlatformTypeService } from '../platformtype/authorized-service.js';
import { CallerView } from '../view.js';
import { parseFullPlatformIdentifier, type Platform, type PlatformInput, type PlatformReference } from './model.js';
import type { PlatformService } from './service.js';
import type { PlatformFilter } from './store.js';

/**
 * Platforms are the marketplace: every caller sees them. Their `config` (endpoints, credentials) is
 * only for the owning workspace's platform operators (`PLATFORMINSTANCE_LIST`) and admins; writes
 * need `PLATFORMINSTANCE_SAVE`/`_DELETE` there. A PUBLIC platform (offered to every workspace) is made
 * and changed only by admins (`ADM_PLATFORMINSTANCE_SAVE`), whatever workspace owns it.
 */
export class AuthorizedPlatformService extends CallerView<Platform> {
  protected readonly kindName = 'meshPlatform';
  protected override readonly missing = 'PLATFORM' as const;

  constructor(
    private readonly inner: PlatformService,
    private readonly types: AuthorizedPlatformTypeService,
  ) {
    super();
  }

  /** The platform's type must exist and be ACTIVE, unless an update keeps the type it has. */
  private async requireType(ctx: RequestContext, input: PlatformInput, existing: Platform | undefined): Promise<void> {
    const config = input.document.spec.config as { type?: unknown; custom?: { platformTypeRef?: { name?: unknown } } } | undefined;
    const field =
      config === undefined
        ? 'spec.config'
        : String(config.type).toLowerCase() === 'custom' && config.custom?.platformTypeRef?.name !== undefined
          ? 'spec.config.custom.platformTypeRef.name'
          : 'spec.config.type';
    await this.types.resolveForPlatform(ctx, input.platformType, field, existing?.platformType === input.platformType);
  }

  find(_ctx: RequestContext, uuid: string): Promise<Platform | undefined> {
    return this.inner.find(uuid);
  }

  /** The platform a body names, either way; 422 naming the field when the caller cannot see it. */
  async resolveReference(ctx: RequestContext, reference: PlatformReference, field: string): Promise<Platform> {
    if ('uuid' in reference) return this.resolve(ctx, reference.uuid, field);
    const parts = parseFullPlatformIdentifier(reference.identifier);
    const platform = parts ? await this.inner.findByIdentifier(parts.name, parts.location) : undefined;
    if (!platform) throw this.doesNotExist(reference.identifier, field);
    return platform;
  }

  mayReadConfig(ctx: RequestContext, platform: Platform): boolean {
    return isAllowed(ctx.principal, 'PLATFORMINSTANCE', 'LIST', platform.ownedByWorkspace);
  }

  list(_ctx: RequestContext, filter: PlatformFilter, page: PageRequest): Promise<Page<Platform>> {
    return this.inner.list(filter, page);
  }

  private static requirePublicAllowed(ctx: RequestContext, platform: Pick<Platform, 'isPublic'>): void {
    if (platform.isPublic && !isAdminFor(ctx.principal, 'PLATFORMINSTANCE', 'SAVE'))
      throw insufficientPermissions('only admins (ADM_PLATFORMINSTANCE_SAVE) make or change PUBLIC platforms');
  }

  async create(ctx: RequestContext, input: PlatformInput): Promise<Platform> {
    requireAllowed(ctx.principal, 'PLATFORMINSTANCE', 'SAVE', input.ownedByWorkspace);
    AuthorizedPlatformService.requirePublicAllowed(ctx, input);
    await this.requireType(ctx, input, undefined);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, uuid: string, input: PlatformInput, sentUuid?: string): Promise<Platform> {
    const existing = await this.get(ctx, uuid);
    if (sentUuid !== undefined && sentUuid.toLowerCase() !== existing.uuid)
      throw badRequest(`metadata.uuid: "${sentUuid}" does not match the platform ${uuid} of the path`);
    requireAllowed(ctx.principal, 'PLATFORMINSTANCE', 'SAVE', existing.ownedByWorkspace);
    requireAllowed(ctx.principal, 'PLATFORMINSTANCE', 'SAVE', input.ownedByWorkspace);
    AuthorizedPlatformService.requirePublicAllowed(ctx, existing);
    AuthorizedPlatformService.requirePublicAllowed(ctx, input);
    await this.requireType(ctx, input, existing);
    return this.inner.update(ctx, existing, input);
  }

  /** The declarative import: create or update by full platform identifier. */
  async save(ctx: RequestContext, input: PlatformInput): Promise<{ platform: Platform; created: boolean }> {
    const existing = await this.inner.findByIdentifier(input.name, input.location);
    if (!existing) return { platform: await this.create(ctx, input), created: true };
    return { platform: await this.update(ctx, existing.uuid, input), created: false };
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'PLATFORMINSTANCE', 'DELETE', existing.ownedByWorkspace);
    AuthorizedPlatformService.requirePublicAllowed(ctx, existing);
    await this.inner.delete(ctx, existing);
  }
}
