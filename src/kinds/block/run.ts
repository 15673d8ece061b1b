import type { ValueType } from '../kinds/definition/enums.js';

/** Spec §3.2. SUCCEEDED, FAILED and ABORTED are final. */
export const RUN_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'ABORTED', 'FAILED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['SUCCEEDED', 'FAILED', 'ABORTED'];
export const isFinal = (status: RunStatus) => FINAL_RUN_STATUSES.includes(status);

/** Step statuses at registration (spec §2.7); an update may also report ABORTED (spec §3.2). */
export const STEP_REGISTRATION_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED'] as const;
export const STEP_STATUSES = [...STEP_REGISTRATION_STATUSES, 'ABORTED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** At most this many steps per source (spec §2.7, §8). */
export const MAX_STEPS_PER_SOURCE = 50;

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
  buildingBlockDefinition: { uuid: string; spec: { workspaceIdentifier: string; version: number; implementation: Record<string, unknown> } };
  trigger: { reason: string; author: { identifier: string; type: string } };
}

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
}
