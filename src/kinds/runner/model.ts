import type { SentObject } from '../document.js';

/** Its collection path. */
export const RUNNERS_PATH = '/api/meshobjects/meshbuildingblockrunners';

/** Runner implementation types (COMPAT §10); an ALL runner takes runs of every type. */
export const RUNNER_IMPLEMENTATION_TYPES = [
  'TERRAFORM',
  'GITHUB_WORKFLOW',
  'GITLAB_PIPELINE',
  'AZURE_DEVOPS_PIPELINE',
  'MANUAL',
  'ALL',
] as const;
export type RunnerImplementationType = (typeof RUNNER_IMPLEMENTATION_TYPES)[number];
export const RUNNER_RESTRICTIONS = ['PRIVATE', 'PUBLIC'] as const;

/** The internal runner (meshBuildingBlockRunner v1-preview). */
export interface Runner {
  uuid: string;
  ownedByWorkspace: string;
  implementationType: RunnerImplementationType;
  restriction: (typeof RUNNER_RESTRICTIONS)[number];
  createdOn: string;
  /** Its last claim, to RUNNER_SEEN_RESOLUTION_MS. */
  lastSeen?: string;
  /** `spec` as sent (the public key byte for byte). */
  document: SentObject;
}

/** A runner's `lastSeen` moves at most this often: it is written by claims, and its runs are claimed by many daemons at once. */
export const RUNNER_SEEN_RESOLUTION_MS = 1000;

export type RunnerInput = Pick<Runner, 'ownedByWorkspace' | 'implementationType' | 'restriction' | 'document'>;

/** The PEM a runner registered (a certificate or public key), if any. */
export const publicKeyOf = (runner: Runner) => runner.document.spec.publicKey as string | undefined;
