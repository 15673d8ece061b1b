import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { isSealedSecret, sealSensitive } from '../../crypto/secret-values.js';
import { isUuid } from '../../lib/validation.js';
import { IMPLEMENTATIONS } from '../definition/enums.js';
import type { DefinitionVersion } from '../definition/model.js';
import type { DefinitionStore } from '../definition/store.js';
import type { EventDraft } from '../eventlog/model.js';
import { eventOf, type EventTitle } from '../eventlog/titles.js';
import { sharedRunnerFor } from '../runner/shared-runners.js';
import type { TenantStore } from '../tenant/store.js';
import { missingInputState, nativeValue } from './inputs.js';
import type { Block, BlockStatus, ValueRow } from './model.js';
import {
  isFinal,
  isTransparent,
  type BlockRuns,
  type RunChange,
  type StepRow,
  type ResolvedInput,
  type Run,
  type RunBehavior,
  type RunStatus,
} from './run.js';
import type { BlockStore } from './store.js';
import { BLOCK_EVENTS } from './wire/index.js';
import type { EventCodec } from '../codec.js';
import { BLOCK_TITLES } from './events.js';

/**
 * The stores a block's lifecycle writes together, bound to one transaction: the named unit of work of
 * every block change (a block, its runs and its definition's usage count commit together or not at all).
 */
export interface BlockUnit {
  blocks: BlockStore;
  runs: BlockRuns;
  definitions: DefinitionStore;
  tenants: TenantStore;
  /** The events of this change (the recorder appends them last, in the same transaction). */
  events: EventDraft[];
}

/**
 * A block inserted in the running transaction, as the caller built it: it has no run yet (its first
 * is number 1), and the caller read its definition's `runTransparency` (the fallback of its version's).
 */
export interface NewBlock {
  definitionRunTransparency: boolean;
}

/** What a caller read in the running transaction already, so the lifecycle does not read it again. */
export interface KnownFacts {
  version?: DefinitionVersion;
  parents?: Block[];
  /** The block was inserted in this transaction. */
  created?: NewBlock;
}

/** What a block's events say about it. */
export const blockSubject = (block: Block) => ({ codec: BLOCK_EVENTS, id: block.uuid, workspace: block.workspace, object: block });

/** Sets a block's status (and latest run); a status it did not have before is an event. */
async function setStatus(tx: BlockUnit, block: Block, status: BlockStatus, latestRunUuid?: string): Promise<void> {
  await tx.blocks.setStatus(block.uuid, status, latestRunUuid);
  statusChanged(tx, block, status, latestRunUuid);
}

/** The event of a block's status written as `status` (none when it was that already). */
function statusChanged(tx: BlockUnit, block: Block, status: BlockStatus, latestRunUuid?: string): void {
  if (block.status === status) return;
  const after: Block = { ...block, status, ...(latestRunUuid ? { latestRunUuid } : {}) };
  tx.events.push(
    eventOf(BLOCK_TITLES.blockStatusChanged, {
      ...blockSubject(after),
      previous: block,
      description: `meshBuildingBlock ${block.uuid} went from ${block.status} to ${status}`,
    }),
  );
}

/**
 * Where a block waits before it can run (spec §3.1): for a parent that has not SUCCEEDED, then for an
 * operator input, then a user input without value or default; undefined when it can run.
 */
export function waitingStatus(
  version: DefinitionVersion,
  block: Pick<Block, 'parents' | 'inputs'>,
  parents: readonly Pick<Block, 'status'>[],
): BlockStatus | undefined {
  if (parents.length < block.parents.length || parents.some((parent) => parent.status !== 'SUCCEEDED'))
    return 'WAITING_FOR_DEPENDENT_INPUT';
  return missingInputState(version.spec, block.inputs);
}

/** The block status a run's report means while that run is the block's latest (spec §3.1, §3.2). */
export function blockStatusFor(behavior: RunBehavior, status: RunStatus): BlockStatus {
  if (status === 'PENDING') return 'PENDING';
  if (!isFinal(status)) return 'IN_PROGRESS';
  if (behavior === 'DESTROY' && status === 'SUCCEEDED') return 'SUCCEEDED'; // the block is removed with it
  return status as BlockStatus;
}

/**
 * The building block lifecycle (spec §3.1): what a block waits for, when its runs
 * start, and how a run's end moves the block on. Every method runs inside the caller's unit of work
 * (`tx`), so a block never exists without the run its status promises.
 */
