/** Its collection path. */
export const RUNS_PATH = '/api/meshobjects/meshbuildingblockruns';
/** Step statuses at registration (spec §2.7); an update may also report ABORTED (spec §3.2). */
export const STEP_REGISTRATION_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED'] as const;
export const STEP_STATUSES = [...STEP_REGISTRATION_STATUSES, 'ABORTED'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * A run token keeps working this long after its run ended, and not longer: runners and CI actions
 * send a last report (a final step, the logs) after the run's end, which is answered 200 unchanged.
 */
export const RUN_TOKEN_GRACE_SECONDS = 600;

/** At most this many steps per source (spec §2.7, §8). */
export const MAX_STEPS_PER_SOURCE = 50;

/** A status source registering itself and its steps (spec §2.7). */
export interface SourceRegistration {
  sourceId: string;
  source: { id: string; externalRunId?: string; externalRunUrl?: string };
  steps: { id: string; displayName?: string; status?: string }[];
}

/** A step's update (spec §4.1, endpoint 18); absent fields change nothing. */
export interface StepUpdate {
  id: string;
  displayName?: string;
  status?: string;
  userMessage?: string;
  systemMessage?: string;
  outputs?: Record<string, { value?: unknown; type?: string; isSensitive?: boolean }>;
}

/** A source's update of the run: the run's status and step changes. */
export interface RunUpdate {
  status?: string;
  steps: StepUpdate[];
}
