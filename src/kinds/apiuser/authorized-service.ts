import type { RequestContext } from '../../auth/context.js';
import { seesEveryWorkspace } from '../../auth/policy.js';
import { CallerView } from '../view.js';
import type { ApiUser } from './model.js';
import type { ApiUserService } from './service.js';

/** API users belong to the admin area: only callers with an `ADM_USER_*` code (or API users) see them. */
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

  create(ctx: RequestContext, username: string, password: string): Promise<ApiUser> {
    return this.inner.create(ctx, username, password);
  }

  async delete(ctx: RequestContext, username: string): Promise<void> {
    const user = await this.get(ctx, username);
    await this.inner.delete(ctx, user.username);
  }
}
