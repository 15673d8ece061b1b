import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { Db } from '../../store/transaction.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { Runner, RunnerInput } from './model.js';
import { RunnerStore } from './store.js';

/** Runners without any notion of who asks (AuthorizedRunnerService adds that). */
export class RunnerService {
  private readonly store: RunnerStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceService,
  ) {
    this.store = new RunnerStore(db);
  }

  async create(_ctx: RequestContext, input: RunnerInput): Promise<Runner> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const runner: Runner = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    await this.store.insert(runner);
    return runner;
  }

  async find(uuid: string): Promise<Runner | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.find(id) : undefined;
  }

  list(filter: { workspace?: string; orPublic?: boolean }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /**
   * PUT keeps what it omits (COMPAT §10: the run controller PUTs its runner without `restriction`);
   * a runner stays in its workspace.
   */
  async update(_ctx: RequestContext, existing: Runner, input: RunnerInput, sentRestriction: boolean): Promise<Runner> {
    if (input.ownedByWorkspace !== existing.ownedByWorkspace) throw badRequest(`metadata.ownedByWorkspace: a runner cannot move to another workspace (is "${existing.ownedByWorkspace}")`);
    const runner: Runner = {
      ...existing,
      implementationType: input.implementationType,
      restriction: sentRestriction ? input.restriction : existing.restriction,
      document: { metadata: { ...existing.document.metadata, ...input.document.metadata }, spec: { ...existing.document.spec, ...input.document.spec } },
    };
    await this.store.update(runner);
    return runner;
  }

  async delete(_ctx: RequestContext, runner: Runner): Promise<void> {
    const dependents = await this.store.dependents(runner.uuid);
    if (dependents.length > 0) throw conflict(`meshBuildingBlockRunner ${runner.uuid} is still assigned ${dependents.join(', ')}`);
    await this.store.delete(runner.uuid);
  }

  /** A runner asked for work: it is alive. */
  touch(uuid: string, at: string): Promise<void> {
    return this.store.touch(uuid, at);
  }
}
