import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, isAllowed, isAllowedAsManager, seesEveryWorkspace } from '../../auth/policy.js';
import { actsInWorkspace, type Principal } from '../../auth/principal.js';
import { insufficientPermissions, notFound } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isTransparent, type Run, type StepRow } from '../block/run.js';
import type { AuthorizedRunnerService } from '../runner/authorized-service.js';
import type { Runner } from '../runner/model.js';
import { SHARED_RUNNERS, sharedRunnerFor } from '../runner/shared-runners.js';
import { CallerView } from '../view.js';
import type { RunUpdate, SourceRegistration } from './model.js';
import type { ClaimedRun, RunService } from './service.js';
import type { RunAudience } from './wire/v1.js';

const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const isOwnToken = (principal: Principal, run: Pick<Run, 'uuid'>) => principal.type === 'runToken' && principal.runUuid === run.uuid;

/**
 * Runs as the caller sees them: its own run (its run token), and those of blocks of its workspace or
 * of its workspace's definitions (all for admins of blocks or runs). Reading needs the run token,
 * `MANAGED_BUILDINGBLOCKRUN_LIST` of the definition's workspace or `BUILDINGBLOCK_LIST` of the
 * block's; reporting the run token or `MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE` of the definition's
 * workspace (spec §4.1, COMPAT §5, §10); claiming `MANAGED_BUILDINGBLOCKRUN_SAVE` of the runner's
 * workspace, and `ADM_BUILDINGBLOCKRUN_SAVE` for PUBLIC (shared) runners. A run token never reaches
 * another run: 403 whether that run exists or not.
 */
export class AuthorizedRunService extends CallerView<Run> {
  protected readonly kindName = 'meshBuildingBlockRun';

  constructor(
    private readonly inner: RunService,
    private readonly runners: AuthorizedRunnerService,
  ) {
    super();
  }

  private static sees(principal: Principal, run: Run): boolean {
    switch (principal.type) {
      case 'runToken':
        return principal.runUuid === run.uuid;
      case 'apiKey':
      case 'person':
        return (
          principal.workspace === run.workspace ||
          principal.workspace === run.definitionOwner ||
          seesEveryWorkspace(principal, 'BUILDINGBLOCK') ||
          seesEveryWorkspace(principal, 'BUILDINGBLOCKRUN')
        );
      default:
        return true;
    }
  }

  async find(ctx: RequestContext, uuid: string): Promise<Run | undefined> {
    const { principal } = ctx;
    // A run token asking for another run learns nothing, not even whether that run exists.
    if (principal.type === 'runToken' && canonicalUuid(uuid) !== principal.runUuid)
      throw insufficientPermissions('a run token only reads and reports its own run');
    const run = await this.inner.find(uuid);
    return run && AuthorizedRunService.sees(principal, run) ? run : undefined;
  }

  private requireClaim(ctx: RequestContext, runner: Pick<Runner, 'ownedByWorkspace' | 'restriction'>): void {
    const allowed =
      runner.restriction === 'PUBLIC'
        ? isAdminFor(ctx.principal, 'BUILDINGBLOCKRUN', 'SAVE')
        : isAllowedAsManager(ctx.principal, 'BUILDINGBLOCKRUN_SAVE', runner.ownedByWorkspace);
    if (!allowed) {
      throw insufficientPermissions(
        runner.restriction === 'PUBLIC'
          ? "claiming a shared runner's runs needs ADM_BUILDINGBLOCKRUN_SAVE"
          : `claiming this runner's runs needs MANAGED_BUILDINGBLOCKRUN_SAVE of workspace ${runner.ownedByWorkspace} (or ADM_BUILDINGBLOCKRUN_SAVE)`,
      );
    }
  }

  /** `create?forRunnerUuid=<uuid>` (real runners). */
  async claimForRunner(ctx: RequestContext, runnerUuid: string, nodeId: string | undefined): Promise<ClaimedRun | undefined> {
    const runner = await this.runners.get(ctx, runnerUuid);
    this.requireClaim(ctx, runner);
    return this.inner.claim(ctx, [runner.uuid], nodeId ?? runnerUuid, runner);
  }