export class BlockLifecycle {
  constructor(
    private readonly secrets: SecretBox,
    /** The run kind's event codec (runs depend on blocks, so it is handed in). */
    private readonly runEvents: EventCodec<RunChange>,
  ) {}

  /** The event of a run (`runRequested`, `runClaimed`, …) in its block's workspace, with the steps the change touched. */
  runEvent(key: EventTitle, run: Run, previous?: Run, steps?: readonly StepRow[]): EventDraft {
    // Only a transparent run's number and behaviour are the block's readers' to know.
    const which = isTransparent(run) ? `run ${run.runNumber} (${run.behavior})` : 'a run';
    return eventOf(key, {
      codec: this.runEvents,
      id: run.uuid,
      workspace: run.workspace,
      object: { run, ...(steps ? { steps } : {}) },
      ...(previous ? { previous: { run: previous } } : {}),
      description: `${which} of meshBuildingBlock ${run.blockUuid} is ${run.status}`,
    });
  }

  /** The version a block uses (it exists: blocks hold a foreign key to it). */
  async versionOf(tx: BlockUnit, block: Pick<Block, 'versionUuid'>): Promise<DefinitionVersion> {
    return (await tx.definitions.findVersion(block.versionUuid))!;
  }

  /**
   * Waits (status `waitingStatus`) or starts an APPLY run. `known` carries what the caller read in this
   * transaction already (a create reads its version and parents once) and, for a block inserted in it
   * (`created`), that it has no run yet.
   */
  async advance(tx: BlockUnit, block: Block, reason: string, known: KnownFacts = {}): Promise<{ status: BlockStatus; runUuid?: string }> {
    const version = known.version ?? (await this.versionOf(tx, block));
    const parents =
      known.parents ??
      (await tx.blocks.findMany(
        block.parents.map((parent) => parent.buildingBlockUuid),
        'share',
      ));
    const waiting = waitingStatus(version, block, parents);
    if (waiting) {
      await setStatus(tx, block, waiting);
      return { status: waiting };
    }
    const run = await this.startRun(tx, block, version, 'APPLY', reason, { ...known, parents });
    return { status: 'PENDING', runUuid: run.uuid };
  }

  /** A new run of the block, bound to its version's runner (or the shared one), waiting to be claimed. */
  async startRun(
    tx: BlockUnit,
    block: Block,
    version: DefinitionVersion,
    behavior: RunBehavior,
    reason: string,
    { parents, created }: KnownFacts = {},
  ): Promise<Run> {
    const now = new Date().toISOString();
    const runnerUuid =
      version.spec.runnerRef?.uuid.toLowerCase() ?? sharedRunnerFor(IMPLEMENTATIONS[version.spec.implementation.type].runnerType)!.uuid;
    const run: Run = {
      uuid: randomUUID(),
      blockUuid: block.uuid,
      runNumber: created ? 1 : await tx.runs.nextRunNumber(block.uuid),
      behavior,
      status: 'PENDING',
      runnerUuid,
      definitionUuid: block.definitionUuid,
      definitionOwner: block.definitionOwner,
      workspace: block.workspace,
      createdOn: now,
      updatedOn: now,
      snapshot: {
        buildingBlock: {
          uuid: block.uuid,
          spec: {
            displayName: block.displayName,
            workspaceIdentifier: block.workspace,
            ...(block.tenant ? { projectIdentifier: block.tenant.project, fullPlatformIdentifier: block.tenant.platformIdentifier } : {}),
            inputs: await this.resolveInputs(
              tx,
              block,
              version,
              parents ?? (await tx.blocks.findMany(block.parents.map((parent) => parent.buildingBlockUuid))),
            ),
            parentBuildingBlocks: block.parents,
          },
        },
        buildingBlockDefinition: {
          uuid: block.definitionUuid,
          spec: {
            workspaceIdentifier: block.definitionOwner,
            version: version.spec.versionNumber,
            implementation: version.spec.implementation,
            runTransparency:
              version.spec.runTransparency ??
              created?.definitionRunTransparency ??
              (await tx.definitions.runTransparency(block.definitionUuid)),
          },
        },
        // API keys are known by their uuid (client id), API users by name.
        trigger: { reason, author: { identifier: block.createdBy, type: isUuid(block.createdBy) ? 'ApiKey' : 'ApiUser' } },
      },
      outputs: {},
      logBytes: 0,
    };
    await tx.runs.insert(run);
    tx.events.push(this.runEvent(BLOCK_TITLES.runRequested, run));
    // A new block is PENDING already: only its run changes (assigning the status would rewrite its index entries).
    if (created && block.status === 'PENDING') await tx.blocks.setLatestRun(block.uuid, run.uuid);
    else await setStatus(tx, block, 'PENDING', run.uuid);
    return run;
  }

