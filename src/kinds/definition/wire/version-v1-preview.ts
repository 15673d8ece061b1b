import { Type, type Static } from '@sinclair/typebox';
import { hideSecrets } from '../../../crypto/secret-values.js';
import { MAX_STRING, TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder, StringEnum } from '../../../lib/validation.js';
import {
  AnyValue,
  DateTime,
  Echoed,
  Identifier,
  Int32,
  KindOf,
  NonEmptyShortString,
  Nullable,
  ShortString,
  Uuid,
} from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import {
  DELETION_MODES,
  IMPLEMENTATION_TYPES,
  INPUT_ASSIGNMENT_TYPES,
  OUTPUT_ASSIGNMENT_TYPES,
  OUTPUT_TYPES,
  REVIEW_STATES,
  VALUE_TYPES,
  VERSION_STATES,
  type ImplementationType,
} from '../enums.js';
import { DEFINITION_VERSIONS_PATH, type DefinitionVersion, type OfferedVersion, type VersionSpec, withDefaults } from '../model.js';

/**
 * meshBuildingBlockDefinitionVersion v1-preview (COMPAT §8). Objects allow properties the service does
 * not interpret: they are stored and echoed.
 */
const Text = (maxLength: number) => Type.String({ maxLength });
/** A secret as sent: `{plaintext}`, `{hash}`, or (for fields that are always secret) a bare value. */
const SecretOrValue = Type.Unknown();

export const InputKey = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$', maxLength: MAX_STRING });

const VersionInputSchema = Type.Object({
  displayName: NonEmptyShortString,
  type: StringEnum(VALUE_TYPES),
  assignmentType: StringEnum(INPUT_ASSIGNMENT_TYPES),
  isEnvironment: Type.Optional(Type.Boolean()),
  isSensitive: Type.Optional(Type.Boolean()),
  updateableByConsumer: Type.Optional(Type.Boolean()),
  displayOrder: Type.Optional(Int32()),
  argument: Type.Optional(SecretOrValue),
  defaultValue: Type.Optional(SecretOrValue),
  selectableValues: Type.Optional(Type.Array(ShortString, { maxItems: 1000 })),
  description: Type.Optional(Text(TEXT_LIMITS.description)),
  valueValidationRegex: Type.Optional(Text(1024)),
  validationRegexErrorMessage: Type.Optional(ShortString),
});

const VersionOutputSchema = Type.Object({
  displayName: Type.Optional(NonEmptyShortString),
  type: Type.Optional(StringEnum(OUTPUT_TYPES)),
  assignmentType: Type.Optional(StringEnum(OUTPUT_ASSIGNMENT_TYPES)),
  displayOrder: Type.Optional(Int32()),
});

const Ref = (kind: string) => Type.Object({ uuid: Uuid, kind: KindOf(kind) });

const SpecSchema = Type.Object({
  buildingBlockDefinitionRef: Ref('meshBuildingBlockDefinition'),
  versionNumber: Int32({ minimum: 1 }),
  state: Type.Optional(StringEnum(VERSION_STATES)),
  onlyApplyOncePerTenant: Type.Optional(Type.Boolean()),
  deletionMode: Type.Optional(StringEnum(DELETION_MODES)),
  runnerRef: Type.Optional(Ref('meshBuildingBlockRunner')),
  dependencyDefinitionRefs: Type.Optional(Type.Array(Ref('meshBuildingBlockDefinition'), { maxItems: 100 })),
  dependencyDefinitionUuids: Type.Optional(Type.Array(Uuid, { maxItems: 100 })),
  permissions: Type.Optional(Type.Array(ShortString, { maxItems: 200 })),
  runTransparency: Type.Optional(Type.Boolean()),
  implementation: Type.Object({ type: StringEnum(IMPLEMENTATION_TYPES) }),
  inputs: Type.Record(InputKey, VersionInputSchema, { maxProperties: 500 }),
  outputs: Type.Record(InputKey, VersionOutputSchema, { maxProperties: 500 }),
});

const Secret = Type.Unknown();
const IntegrationRef = Type.Optional(Ref('meshIntegration'));

/** The fields of each implementation's sub-object (`implementation.<type>`), COMPAT §8. */
const IMPLEMENTATION_SCHEMAS = {
  manual: Type.Object({}),
  terraform: Type.Object({
    terraformVersion: NonEmptyShortString,
    repositoryUrl: Type.String({ minLength: 1, maxLength: 2048 }),
    async: Type.Optional(Type.Boolean()),
    useMeshHttpBackendFallback: Type.Optional(Type.Boolean()),
    repositoryPath: Type.Optional(Text(1024)),
    refName: Type.Optional(ShortString),
    sshKnownHost: Type.Optional(Type.Object({ host: ShortString, keyType: ShortString, keyValue: Text(16384) })),
    sshPrivateKey: Type.Optional(Secret),
    preRunScript: Type.Optional(Text(TEXT_LIMITS.preRunScript)),
  }),
  githubWorkflows: Type.Object({
    repository: NonEmptyShortString,
    branch: NonEmptyShortString,
    applyWorkflow: NonEmptyShortString,
    destroyWorkflow: Type.Optional(ShortString),
    async: Type.Optional(Type.Boolean()),
    omitRunObjectInput: Type.Optional(Type.Boolean()),
    integrationRef: IntegrationRef,
  }),
  gitlabPipeline: Type.Object({
    projectId: Type.Union([NonEmptyShortString, Type.Integer()]),
    refName: NonEmptyShortString,
    integrationRef: IntegrationRef,
    pipelineTriggerToken: Type.Optional(Secret),
  }),
  azureDevOpsPipeline: Type.Object({
    project: NonEmptyShortString,
    pipelineId: Type.Union([NonEmptyShortString, Type.Integer()]),
    refName: Type.Optional(ShortString),
    async: Type.Optional(Type.Boolean()),
    integrationRef: IntegrationRef,
  }),
};

