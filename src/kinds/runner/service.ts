import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUuid } from '../../http/validation.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { Runner, RunnerInput } from './model.js';
import type { RunnerStore } from './store.js';

/** Runners without any notion of who asks (AuthorizedRunnerService adds that). */
export class RunnerService {
  constructor(
    private readonly store: RunnerStore,
    private readonly workspaces: WorkspaceService,
  ) {}

  async create(input: RunnerInput): Promise<Runner> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const runner: Runner = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    await this.store.insert(runner);
    return runner;
  }

  async get(uuid: string): Promise<Runner> {
    const runner = isUuid(uuid) ? await this.store.find(uuid.toLowerCase()) : undefined;
    if (!runner) throw notFound(`meshBuildingBlockRunner ${uuid} not found`);
    return runner;
  }

  list(filter: { workspace?: string; orPublic?: boolean }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /**
   * PUT keeps what it omits (COMPAT §10: the run controller PUTs its runner without `restriction`);
   * a runner stays in its workspace.
   */
  async update(existing: Runner, input: RunnerInput, sentRestriction: boolean): Promise<Runner> {
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

  async delete(runner: Runner): Promise<void> {
    const dependents = await this.store.dependents(runner.uuid);
    if (dependents.length > 0) throw conflict(`meshBuildingBlockRunner ${runner.uuid} is still assigned ${dependents.join(', ')}`);
    await this.store.delete(runner.uuid);
  }
}
