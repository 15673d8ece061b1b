import type { SentObject } from '../document.js';
import type {
  DeletionMode,
  ImplementationType,
  InputAssignmentType,
  OutputType,
  ReviewState,
  TargetType,
  ValueType,
  VersionState,
} from './enums.js';

/** Its collection path. */
export const DEFINITIONS_PATH = '/api/meshobjects/meshbuildingblockdefinitions';

/** Its collection path. */
export const DEFINITION_VERSIONS_PATH = '/api/meshobjects/meshbuildingblockdefinitionversions';

/** The internal building block definition (spec §2.6); its versions' summaries are loaded with it. */
export interface Definition {
  uuid: string;
  ownedByWorkspace: string;
  displayName: string;
  targetType: TargetType;
  createdOn: string;
  /** `metadata` (tags) and `spec` as sent. */
  document: SentObject;
  /** Every version, oldest first. */
  versions: VersionSummary[];
  /** Building blocks of the definition. */
  usageCount: number;
}

export interface VersionSummary {
  uuid: string;
  versionNumber: number;
  state: VersionState;
  /** Released versions only. */
  review?: ReviewState;
}

/** The last review decision on a released version. */
export interface Review {
  state: ReviewState;
  /** Who decided (the admin's id), and when; absent while the version waits. */
  by?: string;
  on?: string;
  reason?: string;
}

export interface DefinitionInput {
  ownedByWorkspace: string;
  displayName: string;
  targetType: TargetType;
  document: SentObject;
}

/** An input of a version (COMPAT §8). Fields the service does not interpret are kept and echoed. */
export interface VersionInput {
  displayName: string;
  type: ValueType;
  assignmentType: InputAssignmentType;
  isEnvironment?: boolean;
  isSensitive?: boolean;
  updateableByConsumer?: boolean;
  displayOrder?: number;
  /** A static value, `<definitionUuid>.<output>` of a parent, or a secret; sealed when sensitive. */
  argument?: unknown;
  defaultValue?: unknown;
  selectableValues?: string[];
  description?: string;
  valueValidationRegex?: string;
  validationRegexErrorMessage?: string;
}

export interface VersionOutput {
  displayName?: string;
  type?: OutputType;
  assignmentType?: string;
  displayOrder?: number;
}

/** How a version is carried out: the type and its sub-object (`implementation.<type>`), secrets sealed. */
export type Implementation = { type: ImplementationType } & Record<string, unknown>;

/**
 * The content of a definition version, as the service keeps it: the fields it interprets, typed, and
 * those it does not (`[field]: unknown`), echoed as sent. Secrets are sealed, a manual version's
 * outputs derived.
 */
export interface VersionSpec {
  versionNumber: number;
  state: VersionState;
  onlyApplyOncePerTenant?: boolean;
  deletionMode?: DeletionMode;
  runnerRef?: { uuid: string; kind?: string };
  dependencyDefinitionRefs?: { uuid: string; kind?: string }[];
  /** The alias some clients send for `dependencyDefinitionRefs`; echoed in the form sent. */
  dependencyDefinitionUuids?: string[];
  /** Workspace permission codes a run of the version gets. */
  permissions?: string[];
  /** Consumers may read their blocks' runs (user messages and statuses only). */
  runTransparency?: boolean;
  implementation: Implementation;
  inputs: Record<string, VersionInput>;
  outputs: Record<string, VersionOutput>;
  [field: string]: unknown;
}

/** The internal definition version. */
export interface DefinitionVersion {
  uuid: string;
  definitionUuid: string;
  ownedByWorkspace: string;
  createdOn: string;
  spec: VersionSpec;
  /** Released versions: the publication review. */
  review?: Review;
}

/** Spec 2.6: `latestVersion` includes a draft, `latestReleasedVersion` does not (0 when none). */
export function versionStatus(versions: readonly VersionSummary[]) {
  const latest = versions.at(-1);
  const released = latestReleased(versions);
  return {
    latestVersion: latest?.versionNumber ?? 0,
    latestReleasedVersion: released?.versionNumber ?? 0,
    latestVersionUuid: latest?.uuid ?? null,
    latestReleasedVersionUuid: released?.uuid ?? null,
  };
}

/** The latest released version: the one the marketplace offers and blocks move to. */
export function latestReleased(versions: readonly VersionSummary[]): VersionSummary | undefined {
  return versions.filter((version) => version.state === 'RELEASED').at(-1);
}

/** The definitions a version depends on (`dependencyDefinitionRefs`, or the alias `dependencyDefinitionUuids`), lower case. */
export function dependencyUuids(spec: Pick<VersionSpec, 'dependencyDefinitionRefs' | 'dependencyDefinitionUuids'>): string[] {
  return [
    ...new Set(
      [...(spec.dependencyDefinitionRefs ?? []).map((ref) => ref.uuid), ...(spec.dependencyDefinitionUuids ?? [])].map((uuid) =>
        uuid.toLowerCase(),
      ),
    ),
  ];
}

/**
 * The spec with what an absent field means filled in (COMPAT §8: inputs always carry `defaultValue`,
 * null when none). Two specs with the same filled form (secrets compared by hash) are the same content.
 */
