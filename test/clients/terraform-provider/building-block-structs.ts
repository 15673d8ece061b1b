/**
 * The provider's structs for building blocks and their neighbours, as Go decodes them (client/*.go at
 * the pinned commit), with the clients that use them: integrations, definitions and versions,
 * runners, blocks (v1 and v2-preview), runs, API keys and service instances. Each descriptor names
 * the Go file it follows; custom UnmarshalJSON methods are replicated where they change the result.
 */
import { decodeGo, go } from './go-json.js';
import { NamedRef, SecretOrAny, Secret, sensitiveInput, UuidRef, type ProviderClient, type SecretOrAnyValue, type SecretValue, type UuidRefValue } from './provider-client.js';

/** internal/provider/building_block_runner.go: the runner the provider fills in when none is given. */
export const SHARED_RUNNER_UUID = '98520496-627d-43e6-82da-ce499179ff3f';
export const SHARED_RUNNER_REF = { uuid: SHARED_RUNNER_UUID, kind: 'meshBuildingBlockRunner' };

const str = go.string;
const ptr = go.ptr;
const named = (name: string) => go.named(name, go.string);

// client/integration.go, integration_config.go

const RunnerRef = ptr(UuidRef);
export const Integration = go.struct('client.MeshIntegration', {
  metadata: go.struct('client.MeshIntegrationMetadata', { uuid: ptr(str), ownedByWorkspace: str }),
  spec: go.struct('client.MeshIntegrationSpec', {
    displayName: str,
    config: go.struct('client.MeshIntegrationConfig', {
      type: named('enum.Entry[client.MeshIntegrationConfigType]'),
      github: ptr(go.struct('client.MeshIntegrationGithubConfig', { owner: str, baseUrl: str, appId: str, appPrivateKey: Secret, runnerRef: RunnerRef })),
      gitlab: ptr(go.struct('client.MeshIntegrationGitlabConfig', { baseUrl: str, runnerRef: RunnerRef })),
      azuredevops: ptr(go.struct('client.MeshIntegrationAzureDevopsConfig', { baseUrl: str, organization: str, personalAccessToken: Secret, runnerRef: RunnerRef })),
      entraid: ptr(go.struct('client.MeshIntegrationEntraIdConfig', { tenantId: str, clientId: str, clientSecret: Secret, redirectUrl: ptr(str) })),
    }),
  }),
  status: ptr(
    go.struct('client.MeshIntegrationStatus', {
      isBuiltIn: go.bool,
      workloadIdentityFederation: ptr(
        go.struct('client.MeshWorkloadIdentityFederation', {
          issuer: str,
          subject: str,
          gcp: ptr(go.struct('client.MeshWifProvider', { audience: str })),
          aws: ptr(go.struct('client.MeshAwsWifProvider', { audience: str, thumbprint: str })),
          azure: ptr(go.struct('client.MeshWifProvider', { audience: str })),
        }),
      ),
    }),
  ),
});
export interface IntegrationValue {
  metadata: { uuid: string | null; ownedByWorkspace: string };
  spec: { displayName: string; config: Record<string, unknown> & { type: string } };
  status: { isBuiltIn: boolean; workloadIdentityFederation: unknown } | null;
}
export const integrations = (provider: ProviderClient) => provider.objects<IntegrationValue>('meshIntegration', 'v1', Integration);

// client/building_block_definition.go

export const Definition = go.struct('client.MeshBuildingBlockDefinition', {
  metadata: go.struct('client.MeshBuildingBlockDefinitionMetadata', { uuid: ptr(str), ownedByWorkspace: str, tags: go.map(go.slice(str)) }),
  spec: go.struct('client.MeshBuildingBlockDefinitionSpec', {
    displayName: str,
    targetType: named('client.MeshBuildingBlockType'),
    description: str,
    readme: ptr(str),
    runTransparency: go.bool,
    useInLandingZonesOnly: go.bool,
    supportUrl: ptr(str),
    documentationUrl: ptr(str),
    notificationSubscriberUsernames: go.slice(str),
    symbol: ptr(str),
    supportedPlatforms: go.slice(NamedRef),
  }),
  status: ptr(
    go.struct('client.MeshBuildingBlockDefinitionStatus', {
      usageCount: ptr(go.int64),
      versions: go.slice(go.struct('client.MeshBuildingBlockDefinitionStatusVersion', { versionUuid: str, versionNumber: go.int64, state: named('client.MeshBuildingBlockDefinitionVersionState') })),
      latestVersion: go.int64,
      latestVersionUuid: str,
      latestReleasedVersion: ptr(go.int64),
      latestReleasedVersionUuid: ptr(str),
    }),
  ),
});
export interface DefinitionValue {
  metadata: { uuid: string | null; ownedByWorkspace: string; tags: Record<string, string[] | null> | null };
  spec: Record<string, unknown> & { displayName: string };
  status: { versions: { versionUuid: string; versionNumber: number; state: string }[] | null; latestVersion: number; latestVersionUuid: string } | null;
}
export const definitions = (provider: ProviderClient) => provider.objects<DefinitionValue>('meshBuildingBlockDefinition', 'v1-preview', Definition);

