/**
 * What the runners decode (go-meshapi-client/meshapi/dtos.go at the pinned commit), as Go type
 * descriptors: `decodeGo` fails where Go's `json.Unmarshal` into these structs fails. The
 * implementation is a `json.RawMessage` that the Terraform runner decodes again as
 * `TerraformImplementation` (tf-block-runner/tfrun/dtos.go).
 */
import { go } from '../terraform-provider/go-json.js';

const Link = go.struct('meshapi.LinkDTO', { href: go.string, templated: go.bool });

export const RunDetails = go.struct('meshapi.RunDetailsDTO', {
  apiVersion: go.string,
  kind: go.string,
  metadata: go.struct('meshapi.RunMetaDTO', { uuid: go.string }),
  spec: go.struct('meshapi.RunSpecDTO', {
    runNumber: go.int,
    behavior: go.string,
    buildingBlock: go.struct('meshapi.BuildingBlockSpecDTO', {
      uuid: go.string,
      spec: go.struct('meshapi.BuildingBlockDetailsSpecDTO', {
        displayName: go.string,
        workspaceIdentifier: go.string,
        projectIdentifier: go.string,
        fullPlatformIdentifier: go.string,
        inputs: go.slice(go.struct('meshapi.BuildingBlockInputSpecDTO', { key: go.string, value: go.any, type: go.string, isSensitive: go.bool, isEnvironment: go.bool })),
        parentBuildingBlocks: go.slice(go.struct('meshapi.ParentBuildingBlockDTO', { buildingBlockUuid: go.string, definitionUuid: go.string })),
      }),
    }),
    buildingBlockDefinition: go.struct('meshapi.DefinitionSpecDTO', {
      uuid: go.string,
      spec: go.struct('meshapi.DefinitionDetailsSpecDTO', { workspaceIdentifier: go.string, version: go.int, implementation: go.raw }),
    }),
    runToken: go.string,
    trigger: go.ptr(
      go.struct('meshapi.RunTriggerDTO', {
        reason: go.named('meshapi.TriggerReason', go.string),
        author: go.struct('meshapi.AuthorDTO', {
          identifier: go.string,
          type: go.named('meshapi.AuthorType', go.string),
          displayName: go.ptr(go.string),
          username: go.ptr(go.string),
          email: go.ptr(go.string),
          euid: go.ptr(go.string),
        }),
      }),
    ),
  }),
  status: go.string,
  _links: go.struct('meshapi.LinksDTO', { self: Link, registerSource: Link, updateSource: Link, meshstackBaseUrl: Link, planArtifact: Link }),
});

export interface RunDetailsValue {
  apiVersion: string;
  kind: string;
  metadata: { uuid: string };
  spec: {
    runNumber: number;
    behavior: string;
    buildingBlock: {
      uuid: string;
      spec: {
        displayName: string;
        workspaceIdentifier: string;
        projectIdentifier: string;
        fullPlatformIdentifier: string;
        inputs: { key: string; value: unknown; type: string; isSensitive: boolean; isEnvironment: boolean }[] | null;
        parentBuildingBlocks: { buildingBlockUuid: string; definitionUuid: string }[] | null;
      };
    };
    buildingBlockDefinition: { uuid: string; spec: { workspaceIdentifier: string; version: number; implementation: string } };
    runToken: string;
    trigger: { reason: string; author: { identifier: string; type: string } } | null;
  };
  status: string;
  _links: Record<'self' | 'registerSource' | 'updateSource' | 'meshstackBaseUrl' | 'planArtifact', { href: string; templated: boolean }>;
}

/** The author types the runners know (`meshapi.AuthorType`). */
export const AUTHOR_TYPES = ['User', 'ApiKey', 'ApiUser', 'System'];

export const TerraformImplementation = go.struct('meshapi.TerraformImplementation', {
  type: go.string,
  terraformVersion: go.string,
  repositoryUrl: go.string,
  repositoryPath: go.ptr(go.string),
  refName: go.ptr(go.string),
  sshPrivateKey: go.ptr(go.string),
  knownHost: go.ptr(go.struct('meshapi.KnownHostDTO', { host: go.string, keyType: go.string, keyValue: go.string })),
  async: go.bool,
  useMeshHttpBackendFallback: go.bool,
  preRunScript: go.ptr(go.string),
});

export interface TerraformImplementationValue {
  type: string;
  terraformVersion: string;
  repositoryUrl: string;
  repositoryPath: string | null;
  refName: string | null;
  sshPrivateKey: string | null;
  async: boolean;
  useMeshHttpBackendFallback: boolean;
}

export const GithubImplementation = go.struct('meshapi.GithubImplementation', {
  type: go.string,
  githubBaseUrl: go.string,
  owner: go.string,
  appId: go.string,
  appPem: go.string,
  repository: go.string,
  branch: go.string,
  applyWorkflow: go.string,
  destroyWorkflow: go.ptr(go.string),
  async: go.bool,
  omitRunObjectInput: go.bool,
});

/** `GetImplementationType`: only the type, whatever the rest. */
export const ImplementationTypeOnly = go.struct('meshapi.implementationTypeJSON', { type: go.string });

export const RunUpdateResponse = go.struct('meshapi.RunUpdateResponseDTO', { runAborted: go.bool });