  /**
   * `?runnerNodeId=<node>[&selector=<type>]` (the spec's index template): a node id naming a runner
   * (`<uuid>`, `<uuid>-worker-<n>`, `run-controller-<uuid>`) claims for it (404 when the caller cannot
   * see it); otherwise for the shared runner of `selector`, or every shared runner.
   */
  async claimForNode(ctx: RequestContext, nodeId: string, selector: string | undefined): Promise<ClaimedRun | undefined> {
    const named = UUID_IN.exec(nodeId)?.[0];
    if (named) {
      const runner = await this.runners.get(ctx, named);
      this.requireClaim(ctx, runner);
      return this.inner.claim(ctx, [runner.uuid], nodeId, runner);
    }
    const shared = selector ? sharedRunnerFor(selector.toUpperCase()) : undefined;
    if (selector && !shared) throw notFound(`no shared runner for selector "${selector}"`);
    this.requireClaim(ctx, { ownedByWorkspace: '', restriction: 'PUBLIC' });
    return this.inner.claim(ctx, shared ? [shared.uuid] : SHARED_RUNNERS.map((r) => r.uuid), nodeId);
  }

  /**
   * A run to read, and as whom: its run token and platform operators (`MANAGED_BUILDINGBLOCKRUN_LIST`
   * of the definition's workspace, admins) read everything; the block's workspace (`BUILDINGBLOCK_LIST`)
   * reads a transparent run as a consumer; anyone else who sees the run gets 403.
   */
  async read(ctx: RequestContext, uuid: string): Promise<{ run: Run; audience: RunAudience }> {
    const run = await this.get(ctx, uuid);
    const { principal } = ctx;
    if (isOwnToken(principal, run) || isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_LIST', run.definitionOwner))
      return { run, audience: 'operator' };
    if (isAllowed(principal, 'BUILDINGBLOCK', 'LIST', run.workspace) && isTransparent(run)) return { run, audience: 'consumer' };
    throw insufficientPermissions(
      "reading a run needs MANAGED_BUILDINGBLOCKRUN_LIST of its definition's workspace, or BUILDINGBLOCK_LIST of its block's when the definition makes runs transparent",
    );
  }

  async logs(ctx: RequestContext, uuid: string): Promise<{ steps: AsyncIterable<StepRow>; audience: RunAudience }> {
    const { run, audience } = await this.read(ctx, uuid);
    return { steps: this.inner.steps(run), audience };
  }

  async list(ctx: RequestContext, filter: { blockUuid?: string; nodeId?: string }, page: PageRequest): Promise<Page<Run>> {
    const { principal } = ctx;
    if (isAdminFor(principal, 'BUILDINGBLOCKRUN', 'LIST')) return this.inner.list(filter, page);
    if (actsInWorkspace(principal) && isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_LIST', principal.workspace))
      return this.inner.list({ ...filter, definitionOwner: principal.workspace }, page);
    throw insufficientPermissions('MANAGED_BUILDINGBLOCKRUN_LIST is required');
  }

  /** Spec §4.1: the run token, or the run-update permission of the workspace owning the run's definition. */
  private async reportable(ctx: RequestContext, uuid: string): Promise<Run> {
    const run = await this.get(ctx, uuid);
    if (!isOwnToken(ctx.principal, run) && !isAllowedAsManager(ctx.principal, 'BUILDINGBLOCKRUNSOURCE_SAVE', run.definitionOwner)) {
      throw insufficientPermissions(
        "report a run's status with its run token or MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE of the workspace owning its definition",
      );
    }
    return run;
  }

  async registerSource(ctx: RequestContext, uuid: string, registration: SourceRegistration): Promise<void> {
    await this.inner.registerSource(ctx, await this.reportable(ctx, uuid), registration);
  }

  /**
   * A run's own token may report without a read of the run here (the status report is the hot path
   * of every runner): the service reads the run once, in its transaction, and a run that is gone
   * answers 404 as `reportable` would.
   */
  async updateSource(ctx: RequestContext, uuid: string, sourceId: string, update: RunUpdate): Promise<boolean> {
    const { principal } = ctx;
    const runUuid =
      principal.type === 'runToken' && principal.runUuid === canonicalUuid(uuid)
        ? principal.runUuid
        : (await this.reportable(ctx, uuid)).uuid;
    const aborted = await this.inner.updateSource(ctx, runUuid, sourceId, update);
    if (aborted === undefined) throw notFound(`${this.kindName} ${uuid} not found`);
    return aborted;
  }
}
