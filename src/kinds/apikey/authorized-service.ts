import type { RequestContext } from '../../auth/context.js';
import { isAdminCode } from '../../auth/permissions.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { insufficientPermissions } from '../../lib/errors.js';
import { CallerView } from '../view.js';
import type { ApiKey, ApiKeyInput } from './model.js';
import type { ApiKeyService } from './service.js';

/**
 * API keys as the caller sees them: its own workspace's, or all with an `ADM_APIKEY_*` code. Forbidden
 * writes are 403, and only admins may hand out `ADM_` codes (spec 5.1: admin permissions are
 * assigned only from the admin area).
 */
export class AuthorizedApiKeyService extends CallerView<ApiKey> {
  protected readonly kindName = 'meshApiKey';

  constructor(private readonly inner: ApiKeyService) {
    super();
  }

  async find(ctx: RequestContext, uuid: string): Promise<ApiKey | undefined> {
    const key = await this.inner.find(uuid);
    return key && seesWorkspace(ctx.principal, 'APIKEY', key.ownedByWorkspace) ? key : undefined;
  }

  private checkGrant(ctx: RequestContext, input: ApiKeyInput): void {
    if (input.permissions.some(isAdminCode) && !isAdminFor(ctx.principal, 'APIKEY', 'SAVE')) throw insufficientPermissions('only admins may grant ADM_ permissions');
  }

  async create(ctx: RequestContext, input: ApiKeyInput) {
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', input.ownedByWorkspace);
    this.checkGrant(ctx, input);
    return this.inner.create(ctx, input);
  }

  async list(ctx: RequestContext, filter: { workspace?: string }, page: PageRequest): Promise<Page<ApiKey>> {
    const scope = listScope(ctx.principal, 'APIKEY');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return emptyPage();
    return this.inner.list(scope === 'all' ? filter : { workspace: scope.workspace }, page);
  }

  async update(ctx: RequestContext, uuid: string, input: ApiKeyInput) {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    this.checkGrant(ctx, input);
    return this.inner.update(ctx, existing, input);
  }

  async rotateSecret(ctx: RequestContext, uuid: string) {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    return this.inner.rotateSecret(ctx, existing);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'APIKEY', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(ctx, existing.uuid);
  }
}