// client/building_block_definition_version.go, building_block_definition_version_implementation.go

export const DefinitionInput = sensitiveInput(
  'client.MeshBuildingBlockDefinitionInput',
  {
    displayName: str,
    type: named('client.MeshBuildingBlockIOType'),
    assignmentType: named('client.MeshBuildingBlockInputAssignmentType'),
    isEnvironment: go.bool,
    isSensitive: go.bool,
    argument: SecretOrAny,
    defaultValue: SecretOrAny,
    updateableByConsumer: go.bool,
    selectableValues: go.slice(str),
    description: ptr(str),
    valueValidationRegex: ptr(str),
    validationRegexErrorMessage: ptr(str),
    displayOrder: go.int64,
  },
  ['argument', 'defaultValue'],
);
export interface DefinitionInputValue {
  displayName: string;
  type: string;
  assignmentType: string;
  isSensitive: boolean;
  argument: SecretOrAnyValue;
  defaultValue: SecretOrAnyValue;
  [field: string]: unknown;
}

const implementationFields = {
  type: named('enum.Entry[client.MeshBuildingBlockImplementationType]'),
  manual: ptr(go.struct('client.MeshBuildingBlockDefinitionManualImplementation', {})),
  githubWorkflows: ptr(
    go.struct('client.MeshBuildingBlockDefinitionGitHubWorkflowsImplementation', {
      repository: str,
      branch: str,
      applyWorkflow: str,
      destroyWorkflow: ptr(str),
      async: go.bool,
      omitRunObjectInput: go.bool,
      integrationRef: UuidRef,
    }),
  ),
  azureDevOpsPipeline: ptr(
    go.struct('client.MeshBuildingBlockDefinitionAzureDevOpsPipelineImplementation', { project: str, pipelineId: str, refName: ptr(str), async: go.bool, integrationRef: UuidRef }),
  ),
  gitlabPipeline: ptr(go.struct('client.MeshBuildingBlockDefinitionGitLabPipelineImplementation', { projectId: str, refName: str, integrationRef: UuidRef, pipelineTriggerToken: Secret })),
  terraform: ptr(
    go.struct('client.MeshBuildingBlockDefinitionTerraformImplementation', {
      terraformVersion: str,
      repositoryUrl: str,
      async: go.bool,
      repositoryPath: ptr(str),
      refName: ptr(str),
      sshKnownHost: ptr(go.struct('client.MeshBuildingBlockDefinitionSshKnownHost', { host: str, keyType: str, keyValue: str })),
      useMeshHttpBackendFallback: go.bool,
      sshPrivateKey: ptr(Secret),
      preRunScript: ptr(str),
    }),
  ),
};
const implementationWrapped = go.struct('client.wrapped', implementationFields);
/** MeshBuildingBlockDefinitionImplementation.UnmarshalJSON: type "manual" gets an empty manual block. */
export const Implementation = go.custom(
  'client.MeshBuildingBlockDefinitionImplementation',
  (text) => {
    const value = decodeGo<Record<string, unknown>>(implementationWrapped, text);
    if (value.type === 'manual') value.manual = {};
    return value;
  },
  () => implementationWrapped.zero(),
  (value) => implementationWrapped.isZero(value),
);

