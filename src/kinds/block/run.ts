import type { ValueType } from '../definition/enums.js';

/**
 * A block's runs as the block lifecycle knows them (spec §3.2): a run belongs to one block and is
 * made, ended and read by the lifecycle; kinds/run adds what runners do with it (claims, status
 * sources and steps).
 */
export const RUN_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'ABORTED', 'FAILED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** SUCCEEDED, FAILED and ABORTED are final. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['SUCCEEDED', 'FAILED', 'ABORTED'];
export const isFinal = (status: RunStatus) => FINAL_RUN_STATUSES.includes(status);

export type RunBehavior = 'APPLY' | 'DESTROY';

/** An input as the runner receives it (COMPAT §10): native value, sealed at rest when sensitive. */
export interface ResolvedInput {
  key: string;
  value: unknown;
  type: ValueType;
  isSensitive: boolean;
  isEnvironment: boolean;
}

/** What a runner needs, resolved when the run was created and kept with it. */
export interface RunSnapshot {
  buildingBlock: {
    uuid: string;
    spec: {
      displayName: string;
      workspaceIdentifier: string;
      projectIdentifier?: string;
      fullPlatformIdentifier?: string;
      inputs: ResolvedInput[];
      parentBuildingBlocks: { buildingBlockUuid: string; definitionUuid: string }[];
    };
  };
  buildingBlockDefinition: {
    uuid: string;
    /** `runTransparency`: consumers may read the run (its statuses and user messages), as the version or definition said. */
    spec: { workspaceIdentifier: string; version: number; implementation: Record<string, unknown>; runTransparency?: boolean };
  };
  trigger: { reason: string; author: { identifier: string; type: string } };
}

/** A step of a run's status source, as stored. */
export interface StepRow {
  sourceId: string;
  stepId: string;
  position: number;
  displayName: string;
  status: string;
  userMessage?: string;
  systemMessage?: string;
  outputs: Record<string, RunOutput>;
  /** Set when read: the time of the step's last change. */
  updatedOn?: string;
}

/** A run and the steps a change of it touched: what one of its events is about. */
export interface RunChange {
  run: Run;
  steps?: readonly StepRow[];
}

/** Whether the block's consumers may read the run (its statuses and user messages): the definition's `runTransparency`. */
export const isTransparent = (run: Pick<Run, 'snapshot'>): boolean => run.snapshot.buildingBlockDefinition.spec.runTransparency === true;

/** An output a runner reported: `{value, type, isSensitive}`, sealed at rest when sensitive. */
export interface RunOutput {
  value: unknown;
  type: string;
  isSensitive: boolean;
}

export interface Run {
  uuid: string;
  blockUuid: string;
  runNumber: number;
  behavior: RunBehavior;
  status: RunStatus;
  runnerUuid: string;
  definitionUuid: string;
  definitionOwner: string;
  workspace: string;
  nodeId?: string;
  createdOn: string;
  claimedOn?: string;
  endedOn?: string;
  updatedOn: string;
  snapshot: RunSnapshot;
  outputs: Record<string, RunOutput>;
  /** UTF-8 bytes of the messages its steps hold (kinds/run bounds them). */
  logBytes: number;
}

/**
 * Where the lifecycle keeps runs (implemented by kinds/run's store). A block's unit of work holds
 * one, bound to its transaction.
 */
export interface BlockRuns {
  insert(run: Run): Promise<void>;
  update(run: Run): Promise<void>;
  nextRunNumber(blockUuid: string): Promise<number>;
  /** The run of a block that has not ended (at most one at a time). */
  activeRun(blockUuid: string): Promise<Run | undefined>;
  /** Whether a runner ever took a run of this block (else nothing was provisioned). */
  everClaimed(blockUuid: string): Promise<boolean>;
  /** Ends the run unless it ended already (column-level: no stale read can undo another change). */
  endIfActive(uuid: string, status: 'ABORTED' | 'FAILED', at: string): Promise<void>;
}