  /**
   * Every input of the version with its value (COMPAT §10): user and operator values or defaults,
   * static arguments, parent outputs, tenant and workspace identifiers. Inputs without a value are
   * left out (no `null` ever reaches a runner); sensitive values stay sealed until a runner claims.
   */
  private async resolveInputs(
    tx: BlockUnit,
    block: Block,
    version: DefinitionVersion,
    parents: readonly Block[],
  ): Promise<ResolvedInput[]> {
    const rows = new Map(block.inputs.map((row) => [row.key, row]));
    // Only the platform's tenant id needs the tenant row; everything else about the tenant is on the block.
    const needsTenant =
      block.tenant !== undefined && Object.values(version.spec.inputs).some((input) => input.assignmentType === 'PLATFORM_TENANT_ID');
    const tenant = needsTenant ? await tx.tenants.find(block.tenant!.uuid) : undefined;
    const resolved: ResolvedInput[] = [];
    for (const [key, input] of Object.entries(version.spec.inputs)) {
      let value: unknown;
      switch (input.assignmentType) {
        case 'USER_INPUT':
        case 'PLATFORM_OPERATOR_MANUAL_INPUT':
          value = rows.has(key) ? rows.get(key)!.value : input.defaultValue;
          break;
        case 'STATIC':
          value = input.argument;
          break;
        case 'BUILDING_BLOCK_OUTPUT': {
          const argument = String(input.argument);
          const dot = argument.indexOf('.');
          const parent = parents.find((p) => p.definitionUuid === argument.slice(0, dot).toLowerCase());
          value = parent?.outputs.find((output: ValueRow) => output.key === argument.slice(dot + 1))?.value;
          break;
        }
        case 'PLATFORM_TENANT_ID':
          value = tenant?.platformTenantId;
          break;
        case 'MESHSTACK_TENANT_UUID':
          value = block.tenant?.uuid;
          break;
        case 'WORKSPACE_IDENTIFIER':
          value = block.workspace;
          break;
        case 'PROJECT_IDENTIFIER':
          value = block.tenant?.project;
          break;
        case 'FULL_PLATFORM_IDENTIFIER':
          value = block.tenant?.platformIdentifier;
          break;
        case 'TENANT_BUILDING_BLOCK_UUID':
          value = block.uuid;
          break;
        case 'AUTHOR':
          value = block.createdBy;
          break;
        case 'USER_PERMISSIONS':
          value = '[]';
          break;
      }
      if (value === undefined || value === null) continue;
      const sealed = isSealedSecret(value);
      const isSensitive = (input.isSensitive ?? false) || sealed;
      if (isSensitive && !sealed) value = sealSensitive(value, undefined, this.secrets, key);
      else if (!sealed) value = nativeValue(input.type, value);
      resolved.push({ key, value, type: input.type, isSensitive, isEnvironment: input.isEnvironment ?? false });
    }
    return resolved;
  }

  /** A runner took the run: the block is IN_PROGRESS while this is its latest run. */
  async claimed(tx: BlockUnit, run: Run): Promise<void> {
    const before = await tx.blocks.setStatusWhileLatest(run.blockUuid, run.uuid, 'IN_PROGRESS');
    if (before) statusChanged(tx, before, 'IN_PROGRESS');
  }

  /** A runner reported a non-final run status: the block shows it while this is its latest run. */
  async reported(tx: BlockUnit, run: Run, status: RunStatus): Promise<void> {
    const blockStatus = blockStatusFor(run.behavior, status);
    const before = await tx.blocks.setStatusWhileLatest(run.blockUuid, run.uuid, blockStatus);
    if (before) statusChanged(tx, before, blockStatus);
  }