export const Version = go.struct('client.MeshBuildingBlockDefinitionVersion', {
  metadata: go.struct('client.MeshBuildingBlockDefinitionVersionMetadata', { uuid: str, ownedByWorkspace: str, createdOn: str }),
  spec: go.struct('client.MeshBuildingBlockDefinitionVersionSpec', {
    buildingBlockDefinitionRef: ptr(UuidRef),
    onlyApplyOncePerTenant: go.bool,
    deletionMode: named('client.BuildingBlockDeletionMode'),
    permissions: go.slice(named('client.ApiPermission')),
    outputs: go.map(go.struct('client.MeshBuildingBlockDefinitionOutput', { displayName: str, type: named('client.MeshBuildingBlockIOType'), assignmentType: named('client.MeshBuildingBlockDefinitionOutputAssignmentType'), displayOrder: go.int64 })),
    versionNumber: ptr(go.int64),
    state: ptr(named('client.MeshBuildingBlockDefinitionVersionState')),
    runnerRef: ptr(UuidRef),
    dependencyDefinitionRefs: go.slice(UuidRef),
    implementation: Implementation,
    inputs: go.map(ptr(DefinitionInput)),
  }),
  status: ptr(go.struct('client.MeshBuildingBlockDefinitionVersionStatus', { state: named('client.MeshBuildingBlockDefinitionVersionState'), usageCount: go.int64 })),
});
export interface VersionValue {
  metadata: { uuid: string; ownedByWorkspace: string; createdOn: string };
  spec: Record<string, unknown> & { inputs: Record<string, DefinitionInputValue | null> | null; outputs: Record<string, unknown> | null; versionNumber: number | null; state: string | null; implementation: Record<string, unknown> };
  status: { state: string; usageCount: number } | null;
}
export const versions = (provider: ProviderClient) => provider.objects<VersionValue>('meshBuildingBlockDefinitionVersion', 'v1-preview', Version);

// client/building_block_runner.go

const WifConfig = ptr(go.struct('client.MeshRunnerWifProviderConfig', { audience: str, tokenPath: str }));
export const Runner = go.struct('client.MeshBuildingBlockRunner', {
  metadata: go.struct('client.MeshBuildingBlockRunnerMetadata', { uuid: ptr(str), ownedByWorkspace: str, createdOn: ptr(str), lastSeen: ptr(str) }),
  spec: go.struct('client.MeshBuildingBlockRunnerSpec', {
    displayName: str,
    publicKey: str,
    implementationType: str,
    restriction: ptr(str),
    isSelfHosted: ptr(go.bool),
    workloadIdentityFederation: ptr(go.struct('client.MeshRunnerWorkloadIdentityFed', { subject: ptr(str), issuer: ptr(str), gcp: WifConfig, aws: WifConfig, azure: WifConfig })),
  }),
});
export interface RunnerValue {
  metadata: { uuid: string | null; ownedByWorkspace: string; createdOn: string | null; lastSeen: string | null };
  spec: Record<string, unknown> & { displayName: string; implementationType: string };
}
export const runners = (provider: ProviderClient) => provider.objects<RunnerValue>('meshBuildingBlockRunner', 'v1-preview', Runner);

// client/buildingblock.go (v1)

const BlockIO = go.struct('client.MeshBuildingBlockIO', { key: str, value: go.any, valueType: str });
export const BlockV1 = go.struct('client.MeshBuildingBlock', {
  metadata: go.struct('client.MeshBuildingBlockMetadata', {
    uuid: str,
    definitionUuid: str,
    definitionVersion: go.int64,
    tenantIdentifier: str,
    forcePurge: go.bool,
    createdOn: str,
    markedForDeletionOn: ptr(str),
    markedForDeletionBy: ptr(str),
  }),
  spec: go.struct('client.MeshBuildingBlockSpec', {
    displayName: str,
    inputs: go.slice(BlockIO),
    parentBuildingBlocks: go.slice(go.struct('client.MeshBuildingBlockParent', { buildingBlockUuid: str, definitionUuid: str })),
  }),
  status: go.struct('client.MeshBuildingBlockStatus', { status: str, outputs: go.slice(BlockIO) }),
});
export interface BlockIOValue {
  key: string;
  value: unknown;
  valueType: string;
}
export interface BlockV1Value {
  metadata: { uuid: string; definitionUuid: string; definitionVersion: number; tenantIdentifier: string; forcePurge: boolean; createdOn: string; markedForDeletionOn: string | null; markedForDeletionBy: string | null };
  spec: { displayName: string; inputs: BlockIOValue[] | null; parentBuildingBlocks: { buildingBlockUuid: string; definitionUuid: string }[] | null };
  status: { status: string; outputs: BlockIOValue[] | null };
}
export const blocksV1 = (provider: ProviderClient) => provider.objects<BlockV1Value>('meshBuildingBlock', 'v1', BlockV1);

// client/building_block_v2.go (v2-preview)

export const BlockInput = sensitiveInput(
  'client.MeshBuildingBlockInput',
  { value: SecretOrAny, valueType: ptr(named('enum.Entry[client.MeshBuildingBlockIOType]')), assignmentType: named('enum.Entry[client.MeshBuildingBlockInputAssignmentType]'), isSensitive: go.bool },
  ['value'],
);
export interface BlockInputValue {
  value: SecretOrAnyValue;
  valueType: string | null;
  assignmentType: string;
  isSensitive: boolean;
}

