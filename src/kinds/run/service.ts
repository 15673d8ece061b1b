import type { RequestContext } from '../../auth/context.js';
import type { TokenService } from '../../auth/tokens.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { encryptForRunner, runnerPublicKey } from '../../crypto/runner-encryption.js';
import { isSealedSecret, sealSensitive } from '../../crypto/secret-values.js';
import { badRequest } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { MAX_SOURCES_PER_RUN } from '../../lib/limits.js';
import type { Db } from '../../store/transaction.js';
import { SYSTEM } from '../../auth/context.js';
import type { EventDraft } from '../eventlog/model.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { BlockLifecycle } from '../block/lifecycle.js';
import { isFinal, RUN_STATUSES, type Run, type RunOutput, type RunStatus, type StepRow } from '../block/run.js';
import { IMPLEMENTATIONS, type ImplementationType } from '../definition/enums.js';
import { publicKeyOf, RUNNER_SEEN_RESOLUTION_MS, type Runner } from '../runner/model.js';
import type { RunnerService } from '../runner/service.js';
import {
  MAX_STEPS_PER_SOURCE,
  STEP_REGISTRATION_STATUSES,
  STEP_STATUSES,
  type RunUpdate,
  type SourceRegistration,
  type StepUpdate,
} from './model.js';
import { fitLog } from './log-budget.js';
import type { RunStore } from './store.js';
import type { RunUnit } from './unit.js';
import { BLOCK_TITLES } from '../block/events.js';

/** A claimed run with what only its runner may read: the token and the runner-encrypted values. */
export interface ClaimedRun {
  run: Run;
  runToken: string;
  inputs: unknown[];
  implementation: Record<string, unknown>;
}

/** How long a run's end looked up for its run token is trusted before it is read again. */
const RUN_END_CACHE_MS = 5_000;

/** Raised when a run's secrets cannot be encrypted for its runner (no or unusable public key). */
class CannotFillRun extends Error {}

/** Runs as runners drive them (COMPAT §10): claiming, status sources and steps, outputs. */
export class RunService {
  private readonly store: RunStore;
  /** Ends of runs looked up for their run tokens, each read again after RUN_END_CACHE_MS. */
  private readonly ends = new Map<string, { endedOn: string | undefined; until: number }>();

  constructor(
    private readonly db: Db,
    /** A run's unit of work; the blocks' kind shares it (and the lifecycle), made here with the runs' event codec. */
    readonly unitOf: (db: Db, events?: EventDraft[]) => RunUnit,
    readonly lifecycle: BlockLifecycle,
    private readonly runners: RunnerService,
    private readonly secrets: SecretBox,
    private readonly tokens: TokenService,
    private readonly events: EventRecorder,
    private readonly limits: { runTimeoutSeconds: number; logMaxBytes: number },
  ) {
    this.store = unitOf(db).runs;
  }

  /** A run's change: one transaction, its events appended last (EventRecorder). */
  private transaction<T>(ctx: RequestContext, work: (unit: RunUnit) => Promise<T>): Promise<T> {
    return this.events.change(ctx, (trx, events) => work(this.unitOf(trx, events)));
  }