const implementationDecoders = Object.fromEntries(
  Object.entries(IMPLEMENTATION_SCHEMAS).map(([type, schema]) => [type, compileDecoder(schema)]),
) as Record<ImplementationType, (value: unknown, prefix?: string) => unknown>;

// `metadata.uuid: ""` and `createdOn: ""` (TF) are ignored: the path names the version.
const Body = Type.Object({ kind: KindOf('meshBuildingBlockDefinitionVersion'), spec: SpecSchema });

/**
 * What the answers of a version and of an offered version (offered-version-v1-preview.ts) share:
 * `metadata`, the head of `spec`, an input.
 */
export const VersionMetadata = Type.Object({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime });
export const VersionSpecHead = {
  buildingBlockDefinitionRef: Type.Object({ uuid: Uuid, kind: Type.Literal('meshBuildingBlockDefinition') }),
  versionNumber: Type.Integer(),
  state: StringEnum(VERSION_STATES),
  onlyApplyOncePerTenant: Type.Boolean(),
  deletionMode: StringEnum(DELETION_MODES),
};
export const InputAnswer = {
  displayName: Type.String(),
  type: StringEnum(VALUE_TYPES),
  assignmentType: StringEnum(INPUT_ASSIGNMENT_TYPES),
  defaultValue: AnyValue,
};

/** The `metadata`, the definition a version belongs to and the `_links` of a version's answer, offered or not. */
export const versionMetadata = (version: DefinitionVersion | OfferedVersion) => ({
  uuid: version.uuid,
  ownedByWorkspace: version.ownedByWorkspace,
  createdOn: version.createdOn,
});
export const definitionRef = (version: DefinitionVersion | OfferedVersion) => ({
  uuid: version.definitionUuid,
  kind: 'meshBuildingBlockDefinition',
});
export const versionLinks = (version: DefinitionVersion | OfferedVersion, view: RelationsView) =>
  objectLinks(view, DEFINITION_VERSIONS_PATH, version.uuid, {
    buildingBlockDefinition: { rel: 'meshbuildingblockdefinitions', id: version.definitionUuid },
  });

/** A version body: the definition it belongs to, and the spec in the service's form. */
export interface DecodedVersion {
  definitionUuid: string;
  spec: VersionSpec;
}

export const versionV1Preview = objectVersion('meshBuildingBlockDefinitionVersion', 'v1-preview', {
  answer: {
    metadata: VersionMetadata,
    spec: Echoed(
      {
        ...VersionSpecHead,
        runnerRef: Nullable(Type.Object({ uuid: Uuid, kind: Type.Optional(Type.Literal('meshBuildingBlockRunner')) })),
        dependencyDefinitionRefs: Type.Array(Type.Object({ uuid: Uuid, kind: Type.Optional(Type.Literal('meshBuildingBlockDefinition')) })),
        permissions: Type.Array(Type.String()),
        implementation: Echoed({ type: StringEnum(IMPLEMENTATION_TYPES) }),
        inputs: Type.Record(Type.String(), Echoed(InputAnswer)),
        outputs: Type.Record(Type.String(), Echoed({})),
      },
      { description: 'as sent, defaults filled in, secrets as {hash}' },
    ),
    status: Type.Object({
      reviewState: Nullable(StringEnum(REVIEW_STATES)),
      reviewedBy: Nullable(Type.String()),
      reviewedOn: Nullable(DateTime),
      reviewReason: Nullable(Type.String()),
    }),
  },
  body: Body,
  decode(body): DecodedVersion {
    const { spec } = body as { spec: Static<typeof SpecSchema> & Record<string, unknown> };
    const { buildingBlockDefinitionRef, ...content } = spec;
    const type = spec.implementation.type;
    const details = spec.implementation[type as keyof typeof spec.implementation];
    if (type !== 'manual' || details !== undefined) implementationDecoders[type](details ?? {}, `spec.implementation.${type}`);
    return {
      definitionUuid: buildingBlockDefinitionRef.uuid.toLowerCase(),
      spec: { ...content, state: spec.state ?? 'DRAFT' } as VersionSpec,
    };
  },
  /** The spec as clients see it: defaults filled in, secrets as `{hash}`. */
  encode(version: DefinitionVersion, view: RelationsView) {
    return {
      metadata: versionMetadata(version),
      spec: hideSecrets({ buildingBlockDefinitionRef: definitionRef(version), ...withDefaults(version.spec) }),
      // The publication review of a released version (README "Publication review").
      status: {
        reviewState: version.review?.state ?? null,
        reviewedBy: version.review?.by ?? null,
        reviewedOn: version.review?.on ?? null,
        reviewReason: version.review?.reason ?? null,
      },
      _links: versionLinks(version, view),
    };
  },
});