const parentWrapped = go.struct('client.wire', { buildingBlockUuid: str, definitionUuid: str }, { UuidRef });
/** MeshBuildingBlockV2Parent.UnmarshalJSON: the uuid from buildingBlockUuid, kind meshBuildingBlock by default. */
const Parent = go.custom(
  'client.MeshBuildingBlockV2Parent',
  (text) => {
    const value = decodeGo<{ uuid: string; kind: string; buildingBlockUuid: string; definitionUuid: string }>(parentWrapped, text);
    if (value.uuid === '') value.uuid = value.buildingBlockUuid;
    value.buildingBlockUuid = value.uuid;
    if (value.kind === '') value.kind = 'meshBuildingBlock';
    return value;
  },
  () => parentWrapped.zero(),
  (value) => parentWrapped.isZero(value),
);

const specFields = {
  buildingBlockDefinitionVersionRef: go.struct('client.MeshBuildingBlockV2DefinitionVersionRef', {}, { UuidRef }),
  targetRef: go.struct('client.MeshBuildingBlockV2TargetRef', { kind: str, uuid: ptr(str), name: ptr(str) }),
  displayName: str,
  inputs: go.map(ptr(BlockInput)),
  parentBuildingBlockRefs: go.slice(UuidRef),
};
// The anonymous struct UnmarshalJSON decodes into: `type wire MeshBuildingBlockV2Spec` embedded, and the deprecated parents.
const specWire = go.struct({ parentBuildingBlocks: go.slice(Parent) }, { wire: go.struct('client.wire', specFields) });
/**
 * MeshBuildingBlockV2Spec.UnmarshalJSON: parents from parentBuildingBlockRefs, else from the
 * deprecated parentBuildingBlocks; a ref's kind defaults to meshBuildingBlock.
 */
export const BlockV2Spec = go.custom(
  'client.MeshBuildingBlockV2Spec',
  (text) => {
    const value = decodeGo<Record<string, unknown> & { parentBuildingBlockRefs: UuidRefValue[] | null; parentBuildingBlocks: { uuid: string }[] | null }>(specWire, text);
    if (!value.parentBuildingBlockRefs?.length) value.parentBuildingBlockRefs = (value.parentBuildingBlocks ?? []).map((parent) => ({ uuid: parent.uuid, kind: 'meshBuildingBlock' }));
    for (const ref of value.parentBuildingBlockRefs) if (ref.kind === '') ref.kind = 'meshBuildingBlock';
    return value;
  },
  () => specWire.zero(),
  (value) => specWire.isZero(value),
);

const Output = go.struct('client.MeshBuildingBlockOutput', { value: go.any, valueType: named('enum.Entry[client.MeshBuildingBlockIOType]'), assignmentType: named('enum.Entry[client.MeshBuildingBlockDefinitionOutputAssignmentType]') });
export const BlockV2 = go.struct('client.MeshBuildingBlockV2', {
  metadata: go.struct('client.MeshBuildingBlockV2Metadata', { uuid: ptr(str), ownedByWorkspace: str }),
  spec: BlockV2Spec,
  status: ptr(
    go.struct('client.MeshBuildingBlockV2Status', {
      status: named('enum.Entry[client.BuildingBlockStatus]'),
      outputs: go.map(Output),
      forcePurge: go.bool,
      lifecycle: go.struct('client.MeshBuildingBlockV2Lifecycle', { state: named('enum.Entry[client.BuildingBlockLifecycleState]') }),
      latestRunUuid: ptr(str),
      latestDryRunUuid: ptr(str),
    }),
  ),
});
export interface BlockV2Value {
  metadata: { uuid: string | null; ownedByWorkspace: string };
  spec: {
    buildingBlockDefinitionVersionRef: UuidRefValue;
    targetRef: { kind: string; uuid: string | null; name: string | null };
    displayName: string;
    inputs: Record<string, BlockInputValue | null> | null;
    parentBuildingBlockRefs: UuidRefValue[];
    parentBuildingBlocks: { uuid: string; kind: string; buildingBlockUuid: string; definitionUuid: string }[] | null;
  };
  status: {
    status: string;
    outputs: Record<string, { value: unknown; valueType: string; assignmentType: string }> | null;
    forcePurge: boolean;
    lifecycle: { state: string };
    latestRunUuid: string | null;
    latestDryRunUuid: string | null;
  } | null;
}
export const blocksV2 = (provider: ProviderClient) => provider.objects<BlockV2Value>('meshBuildingBlock', 'v2-preview', BlockV2);

