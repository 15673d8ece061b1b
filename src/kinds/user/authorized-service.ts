import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, requireAllowed, seesEveryWorkspace } from '../../auth/policy.js';
import { badRequest, conflict, insufficientPermissions, unprocessable } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { User, UserInput } from './model.js';
import type { UserService } from './service.js';
import type { UserFilter } from './store.js';

/**
 * meshUsers as the caller sees them. Users belong to no workspace: they are administered with the
 * `ADM_USER_*` codes (API users hold them), which also decide visibility. A caller allowed to bind
 * people in a workspace (its bindings and groups) names users by their exact username: `resolveNamed`
 * answers whether they exist, as an invitation dialog would, and nothing else about them.
 * The methods are what a SCIM layer needs too: create, replace (upsert) and delete by username.
 */
export class AuthorizedUserService extends CallerView<User> {
  protected readonly kindName = 'meshUser';

  constructor(
    private readonly inner: UserService,
    /** Whether SCIM provisioning is enabled (a SCIM token exists). */
    private readonly scimEnabled: () => Promise<boolean>,
  ) {
    super();
  }

  /**
   * While SCIM provisioning is enabled, only the SCIM client creates and replaces users (OpenAPI: POST
   * and PUT of meshusers are "only available when SCIM provisioning is disabled … and will otherwise
   * reject all requests"); deleting stays open to admins.
   */
  private async requireNotScimManaged(ctx: RequestContext): Promise<void> {
    if (ctx.principal.type !== 'scim' && (await this.scimEnabled())) {
      throw conflict(
        'SCIM provisioning is enabled on this server: meshUsers are created and updated by the SCIM client only (DELETE still works); delete every SCIM token to write them here',
      );
    }
  }

  /** Users by their uuid (SCIM's ids), for a caller that sees every user; the rest see none. */
  async byUuids(ctx: RequestContext, uuids: readonly string[]): Promise<User[]> {
    return seesEveryWorkspace(ctx.principal, 'USER') ? this.inner.byUuids(uuids) : [];
  }

  async byUsernames(ctx: RequestContext, usernames: readonly string[]): Promise<User[]> {
    return seesEveryWorkspace(ctx.principal, 'USER') ? this.inner.byUsernames(usernames) : [];
  }

  async find(ctx: RequestContext, username: string): Promise<User | undefined> {
    return seesEveryWorkspace(ctx.principal, 'USER') ? this.inner.find(username) : undefined;
  }

  list(ctx: RequestContext, filter: UserFilter, page: PageRequest): Promise<Page<User>> {
    if (!isAdminFor(ctx.principal, 'USER', 'LIST')) throw insufficientPermissions('ADM_USER_LIST is required');
    return this.inner.list(filter, page);
  }

  async create(ctx: RequestContext, input: UserInput): Promise<User> {
    requireAllowed(ctx.principal, 'USER', 'SAVE');
    await this.requireNotScimManaged(ctx);
    return this.inner.create(ctx, input);
  }

  /** PUT by username: replaces the user, or creates it (upsert). */
  async save(ctx: RequestContext, username: string, input: UserInput): Promise<{ user: User; created: boolean }> {
    if (input.username !== username)
      throw badRequest(`metadata.name: "${input.username}" does not match the meshUser "${username}" of the path`);
    requireAllowed(ctx.principal, 'USER', 'SAVE');
    await this.requireNotScimManaged(ctx);
    const existing = await this.inner.find(username);
    if (!existing) return { user: await this.inner.create(ctx, input), created: true };
    return { user: await this.inner.replace(ctx, existing, input), created: false };
  }

  async delete(ctx: RequestContext, username: string): Promise<void> {
    const user = await this.get(ctx, username);
    requireAllowed(ctx.principal, 'USER', 'DELETE');
    await this.inner.delete(ctx, user);
  }

  /**
   * Users a body names (a binding's subject, a group's members), for a caller whose permission to bind
   * in the workspace was checked first: 422 naming the field of the first that does not exist. One query.
   */
  async resolveNamed(_ctx: RequestContext, usernames: readonly string[], field: (index: number) => string): Promise<void> {
    const found = await this.inner.existing(usernames);
    const missing = usernames.findIndex((username) => !found.has(username));
    if (missing >= 0) throw unprocessable(`${field(missing)}: meshUser "${usernames[missing]}" does not exist`);
  }
}
