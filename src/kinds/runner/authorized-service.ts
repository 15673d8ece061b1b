import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesEveryWorkspace, seesWorkspace } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { Runner, RunnerInput } from './model.js';
import type { RunnerService } from './service.js';

/**
 * Runners as the caller sees them: PUBLIC runners (the shared ones among them), its own workspace's,
 * and all for admins of runners or runs. `BUILDINGBLOCKRUNNER_*` act on the key's own workspace's
 * runners, `ADM_` on all; PUBLIC runners are made and changed only by admins (COMPAT §10) — whatever
 * workspace owns them.
 */
export class AuthorizedRunnerService extends CallerView<Runner> {
  protected readonly kindName = 'meshBuildingBlockRunner';

  constructor(private readonly inner: RunnerService) {
    super();
  }

  static sees(principal: Principal, runner: Runner): boolean {
    return (
      runner.restriction === 'PUBLIC' ||
      seesWorkspace(principal, 'BUILDINGBLOCKRUNNER', runner.ownedByWorkspace) ||
      seesEveryWorkspace(principal, 'BUILDINGBLOCKRUN')
    );
  }

  async find(ctx: RequestContext, uuid: string): Promise<Runner | undefined> {
    const runner = await this.inner.find(uuid);
    return runner && AuthorizedRunnerService.sees(ctx.principal, runner) ? runner : undefined;
  }

  /**
   * A runner a version names for `workspace`'s definition: visible to the caller and serving that
   * workspace (PUBLIC, or its own); a private runner of another workspace is as good as unknown to it.
   */
  async resolveFor(ctx: RequestContext, uuid: string, workspace: string, field: string): Promise<Runner> {
    const runner = await this.resolve(ctx, uuid, field);
    if (runner.restriction !== 'PUBLIC' && runner.ownedByWorkspace !== workspace) throw this.doesNotExist(uuid, field);
    return runner;
  }

  private requirePublicAllowed(ctx: RequestContext, restriction: Runner['restriction']): void {
    if (restriction === 'PUBLIC' && !isAdminFor(ctx.principal, 'BUILDINGBLOCKRUNNER', 'SAVE'))
      throw insufficientPermissions('only admins (ADM_BUILDINGBLOCKRUNNER_SAVE) make or change PUBLIC runners');
  }

  async list(ctx: RequestContext, workspace: string | undefined, page: PageRequest): Promise<Page<Runner>> {
    const scope = listScope(ctx.principal, 'BUILDINGBLOCKRUNNER');
    if (scope === 'all') return this.inner.list(workspace ? { workspace } : {}, page);
    if (workspace !== undefined && workspace !== scope.workspace) return emptyPage();
    return this.inner.list({ workspace: scope.workspace, orPublic: workspace === undefined }, page);
  }

  async create(ctx: RequestContext, input: RunnerInput): Promise<Runner> {
    requireAllowed(ctx.principal, 'BUILDINGBLOCKRUNNER', 'SAVE', input.ownedByWorkspace);
    this.requirePublicAllowed(ctx, input.restriction);
    return this.inner.create(ctx, input);
  }

  async update(ctx: RequestContext, uuid: string, input: RunnerInput, sentRestriction: boolean, sentUuid?: string): Promise<Runner> {
    const existing = await this.get(ctx, uuid);
    if (sentUuid !== undefined && sentUuid.toLowerCase() !== existing.uuid)
      throw badRequest(`metadata.uuid: "${sentUuid}" does not match the runner ${uuid} of the path`);
    requireAllowed(ctx.principal, 'BUILDINGBLOCKRUNNER', 'SAVE', existing.ownedByWorkspace);
    this.requirePublicAllowed(ctx, existing.restriction);
    if (sentRestriction) this.requirePublicAllowed(ctx, input.restriction);
    return this.inner.update(ctx, existing, input, sentRestriction);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'BUILDINGBLOCKRUNNER', 'DELETE', existing.ownedByWorkspace);
    this.requirePublicAllowed(ctx, existing.restriction);
    await this.inner.delete(ctx, existing);
  }
}