/** client/building_block_v2.go BuildingBlockStatuses */
export const BLOCK_STATUSES = ['WAITING_FOR_DEPENDENT_INPUT', 'WAITING_FOR_OPERATOR_INPUT', 'WAITING_FOR_USER_INPUT', 'WAITING_FOR_APPROVAL', 'PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'ABORTED'];
const WAITING = BLOCK_STATUSES.slice(0, 4);

/** MeshBuildingBlockV2.CreateSuccessful: done, not yet (undefined status keeps polling), or an error. */
export function createSuccessful(block: BlockV2Value | null): boolean {
  if (block === null) throw new Error('building block not found after creation');
  if (block.status === null) return false;
  const { status } = block.status;
  if (status === 'FAILED' || status === 'ABORTED') throw new Error(`building block ${block.metadata.uuid} reached ${status} state, check run logs in meshStack`);
  if (WAITING.includes(status) || status === 'SUCCEEDED') return true;
  if (!BLOCK_STATUSES.includes(status)) throw new Error(`unknown building block status "${status}" for building block ${block.metadata.uuid}; provider may be out of date`);
  return false;
}

/** MeshBuildingBlockV2.DeletionSuccessful */
export function deletionSuccessful(block: BlockV2Value | null): boolean {
  if (block === null) return true;
  if (block.status?.lifecycle.state === 'DELETED') return true;
  if (block.status?.status === 'FAILED' && !block.status.forcePurge) throw new Error(`building block ${block.metadata.uuid} reached FAILED state during deletion. For more details, check the building block run logs in meshStack`);
  return false;
}

// client/building_block_run.go

export const RunLogs = go.struct('client.MeshBuildingBlockRunLogs', {
  steps: go.slice(go.struct('client.MeshBuildingBlockRunStepLog', { displayName: str, status: str, userMessage: ptr(str), systemMessage: ptr(str) })),
});
export interface RunLogsValue {
  steps: { displayName: string; status: string; userMessage: string | null; systemMessage: string | null }[] | null;
}
/** MeshBuildingBlockRunClient.GetLogs: GET …/meshbuildingblockruns/<uuid>/logs with the run's media type. */
export function getRunLogs(provider: ProviderClient, runUuid: string): Promise<RunLogsValue> {
  const runs = provider.objects('meshBuildingBlockRun', 'v1', go.any);
  return provider.doAuthorizedRequest<RunLogsValue>('GET', runs.url(runUuid, 'logs'), RunLogs, { accept: runs.mimeType });
}

// client/api_key.go

export const ApiKey = go.struct('client.MeshApiKey', {
  metadata: go.struct('client.MeshApiKeyMetadata', { uuid: ptr(str), ownedByWorkspace: str }),
  spec: go.struct('client.MeshApiKeySpec', { displayName: str, permissions: go.slice(named('client.ApiPermission')), expiresAt: ptr(str) }),
  status: ptr(go.struct('client.MeshApiKeyStatus', { clientId: str, clientSecret: ptr(str) })),
});
export interface ApiKeyValue {
  metadata: { uuid: string | null; ownedByWorkspace: string };
  spec: { displayName: string; permissions: string[] | null; expiresAt: string | null };
  status: { clientId: string; clientSecret: string | null } | null;
}
export const apiKeys = (provider: ProviderClient) => provider.objects<ApiKeyValue>('meshApiKey', 'v1-preview', ApiKey);

// client/service_instance.go

export const ServiceInstance = go.struct('client.MeshServiceInstance', {
  metadata: go.struct('client.MeshServiceInstanceMetadata', { ownedByProject: str, ownedByWorkspace: str, marketplaceIdentifier: str, instanceId: str }),
  spec: go.struct('client.MeshServiceInstanceSpec', { creator: str, displayName: str, planId: str, serviceId: str, parameters: go.map(go.any) }),
});
export const serviceInstances = (provider: ProviderClient) => provider.objects<{ metadata: Record<string, string>; spec: Record<string, unknown> }>('meshServiceInstance', 'v2', ServiceInstance);

/** A secret as the provider answers it to Terraform: a hash is required ("API returned no hash for secret"). */
export function expectHash(secret: SecretValue | null | undefined, where: string): string {
  if (!secret?.hash) throw new Error(`${where}: API returned no hash for secret`);
  if (secret.plaintext !== null) throw new Error(`${where}: the plaintext came back`);
  return secret.hash;
}