export function withDefaults(spec: VersionSpec): Record<string, unknown> {
  const inputs = Object.fromEntries(
    Object.entries(spec.inputs).map(([key, input]) => [key, { ...input, defaultValue: input.defaultValue ?? null }]),
  );
  return {
    deletionMode: 'DELETE',
    onlyApplyOncePerTenant: false,
    runnerRef: null,
    dependencyDefinitionRefs: [],
    permissions: [],
    ...spec,
    inputs,
  };
}

/** A version other workspaces may see and use: released and approved (the marketplace's). */
export const isPublishedVersion = (version: Pick<VersionSummary, 'state' | 'review'>) =>
  version.state === 'RELEASED' && version.review === 'APPROVED';

/**
 * The version a block in `workspace` is offered (and moves to): the latest released one in the
 * definition's own workspace, the latest published one in every other — a release waiting for its
 * review, or rejected, is not offered there.
 */
export function latestOffered(
  definition: Pick<Definition, 'versions' | 'ownedByWorkspace'>,
  workspace: string,
): VersionSummary | undefined {
  if (workspace === definition.ownedByWorkspace) return latestReleased(definition.versions);
  return definition.versions.filter(isPublishedVersion).at(-1);
}

/** An input as the workspaces a version is offered to read it: what ordering needs to fill it in. */
export type OfferedInput = Omit<VersionInput, 'argument'> & {
  /** A sensitive input's default is never shown; this says one exists (the input need not be filled). */
  hasDefaultValue?: true;
};

/**
 * A published version as the workspaces it is offered to read it (to order it): its inputs and outputs, without
 * its implementation, runner, static arguments, secrets (not even their hashes) or the fields the
 * service keeps without interpreting them.
 */
export interface OfferedVersion {
  offered: true;
  uuid: string;
  definitionUuid: string;
  ownedByWorkspace: string;
  createdOn: string;
  spec: {
    versionNumber: number;
    state: VersionState;
    onlyApplyOncePerTenant: boolean;
    deletionMode: DeletionMode;
    /** A block of each is named as a parent in the order. */
    dependencyDefinitionRefs: { uuid: string; kind: 'meshBuildingBlockDefinition' }[];
    /** Workspace permission codes a run gets in the ordering workspace. */
    permissions: string[];
    runTransparency?: boolean;
    inputs: Record<string, OfferedInput>;
    outputs: Record<string, VersionOutput>;
  };
}

/** The fields of an input a consumer reads (`argument` and unknown fields stay the owner's). */
const OFFERED_INPUT_FIELDS = [
  'displayName',
  'type',
  'assignmentType',
  'isEnvironment',
  'isSensitive',
  'updateableByConsumer',
  'displayOrder',
  'selectableValues',
  'description',
  'valueValidationRegex',
  'validationRegexErrorMessage',
] as const;

function offeredInput(input: VersionInput): OfferedInput {
  const offered: Record<string, unknown> = {};
  for (const field of OFFERED_INPUT_FIELDS) if (input[field] !== undefined) offered[field] = input[field];
  const hasDefault = input.defaultValue !== undefined && input.defaultValue !== null;
  offered.defaultValue = input.isSensitive ? null : (input.defaultValue ?? null);
  if (input.isSensitive && hasDefault) offered.hasDefaultValue = true;
  return offered as OfferedInput;
}

function offeredOutput({ displayName, type, assignmentType, displayOrder }: VersionOutput): VersionOutput {
  return {
    ...(displayName !== undefined ? { displayName } : {}),
    ...(type ? { type } : {}),
    ...(assignmentType ? { assignmentType } : {}),
    ...(displayOrder !== undefined ? { displayOrder } : {}),
  };
}

/** The view of a published version for the workspaces it is offered to. */
export function offeredVersion(version: DefinitionVersion): OfferedVersion {
  const { spec } = version;
  return {
    offered: true,
    uuid: version.uuid,
    definitionUuid: version.definitionUuid,
    ownedByWorkspace: version.ownedByWorkspace,
    createdOn: version.createdOn,
    spec: {
      versionNumber: spec.versionNumber,
      state: spec.state,
      onlyApplyOncePerTenant: spec.onlyApplyOncePerTenant ?? false,
      deletionMode: spec.deletionMode ?? 'DELETE',
      dependencyDefinitionRefs: dependencyUuids(spec).map((uuid) => ({ uuid, kind: 'meshBuildingBlockDefinition' as const })),
      permissions: spec.permissions ?? [],
      ...(spec.runTransparency !== undefined ? { runTransparency: spec.runTransparency } : {}),
      inputs: Object.fromEntries(Object.entries(spec.inputs).map(([key, input]) => [key, offeredInput(input)])),
      outputs: Object.fromEntries(Object.entries(spec.outputs).map(([key, output]) => [key, offeredOutput(output)])),
    },
  };
}

/** In the marketplace: a definition with a released, approved version is offered to every workspace. */
export const isPublished = (definition: Pick<Definition, 'versions'>) => definition.versions.some(isPublishedVersion);

/**
 * Where the definition stands in the marketplace (its `status.publicationState`): PUBLISHED with an
 * approved released version; else as its latest released version's review says; UNPUBLISHED with none.
 */
export function publicationState(definition: Pick<Definition, 'versions'>): 'PUBLISHED' | 'IN_REVIEW' | 'REJECTED' | 'UNPUBLISHED' {
  if (isPublished(definition)) return 'PUBLISHED';
  const review = latestReleased(definition.versions)?.review;
  return review === 'IN_REVIEW' || review === 'REJECTED' ? review : 'UNPUBLISHED';
}