  /**
   * A run ended (spec §3.1, §3.2), `run` as it is now (its outputs merged): the run is written once,
   * ended; the block takes its status; a successful APPLY gives the block its outputs and lets blocks
   * waiting on it start; a successful DESTROY removes the block; a block marked for deletion during an
   * APPLY now gets its DESTROY run.
   */
  async finish(tx: BlockUnit, run: Run, status: RunStatus): Promise<void> {
    const now = new Date().toISOString();
    await tx.runs.update({ ...run, status, endedOn: now, updatedOn: now });
    const block = await tx.blocks.findForUpdate(run.blockUuid);
    if (!block || block.latestRunUuid !== run.uuid) return;
    if (run.behavior === 'DESTROY') {
      if (status === 'SUCCEEDED') await this.remove(tx, block);
      else await setStatus(tx, block, blockStatusFor('DESTROY', status));
      return;
    }
    const outputs: ValueRow[] = Object.entries(run.outputs).map(([key, output]) => ({
      key,
      value: output.value,
      valueType: output.type as ValueRow['valueType'],
      isSensitive: output.isSensitive,
    }));
    const updated: Block = { ...block, status: blockStatusFor('APPLY', status), outputs: status === 'SUCCEEDED' ? outputs : block.outputs };
    await tx.blocks.update(updated);
    if (updated.status !== block.status) {
      tx.events.push(
        eventOf(BLOCK_TITLES.blockStatusChanged, {
          ...blockSubject(updated),
          previous: block,
          description: `meshBuildingBlock ${block.uuid} went from ${block.status} to ${updated.status}`,
        }),
      );
    } else if (updated.outputs !== block.outputs)
      tx.events.push(eventOf(BLOCK_TITLES.blockChanged, { ...blockSubject(updated), previous: block }));
    if (block.markedForDeletionOn) {
      await this.startRun(tx, updated, await this.versionOf(tx, block), 'DESTROY', 'BUILDING_BLOCK_DELETION');
      return;
    }
    if (status === 'SUCCEEDED') {
      for (const child of await tx.blocks.findMany(await tx.blocks.children(block.uuid))) {
        if (child.status === 'WAITING_FOR_DEPENDENT_INPUT' && !child.markedForDeletionOn)
          await this.advance(tx, child, 'DEPENDENCY_SUCCEEDED');
      }
    }
  }

  /**
   * DELETE (spec §3.1): PURGE mode removes the block at once; DELETE mode runs DESTROY — right away,
   * or when the run in flight ends. A block no runner ever took has nothing to destroy and goes at once.
   */
  async requestDeletion(tx: BlockUnit, stale: Block, by: string): Promise<void> {
    const block = await tx.blocks.findForUpdate(stale.uuid);
    if (!block || block.markedForDeletionOn) return;
    const marked: Block = { ...block, markedForDeletionOn: new Date().toISOString(), markedForDeletionBy: by };
    await tx.blocks.update(marked);
    tx.events.push(eventOf(BLOCK_TITLES.blockDeletionRequested, blockSubject(marked)));
    const version = await this.versionOf(tx, block);
    if (version.spec.deletionMode === 'PURGE') return this.remove(tx, marked);
    const active = await tx.runs.activeRun(block.uuid);
    if (active?.status === 'IN_PROGRESS') return; // finish() starts the DESTROY run
    if (active) await this.abort(tx, active);
    if (!(await tx.runs.everClaimed(block.uuid))) return this.remove(tx, marked);
    await this.startRun(tx, marked, version, 'DESTROY', 'BUILDING_BLOCK_DELETION');
  }

  /** Purge (spec endpoint 8): gone from the service whatever runs; a run in flight is aborted. */
  async purge(tx: BlockUnit, stale: Block, by: string): Promise<void> {
    const block = await tx.blocks.findForUpdate(stale.uuid);
    if (!block) return;
    await tx.blocks.update({
      ...block,
      forcePurge: true,
      markedForDeletionOn: block.markedForDeletionOn ?? new Date().toISOString(),
      markedForDeletionBy: block.markedForDeletionBy ?? by,
    });
    await this.remove(tx, block);
  }

  private async abort(tx: BlockUnit, run: Run): Promise<void> {
    const at = new Date().toISOString();
    await tx.runs.endIfActive(run.uuid, 'ABORTED', at);
    tx.events.push(this.runEvent(BLOCK_TITLES.runCancelled, { ...run, status: 'ABORTED', endedOn: at, updatedOn: at }));
  }

  /** The block goes, with its run in flight aborted; its definition counts one block less. */
  private async remove(tx: BlockUnit, block: Block): Promise<void> {
    const active = await tx.runs.activeRun(block.uuid);
    if (active && !isFinal(active.status)) await this.abort(tx, active);
    if (await tx.blocks.delete(block.uuid)) {
      await tx.definitions.countUsage(block.definitionUuid, -1);
      tx.events.push(eventOf(BLOCK_TITLES.blockDeleted, blockSubject(block)));
    }
  }
}
