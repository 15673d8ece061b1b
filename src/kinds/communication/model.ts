import type { CommunicationType } from '../communicationdefinition/model.js';

/** Its collection path. */
export const COMMUNICATIONS_PATH = '/api/meshobjects/meshcommunications';

/** What a communication may target (OpenAPI: "Supported values are: meshWorkspace, meshTenant, and meshBuildingBlock"). */
export const TARGET_KINDS = ['meshWorkspace', 'meshTenant', 'meshBuildingBlock'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** `status.resolutionStatus` values the OpenAPI documents (only ACTION_REQUIRED communications have one). */
export const RESOLUTION_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type ResolutionStatus = (typeof RESOLUTION_STATUSES)[number];

export interface TargetRef {
  kind: TargetKind;
  /** The workspace identifier, the tenant uuid or the block uuid. */
  name: string;
}

/**
 * The internal communication (meshCommunication v1-preview): one definition sent to one
 * target, owned by the target's workspace, whose keys resolve it. It carries its definition's
 * summary as the published status shows it.
 */
export interface Communication {
  uuid: string;
  workspace: string;
  target: TargetRef;
  definition: { uuid: string; title: string; dueDate: string; type: CommunicationType };
  /** Absent for a NOTIFICATION. */
  resolutionStatus?: ResolutionStatus;
  createdOn: string;
}

export interface CommunicationInput {
  definitionUuid: string;
  target: TargetRef;
}
