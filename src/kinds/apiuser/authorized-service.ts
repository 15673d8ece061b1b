import type { RequestContext } from '../../auth/context.js';
import { isAdminEquivalent, seesEveryWorkspace } from '../../auth/policy.js';
import { insufficientPermissions } from '../../lib/errors.js';
import { CallerView } from '../view.js';
import type { ApiUser } from './model.js';
import type { ApiUserService } from './service.js';

/**
 * API users belong to the admin area: only callers with an `ADM_USER_*` code (or API users) see them.
 * An API user holds every permission, so only an admin-equivalent caller (an API user, or a key
 * holding every `ADM_` code) makes or removes one: a narrow admin code never becomes every permission.
 */
export class AuthorizedApiUserService extends CallerView<ApiUser> {
  protected readonly kindName = 'API user';

  constructor(private readonly inner: ApiUserService) {
    super();
  }

  async find(ctx: RequestContext, username: string): Promise<ApiUser | undefined> {
    return seesEveryWorkspace(ctx.principal, 'USER') ? this.inner.find(username) : undefined;
  }

  async list(ctx: RequestContext): Promise<ApiUser[]> {
    return seesEveryWorkspace(ctx.principal, 'USER') ? this.inner.list() : [];
  }

  private static requireAdminEquivalent(ctx: RequestContext): void {
    if (!isAdminEquivalent(ctx.principal))
      throw insufficientPermissions(
        'an API user holds every permission: only an API user or a key holding every ADM_ permission makes or removes one',
      );
  }

  create(ctx: RequestContext, username: string, password: string): Promise<ApiUser> {
    AuthorizedApiUserService.requireAdminEquivalent(ctx);
    return this.inner.create(ctx, username, password);
  }

  async delete(ctx: RequestContext, username: string): Promise<void> {
    const user = await this.get(ctx, username);
    AuthorizedApiUserService.requireAdminEquivalent(ctx);
    await this.inner.delete(ctx, user.username);
  }
}
