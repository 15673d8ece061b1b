import { isAdminFor, isAllowed, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Runner, RunnerInput } from './model.js';
import type { RunnerService } from './service.js';

/**
 * `BUILDINGBLOCKRUNNER_*` act on the key's own workspace's runners, `ADM_` on all; PUBLIC runners
 * (the shared ones among them) are visible to every caller who may list runners and made only by
 * admins (COMPAT §10).
 */
export class AuthorizedRunnerService {
  constructor(private readonly inner: RunnerService) {}

  private requirePublicAllowed(principal: Principal, input: Pick<Runner, 'restriction'>): void {
    if (input.restriction === 'PUBLIC' && !isAdminFor(principal, 'BUILDINGBLOCKRUNNER', 'SAVE')) throw forbidden("you don't have sufficient permissions: only admins make PUBLIC runners");
  }

  async get(principal: Principal, uuid: string): Promise<Runner> {
    const runner = await this.inner.get(uuid);
    if (runner.restriction !== 'PUBLIC' && !isAllowed(principal, 'BUILDINGBLOCKRUNNER', 'LIST', runner.ownedByWorkspace)) throw notFound(`meshBuildingBlockRunner ${uuid} not found`);
    return runner;
  }

  async list(principal: Principal, workspace: string | undefined, page: PageRequest): Promise<{ items: Runner[]; total: number }> {
    const scope = listScope(principal, 'BUILDINGBLOCKRUNNER');
    if (scope === 'all') return this.inner.list(workspace ? { workspace } : {}, page);
    if (workspace !== undefined && workspace !== scope.workspace) return { items: [], total: 0 };
    return this.inner.list({ workspace: scope.workspace, orPublic: workspace === undefined }, page);
  }

  async create(principal: Principal, input: RunnerInput): Promise<Runner> {
    requireAllowed(principal, 'BUILDINGBLOCKRUNNER', 'SAVE', input.ownedByWorkspace);
    this.requirePublicAllowed(principal, input);
    return this.inner.create(input);
  }

  async update(principal: Principal, uuid: string, input: RunnerInput, sentRestriction: boolean, sentUuid?: string): Promise<Runner> {
    if (sentUuid !== undefined && sentUuid.toLowerCase() !== uuid.toLowerCase()) throw badRequest(`metadata.uuid: "${sentUuid}" does not match the runner ${uuid} of the path`);
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCKRUNNER', 'SAVE', existing.ownedByWorkspace);
    if (sentRestriction) this.requirePublicAllowed(principal, input);
    return this.inner.update(existing, input, sentRestriction);
  }

  async delete(principal: Principal, uuid: string): Promise<void> {
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCKRUNNER', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(existing);
  }
}