  async find(uuid: string): Promise<Run | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.find(id) : undefined;
  }

  /**
   * When the run ended (undefined while it goes on, or when there is no such run), for its run token:
   * cached briefly, so a token costs no database round trip per request.
   */
  async endedOn(uuid: string): Promise<string | undefined> {
    const now = Date.now();
    const cached = this.ends.get(uuid);
    if (cached && cached.until > now) return cached.endedOn;
    const endedOn = await this.store.endedOn(uuid);
    if (this.ends.size >= 10_000) this.ends.clear();
    this.ends.set(uuid, { endedOn, until: now + RUN_END_CACHE_MS });
    return endedOn;
  }

  list(filter: { blockUuid?: string; nodeId?: string; definitionOwner?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /**
   * Hands the oldest waiting run of these runners to this caller (atomic across instances), with a
   * run token and its secrets encrypted for the runner. A run whose secrets cannot be encrypted for
   * its runner fails at once (a runner could not use it) and the next one is tried. `known`: the
   * runner as the caller has just read it (not read again when the run is its).
   */
  async claim(
    ctx: RequestContext,
    runnerUuids: readonly string[],
    nodeId: string | undefined,
    known?: Runner,
  ): Promise<ClaimedRun | undefined> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const now = new Date().toISOString();
      const run = await this.transaction(ctx, async (tx) => {
        const claimed = await tx.runs.claim(runnerUuids, nodeId, now);
        if (claimed) {
          // The runner as the caller read it this request, seen within the resolution: the write would change nothing.
          const seenLately =
            known?.uuid === claimed.runnerUuid &&
            known.lastSeen !== undefined &&
            Date.parse(now) - Date.parse(known.lastSeen) < RUNNER_SEEN_RESOLUTION_MS;
          if (!seenLately) await tx.runners.seen(claimed.runnerUuid, now);
          tx.events.push(this.lifecycle.runEvent(BLOCK_TITLES.runClaimed, claimed));
          await this.lifecycle.claimed(tx, claimed);
        }
        return claimed;
      });
      if (!run) return undefined;
      try {
        const { inputs, implementation } = await this.forRunner(run, known);
        const { access_token } = await this.tokens.issueForRun(run.uuid, ctx.principal);
        return { run, runToken: access_token, inputs, implementation };
      } catch (error) {
        if (!(error instanceof CannotFillRun)) throw error;
        await this.transaction(SYSTEM, async (tx) => {
          const step = {
            sourceId: 'blockyard',
            stepId: 'prepare',
            position: 0,
            displayName: 'Prepare run',
            status: 'FAILED',
            systemMessage: error.message,
            outputs: {},
            updatedOn: now,
          } as const;
          await tx.runs.upsertSource(run.uuid, 'blockyard', { id: 'blockyard' }, now);
          await tx.runs.putSteps(run.uuid, [step], now);
          tx.events.push(
            this.lifecycle.runEvent(BLOCK_TITLES.runStatusChanged, { ...run, status: 'FAILED', endedOn: now, updatedOn: now }, run, [step]),
          );
          await this.lifecycle.finish(tx, run, 'FAILED');
        });
      }
    }
    return undefined;
  }

  /** Inputs and implementation as the runner receives them: sensitive values encrypted with its key. */
  private async forRunner(run: Run, known: Runner | undefined): Promise<{ inputs: unknown[]; implementation: Record<string, unknown> }> {
    const runner = known?.uuid === run.runnerUuid ? known : await this.runners.find(run.runnerUuid);
    let key: ReturnType<typeof runnerPublicKey> | undefined;
    const encrypt = (sealed: unknown) => {
      if (!isSealedSecret(sealed)) return sealed;
      const pem = runner && publicKeyOf(runner);
      if (!pem) throw new CannotFillRun(`runner ${run.runnerUuid} has no public key to encrypt this run's sensitive values for`);
      key ??= runnerPublicKey(pem);
      return encryptForRunner(key, this.secrets.decrypt(sealed.ciphertext));
    };
    const inputs = run.snapshot.buildingBlock.spec.inputs.map((input) => ({ ...input, value: encrypt(input.value) }));
    const { type, ...rest } = run.snapshot.buildingBlockDefinition.spec.implementation as { type: ImplementationType } & Record<
      string,
      unknown
    >;
    const details = { ...((rest[type] as Record<string, unknown> | undefined) ?? {}) };
    if (details.sshKnownHost !== undefined) {
      details.knownHost = details.sshKnownHost;
      delete details.sshKnownHost;
    }
    for (const [field, value] of Object.entries(details)) details[field] = encrypt(value);
    return { inputs, implementation: { type: IMPLEMENTATIONS[type].runType, ...details } };
  }

  /** How many runs wait to be claimed, per runner (every runner, 0 included): the metrics' queue depths. */
  waitingByRunner(): Promise<{ runner: string; waiting: number }[]> {
    return this.store.waitingByRunner();
  }

  /**
   * A claimed run whose runner has said nothing for the run timeout fails, with a step
   * saying so; its block follows. Safe on several instances: each run is re-checked in its transaction.
   */
  async expireSilentRuns(now = Date.now()): Promise<number> {
    const before = new Date(now - this.limits.runTimeoutSeconds * 1000).toISOString();
    let expired = 0;
    for (const uuid of await this.store.silentSince(before)) {
      await this.transaction(SYSTEM, async (tx) => {
        const run = await tx.runs.findForUpdate(uuid);
        if (!run || run.status !== 'IN_PROGRESS' || run.updatedOn >= before) return;
        const at = new Date(now).toISOString();
        await tx.runs.upsertSource(run.uuid, 'blockyard', { id: 'blockyard' }, at);
        const message = `no status report for ${this.limits.runTimeoutSeconds} s (BLOCKYARD_RUN_TIMEOUT_SECONDS): the run timed out`;
        const step = {
          sourceId: 'blockyard',
          stepId: 'timeout',
          position: 0,
          displayName: 'Run timeout',
          status: 'FAILED',
          systemMessage: message,
          outputs: {},
          updatedOn: at,
        } as const;
        await tx.runs.putSteps(run.uuid, [step], at);
        tx.events.push(
          this.lifecycle.runEvent(BLOCK_TITLES.runStatusChanged, { ...run, status: 'FAILED', endedOn: at, updatedOn: at }, run, [step]),
        );
        await this.lifecycle.finish(tx, run, 'FAILED');
        expired++;
      });
    }
    return expired;
  }

  /** Endpoint 17: registers (or updates) a source and its steps, in the order given. */
  async registerSource(ctx: RequestContext, run: Run, registration: SourceRegistration): Promise<void> {
    for (const step of registration.steps) {
      if (step.status !== undefined && !(STEP_REGISTRATION_STATUSES as readonly string[]).includes(step.status)) {
        throw badRequest(`steps: status of step "${step.id}" must be one of ${STEP_REGISTRATION_STATUSES.join(', ')}`);
      }
    }
    if (isFinal(run.status)) return;
    const now = new Date().toISOString();
    await this.transaction(ctx, async (tx) => {
      const current = await tx.runs.findForUpdate(run.uuid);
      if (!current || isFinal(current.status)) return;
      await this.ensureSource(tx, run.uuid, registration.sourceId, registration.source, now, 'replace');
      const existing = await tx.runs.steps(run.uuid, registration.sourceId);
      const steps = mergeSteps(
        registration.sourceId,
        existing,
        registration.steps.map((step) => ({ ...step, status: step.status ?? 'PENDING' })),
        now,
      );
      await tx.runs.putSteps(run.uuid, steps, now);
      await tx.runs.touch(run.uuid, now);
      if (steps.length > 0)
        tx.events.push(
          this.lifecycle.runEvent(
            BLOCK_TITLES.runStepsChanged,
            { ...current, updatedOn: now },
            undefined,
            steps.map((step) => forEvent(step, now)),
          ),
        );
    });
  }

  /**
   * Endpoint 18: step results, outputs and the run status. An ended run changes no more (200 all the
   * same: CI actions keep reporting). Answers whether the run is aborted; undefined when there is no
   * such run. The run and the source's steps are read once, together, in the transaction: the
   * caller's permission needs no read of the run when it is the run's own token (AuthorizedRunService).
   */
  async updateSource(ctx: RequestContext, runUuid: string, sourceId: string, update: RunUpdate): Promise<boolean | undefined> {
    return this.transaction(ctx, async (tx) => {
      const found = await tx.runs.findForReport(runUuid, sourceId);
      if (!found) return undefined;
      const { run: current, steps: existing } = found;
      if (update.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(update.status))
        throw badRequest(`status: must be one of ${RUN_STATUSES.join(', ')}, got "${update.status}"`);
      for (const step of update.steps) {
        if (step.status !== undefined && !(STEP_STATUSES as readonly string[]).includes(step.status))
          throw badRequest(`steps: status of step "${step.id}" must be one of ${STEP_STATUSES.join(', ')}`);
      }
      if (isFinal(current.status)) return current.status === 'ABORTED';
      const now = new Date().toISOString();
      // A source with steps exists: only a report naming a source without any asks for it.
      if (existing.length === 0) await this.ensureSource(tx, runUuid, sourceId, { id: sourceId }, now, 'keep');
      const outputs: Record<string, RunOutput> = { ...current.outputs };
      const fitted = fitLog(update.steps, existing, current.logBytes, this.limits.logMaxBytes);
      const changes = fitted.changes.map((step) => {
        const stepOutputs = this.sealOutputs(step.outputs ?? {}, current.outputs);
        Object.assign(outputs, stepOutputs);
        return { ...step, outputs: stepOutputs };
      });
      const merged = mergeSteps(sourceId, existing, changes, now);
      const status = (update.status as RunStatus | undefined) ?? current.status;
      const after: Run = {
        ...current,
        outputs,
        logBytes: fitted.logBytes,
        updatedOn: now,
        status,
        ...(isFinal(status) ? { endedOn: now } : {}),
      };
      if (status !== current.status)
        tx.events.push(
          this.lifecycle.runEvent(
            BLOCK_TITLES.runStatusChanged,
            after,
            current,
            merged.map((step) => forEvent(step, now)),
          ),
        );
      else if (merged.length > 0)
        tx.events.push(
          this.lifecycle.runEvent(
            BLOCK_TITLES.runStepsChanged,
            after,
            undefined,
            merged.map((step) => forEvent(step, now)),
          ),
        );
      // The run row is written once: ended by the lifecycle, or here with the steps.
      if (isFinal(status)) {
        await tx.runs.putSteps(runUuid, merged, now);
        await this.lifecycle.finish(tx, { ...current, outputs, logBytes: fitted.logBytes }, status);
      } else {
        await tx.runs.report(after, status !== current.status, merged);
        if (status !== current.status) await this.lifecycle.reported(tx, after, status);
      }
      return status === 'ABORTED';
    });
  }

  /**
   * Registers a status source; one already registered keeps its document or has it replaced. A run
   * has at most MAX_SOURCES_PER_RUN of them (400 beyond): one read of its sources says both whether
   * this one is among them and how many there are.
   */
  private async ensureSource(
    tx: RunUnit,
    runUuid: string,
    sourceId: string,
    document: object,
    now: string,
    registered: 'keep' | 'replace',
  ): Promise<void> {
    const sources = await tx.runs.sourceIds(runUuid);
    const known = sources.includes(sourceId);
    if (known && registered === 'keep') return;
    if (!known && sources.length >= MAX_SOURCES_PER_RUN)
      throw badRequest(`sourceId: a run has at most ${MAX_SOURCES_PER_RUN} status sources; "${sourceId}" would be one more`);
    await tx.runs.upsertSource(runUuid, sourceId, document, now);
  }

  /** A run's steps in order, read in slices of `slice`: a log of any length is never held whole. */
  async *steps(run: Run, slice = 50): AsyncIterable<StepRow> {
    let after: { sourceId: string; position: number } | undefined;
    for (;;) {
      const rows = await this.store.stepsAfter(run.uuid, after, slice);
      yield* rows;
      if (rows.length < slice) return;
      const last = rows.at(-1)!;
      after = { sourceId: last.sourceId, position: last.position };
    }
  }

  /** Outputs are stored per step and merged into the run, last wins; sensitive ones sealed. */
  private sealOutputs(outputs: NonNullable<StepUpdate['outputs']>, previous: Record<string, RunOutput>): Record<string, RunOutput> {
    const sealed: Record<string, RunOutput> = {};
    for (const [name, output] of Object.entries(outputs)) {
      if (output.value === undefined) continue;
      const isSensitive = output.isSensitive ?? false;
      const value = isSensitive ? sealSensitive(output.value, previous[name]?.value, this.secrets, `steps.outputs.${name}`) : output.value;
      sealed[name] = {
        value,
        type: output.type ?? (typeof output.value === 'number' ? 'INTEGER' : typeof output.value === 'boolean' ? 'BOOLEAN' : 'STRING'),
        isSensitive,
      };
    }
    return sealed;
  }
}

