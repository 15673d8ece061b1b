import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../../http/validation.js';
import { Int32, KindOf, NonEmptyShortString, ShortString, Uuid } from '../../../http/wire-schemas.js';
import { DELETION_MODES, IMPLEMENTATION_TYPES, INPUT_ASSIGNMENT_TYPES, OUTPUT_ASSIGNMENT_TYPES, OUTPUT_TYPES, VALUE_TYPES, VERSION_STATES } from '../enums.js';

/**
 * The spec of meshBuildingBlockDefinitionVersion v1-preview (COMPAT §8). Objects allow properties the
 * service does not interpret: they are stored and echoed.
 */
const Text = (maxLength: number) => Type.String({ maxLength });
/** A secret as sent: `{plaintext}`, `{hash}`, or (for fields that are always secret) a bare string. */
export const SecretOrValue = Type.Unknown();

export const InputKey = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$', maxLength: 255 });

export const VersionInputSchema = Type.Object({
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
  description: Type.Optional(Text(4096)),
  valueValidationRegex: Type.Optional(Text(1024)),
  validationRegexErrorMessage: Type.Optional(ShortString),
});

export const VersionOutputSchema = Type.Object({
  displayName: Type.Optional(NonEmptyShortString),
  type: Type.Optional(StringEnum(OUTPUT_TYPES)),
  assignmentType: Type.Optional(StringEnum(OUTPUT_ASSIGNMENT_TYPES)),
  displayOrder: Type.Optional(Int32()),
});

const Ref = (kind: string) => Type.Object({ uuid: Uuid, kind: KindOf(kind) });

export const VersionSpecSchema = Type.Object({
  buildingBlockDefinitionRef: Ref('meshBuildingBlockDefinition'),
  versionNumber: Int32({ minimum: 1 }),
  state: Type.Optional(StringEnum(VERSION_STATES)),
  onlyApplyOncePerTenant: Type.Optional(Type.Boolean()),
  deletionMode: Type.Optional(StringEnum(DELETION_MODES)),
  runnerRef: Type.Optional(Ref('meshBuildingBlockRunner')),
  dependencyDefinitionRefs: Type.Optional(Type.Array(Ref('meshBuildingBlockDefinition'), { maxItems: 100 })),
  dependencyDefinitionUuids: Type.Optional(Type.Array(Uuid, { maxItems: 100 })),
  permissions: Type.Optional(Type.Array(ShortString, { maxItems: 200 })),
  implementation: Type.Object({ type: StringEnum(IMPLEMENTATION_TYPES) }),
  inputs: Type.Record(InputKey, VersionInputSchema, { maxProperties: 500 }),
  outputs: Type.Record(InputKey, VersionOutputSchema, { maxProperties: 500 }),
});

export type VersionInput = Static<typeof VersionInputSchema>;
export type VersionOutput = Static<typeof VersionOutputSchema>;
/** The stored spec: as sent (with sealed secrets and derived manual outputs), state always set. */
export type VersionSpec = Static<typeof VersionSpecSchema> & { state: 'DRAFT' | 'RELEASED'; implementation: Record<string, unknown> } & Record<string, unknown>;

const Secret = Type.Unknown();
const IntegrationRef = Type.Optional(Ref('meshIntegration'));

/** The fields of each implementation's sub-object (`implementation.<type>`), COMPAT §8. */
export const IMPLEMENTATION_SCHEMAS = {
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
    preRunScript: Type.Optional(Text(65536)),
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
