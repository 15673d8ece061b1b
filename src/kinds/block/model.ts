import type { ValueType } from '../definition/enums.js';
import type { Definition, DefinitionVersion } from '../definition/model.js';
import type { Tenant } from '../tenant/model.js';

/** Its collection path. */
export const BLOCKS_PATH = '/api/meshobjects/meshbuildingblocks';

/** Spec §3.1. `WAITING_FOR_APPROVAL` exists only as a list filter value (COMPAT §9). */
export const BLOCK_STATUSES = [
  'WAITING_FOR_DEPENDENT_INPUT',
  'WAITING_FOR_OPERATOR_INPUT',
  'WAITING_FOR_USER_INPUT',
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'ABORTED',
] as const;
export type BlockStatus = (typeof BLOCK_STATUSES)[number];
export const BLOCK_FILTER_STATUSES = [...BLOCK_STATUSES, 'WAITING_FOR_APPROVAL'] as const;

export const TARGET_KINDS = ['meshTenant', 'meshWorkspace'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** An input or output row (spec §2.3.1); `value` in its native JSON form, sealed when sensitive. */
export interface ValueRow {
  key: string;
  value: unknown;
  valueType: ValueType;
  isSensitive?: boolean;
  /** Inputs: the definition input's assignment type (COMPAT §9: clients keep rows by it). */
  assignmentType?: string;
}

export interface ParentRef {
  buildingBlockUuid: string;
  definitionUuid: string;
}

/** The target as a v2-preview client sent it (echoed with the key it used, COMPAT §9). */
export type SentTargetRef = { kind: 'meshTenant'; uuid: string } | { kind: 'meshWorkspace'; identifier?: string; name?: string };

/** The internal building block: v1 and v2-preview are two views of it. */
export interface Block {
  uuid: string;
  workspace: string;
  targetKind: TargetKind;
  /** Tenant targets only. */
  tenant?: { uuid: string; project: string; platformIdentifier: string };
  definitionUuid: string;
  definitionOwner: string;
  versionUuid: string;
  versionNumber: number;
  displayName: string;
  status: BlockStatus;
  forcePurge: boolean;
  markedForDeletionOn?: string;
  markedForDeletionBy?: string;
  latestRunUuid?: string;
  createdOn: string;
  createdBy: string;
  inputs: ValueRow[];
  parents: ParentRef[];
  outputs: ValueRow[];
  targetRef?: SentTargetRef;
}

/** `<workspace>.<project>.<platform>.<location>` of a tenant block (spec §2.4 `tenantIdentifier`). */
export const tenantIdentifierOf = (block: Block) =>
  block.tenant ? `${block.workspace}.${block.tenant.project}.${block.tenant.platformIdentifier}` : undefined;

/** What a create request names, whichever representation it came in. */
export interface BlockRequest {
  target: { tenantUuid: string } | { tenantName: string } | { workspace: string };
  targetRef?: SentTargetRef;
  version: { uuid: string } | { definitionUuid: string; versionNumber: number };
  displayName: string;
  inputs: SentInputs;
  parents: { buildingBlockUuid: string; definitionUuid?: string }[];
}

/** Inputs as sent, by key (both wire forms end up here); the types come from the version. */
export type SentInputs = Record<string, { value?: unknown; valueType?: ValueType; isSensitive?: boolean }>;

/** A v2-preview PUT: what may change. Omitted inputs keep their values. */
export interface BlockUpdate {
  displayName: string;
  inputs: SentInputs;
  versionUuid?: string;
  parents?: { buildingBlockUuid: string; definitionUuid?: string }[];
}

/** A create request whose references the caller's view resolved (AuthorizedBlockService does that). */
export interface ResolvedBlockRequest {
  request: BlockRequest;
  definition: Definition;
  version: DefinitionVersion;
  /** The tenant of a tenant block; the workspace of a workspace block. */
  target: { tenant: Tenant } | { workspace: string };
  /** Parents the caller may see, uuids canonical. */
  parents: BlockRequest['parents'];
}

/** A PUT whose version and parents the caller's view resolved, with the inputs it changes. */
export interface ResolvedBlockUpdate {
  displayName: string;
  /** The version the block is to use, with its definition (the current one when unchanged). */
  definition: Definition;
  version: DefinitionVersion;
  /** Only inputs whose value differs from the block's (sensitive ones sealed). */
  changed: ValueRow[];
  /** Sent parents (visible to the caller), when the version changes. */
  parents?: BlockRequest['parents'];
}
