import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { Runner, RunnerInput } from './model.js';
import { RunnerStore } from './store.js';
import { RUNNER_EVENTS } from './wire/index.js';
import { RUNNER_TITLES } from './events.js';

const subject = (runner: Runner) => ({ codec: RUNNER_EVENTS, id: runner.uuid, workspace: runner.ownedByWorkspace, object: runner });

/** Runners without any notion of who asks (AuthorizedRunnerService adds that). */
export class RunnerService {
  private readonly store: RunnerStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new RunnerStore(db);
  }

  async create(ctx: RequestContext, input: RunnerInput): Promise<Runner> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const runner: Runner = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    await this.events.change(ctx, async (trx, events) => {
      await new RunnerStore(trx).insert(runner);
      events.push(eventOf(RUNNER_TITLES.runnerCreated, subject(runner)));
    });
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
  async update(ctx: RequestContext, existing: Runner, input: RunnerInput, sentRestriction: boolean): Promise<Runner> {
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest(`metadata.ownedByWorkspace: a runner cannot move to another workspace (is "${existing.ownedByWorkspace}")`);
    const runner: Runner = {
      ...existing,
      implementationType: input.implementationType,
      restriction: sentRestriction ? input.restriction : existing.restriction,
      document: {
        metadata: { ...existing.document.metadata, ...input.document.metadata },
        spec: { ...existing.document.spec, ...input.document.spec },
      },
    };
    if (!differs(existing, runner)) return runner;
    await this.events.change(ctx, async (trx, events) => {
      await new RunnerStore(trx).update(runner);
      events.push(eventOf(RUNNER_TITLES.runnerChanged, { ...subject(runner), previous: existing }));
    });
    return runner;
  }

  async delete(ctx: RequestContext, runner: Runner): Promise<void> {
    const dependents = await this.references.holding(this.db, 'runner', [runner.uuid]);
    if (dependents.length > 0) throw conflict(`meshBuildingBlockRunner ${runner.uuid} is still assigned ${dependents.join(', ')}`);
    await this.events.change(ctx, async (trx, events) => {
      await new RunnerStore(trx).delete(runner.uuid);
      events.push(eventOf(RUNNER_TITLES.runnerDeleted, subject(runner)));
    });
  }
}
