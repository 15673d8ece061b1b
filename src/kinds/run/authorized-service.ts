import { isAdminFor, isAllowed, isAllowedAsManager } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { forbidden, notFound } from '../errors.js';
import type { PageRequest } from '../http/paging.js';
import { isUuid } from '../http/validation.js';
import type { RunnerStore } from '../kinds/runner/store.js';
import type { Runner } from '../kinds/runner/model.js';
import { SHARED_RUNNERS, sharedRunnerFor } from '../kinds/runner/shared-runners.js';
import type { Run } from './model.js';
import type { ClaimedRun, RunService } from './service.js';
import type { Registration, StepUpdate } from './wire.js';

const INSUFFICIENT = "you don't have sufficient permissions";
const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Who may drive runs (spec §4.1, COMPAT §5, §10): a runner's workspace claims its runs with
 * `MANAGED_BUILDINGBLOCKRUN_SAVE` (shared runners: admins); status is reported with the run's own token
 * or `MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE` of the workspace owning the run's definition; runs are read
 * by that workspace (`MANAGED_BUILDINGBLOCKRUN_LIST`) and the block's (`BUILDINGBLOCK_LIST`).
 */
export class AuthorizedRunService {
  constructor(
    private readonly inner: RunService,
    private readonly runners: RunnerStore,
  ) {}

  /** `create?forRunnerUuid=<uuid>` (real runners). */
  async claimForRunner(principal: Principal, runnerUuid: string, nodeId: string | undefined): Promise<ClaimedRun | undefined> {
    const runner = isUuid(runnerUuid) ? await this.runners.find(runnerUuid.toLowerCase()) : undefined;
    if (!runner || !this.seesRunner(principal, runner)) throw notFound(`meshBuildingBlockRunner ${runnerUuid} not found`);
    this.requireClaim(principal, runner.ownedByWorkspace);
    return this.inner.claim([runner.uuid], nodeId ?? runnerUuid);
  }

  /**
   * `?runnerNodeId=<node>[&selector=<type>]` (the spec's index template): a node id naming a runner
   * (`<uuid>`, `<uuid>-worker-<n>`, `run-controller-<uuid>`) claims for it; otherwise for the shared
   * runner of `selector`, or every shared runner.
   */
  async claimForNode(principal: Principal, nodeId: string, selector: string | undefined): Promise<ClaimedRun | undefined> {
    const named = UUID_IN.exec(nodeId)?.[0];
    const runner = named ? await this.runners.find(named.toLowerCase()) : undefined;
    if (runner && !this.seesRunner(principal, runner)) throw notFound(`meshBuildingBlockRunner ${named} not found`);
    if (runner) {
      this.requireClaim(principal, runner.ownedByWorkspace);
      return this.inner.claim([runner.uuid], nodeId);
    }
    const shared = selector ? sharedRunnerFor(selector.toUpperCase()) : undefined;
    if (selector && !shared) throw notFound(`no shared runner for selector "${selector}"`);
    this.requireClaim(principal, 'admin');
    return this.inner.claim(shared ? [shared.uuid] : SHARED_RUNNERS.map((r) => r.uuid), nodeId);
  }

  /** A private runner of another workspace is invisible (404), as its GET is. */
  private seesRunner(principal: Principal, runner: Runner): boolean {
    return runner.restriction === 'PUBLIC' || isAllowed(principal, 'BUILDINGBLOCKRUNNER', 'LIST', runner.ownedByWorkspace) || isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_SAVE', runner.ownedByWorkspace);
  }

  private requireClaim(principal: Principal, runnerWorkspace: string): void {
    if (!isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_SAVE', runnerWorkspace)) throw forbidden(`${INSUFFICIENT}: claiming this runner's runs needs MANAGED_BUILDINGBLOCKRUN_SAVE of workspace ${runnerWorkspace} (or ADM_BUILDINGBLOCKRUN_SAVE)`);
  }

  private ownToken(principal: Principal, run: Run): boolean {
    return principal.type === 'runToken' && principal.runUuid === run.uuid;
  }

  /** Another run's token: 403 (COMPAT §10); a key that may not see the run: 404, as for any object. */
  async get(principal: Principal, uuid: string): Promise<Run> {
    const run = await this.inner.get(uuid);
    if (this.ownToken(principal, run) || isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_LIST', run.definitionOwner) || isAllowed(principal, 'BUILDINGBLOCK', 'LIST', run.workspace)) return run;
    if (principal.type === 'runToken') throw forbidden(`${INSUFFICIENT}: a run token only reads its own run`);
    // The run's own workspaces learn what they lack; others do not learn the run exists.
    if (principal.type === 'apiKey' && (principal.workspace === run.workspace || principal.workspace === run.definitionOwner)) {
      throw forbidden(`${INSUFFICIENT}: BUILDINGBLOCK_LIST or MANAGED_BUILDINGBLOCKRUN_LIST is required to read runs`);
    }
    throw notFound(`meshBuildingBlockRun ${uuid} not found`);
  }

  async list(principal: Principal, filter: { blockUuid?: string; nodeId?: string }, page: PageRequest) {
    if (isAdminFor(principal, 'BUILDINGBLOCKRUN', 'LIST')) return this.inner.list(filter, page);
    if (principal.type !== 'apiKey') throw forbidden(`${INSUFFICIENT}: MANAGED_BUILDINGBLOCKRUN_LIST is required`);
    if (isAllowedAsManager(principal, 'BUILDINGBLOCKRUN_LIST', principal.workspace)) return this.inner.list({ ...filter, definitionOwner: principal.workspace }, page);
    throw forbidden(`${INSUFFICIENT}: MANAGED_BUILDINGBLOCKRUN_LIST is required`);
  }

  /** Spec §4.1: the run token, or the run-update permission of the workspace owning the run's definition. */
  private async reportable(principal: Principal, uuid: string): Promise<Run> {
    const run = await this.inner.get(uuid);
    if (!this.ownToken(principal, run) && !isAllowedAsManager(principal, 'BUILDINGBLOCKRUNSOURCE_SAVE', run.definitionOwner)) {
      throw forbidden(`${INSUFFICIENT}: report a run's status with its run token or MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE of the workspace owning its definition`);
    }
    return run;
  }

  async registerSource(principal: Principal, uuid: string, registration: Registration): Promise<void> {
    await this.inner.registerSource(await this.reportable(principal, uuid), registration);
  }

  async updateSource(principal: Principal, uuid: string, sourceId: string, update: { status?: string; steps: StepUpdate[] }): Promise<boolean> {
    return this.inner.updateSource(await this.reportable(principal, uuid), sourceId, update);
  }
}