/** Longer messages are cut in an event (the run's steps keep them whole). */
const EVENT_MESSAGE_CHARS = 4096;
const cut = (text: string | undefined) =>
  text === undefined || text.length <= EVENT_MESSAGE_CHARS
    ? text
    : `${text.slice(0, EVENT_MESSAGE_CHARS)}… (${text.length - EVENT_MESSAGE_CHARS} more characters in the run's log)`;

/** A step changed at `at` as its run's event carries it (RUN_EVENTS shows it): its user message cut to EVENT_MESSAGE_CHARS. */
function forEvent(step: StepRow, at: string): StepRow {
  const userMessage = cut(step.userMessage);
  return { ...step, ...(userMessage !== undefined ? { userMessage } : {}), updatedOn: step.updatedOn ?? at };
}

/**
 * The steps of one source a change touches, as they are after it (changed at `now`): known steps keep
 * their place and take the new values; unknown ones are appended (registered on the fly). At most
 * 50 per source (spec §2.7).
 */
function mergeSteps(
  sourceId: string,
  existing: StepRow[],
  changes: (Partial<StepUpdate> & { id: string; outputs?: Record<string, RunOutput> })[],
  now: string,
): StepRow[] {
  const steps = new Map(existing.map((step) => [step.stepId, step]));
  const touched = new Set<string>();
  for (const change of changes) {
    const current = steps.get(change.id);
    const step: StepRow = current ?? {
      sourceId,
      stepId: change.id,
      position: steps.size,
      displayName: change.displayName ?? change.id,
      status: 'PENDING',
      outputs: {},
    };
    const next: StepRow = {
      ...step,
      ...(change.displayName ? { displayName: change.displayName } : {}),
      ...(change.status ? { status: change.status } : {}),
      ...(change.userMessage !== undefined ? { userMessage: change.userMessage } : {}),
      ...(change.systemMessage !== undefined ? { systemMessage: change.systemMessage } : {}),
      outputs: { ...step.outputs, ...(change.outputs ?? {}) },
    };
    steps.set(change.id, next);
    // A step named without any change keeps its time of last change.
    if (!current || JSON.stringify({ ...next, updatedOn: undefined }) !== JSON.stringify({ ...current, updatedOn: undefined }))
      touched.add(change.id);
  }
  if (steps.size > MAX_STEPS_PER_SOURCE)
    throw badRequest(`steps: a source has at most ${MAX_STEPS_PER_SOURCE} steps (spec §2.7); this one would have ${steps.size}`);
  return [...steps.values()].filter((step) => touched.has(step.stepId)).map((step) => ({ ...step, updatedOn: now }));
}
