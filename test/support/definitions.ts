import assert from 'node:assert/strict';
import type { ApiClient, Response } from './client.js';
import { media } from './client.js';
import { io, type Json } from './structure.js';

/** Media types of the two kinds (vendor `vendor`; `meshcloud` is accepted too). */
export const DEFINITION = media('meshbuildingblockdefinition', 'v1-preview');
export const VERSION = media('meshbuildingblockdefinitionversion', 'v1-preview');
/** The forms the Terraform provider sends: `meshcloud` vendor, camel-cased kind. */
export const DEFINITION_MESHCLOUD = media('meshBuildingBlockDefinition', 'v1-preview', 'meshcloud');
export const VERSION_MESHCLOUD = media('meshBuildingBlockDefinitionVersion', 'v1-preview', 'meshcloud');

export const DEFINITIONS = '/api/meshobjects/meshbuildingblockdefinitions';
export const VERSIONS = '/api/meshobjects/meshbuildingblockdefinitionversions';

/** The shared Terraform runner every installation has (the Terraform provider's default runnerRef). */
export const SHARED_TERRAFORM_RUNNER = '98520496-627d-43e6-82da-ce499179ff3f';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const HASH = /^sha256:[0-9a-f]{64}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const IMPLEMENTATION_TYPES = ['manual', 'terraform', 'githubWorkflows', 'gitlabPipeline', 'azureDevOpsPipeline'] as const;
export type ImplementationType = (typeof IMPLEMENTATION_TYPES)[number];

/** Fields whose absence the contract answers with 400 naming `spec.implementation.<type>.<field>`. */
export const REQUIRED_IMPLEMENTATION_FIELDS: Record<ImplementationType, string[]> = {
  manual: [],
  terraform: ['terraformVersion', 'repositoryUrl'],
  githubWorkflows: ['repository', 'branch', 'applyWorkflow'],
  gitlabPipeline: ['projectId', 'refName'],
  azureDevOpsPipeline: ['project', 'pipelineId'],
};

/** Asserts the status and the `{message, errorCode, errorId}` error body; optionally what the message names. */
export function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  let body: Json;
  try {
    body = response.json;
  } catch {
    assert.fail(`error body is not JSON: ${response.text}`);
  }
  assert.deepEqual(Object.keys(body).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(body.message, message, `message: ${body.message}`);
}

/** A regular expression matching the literal text. */
export const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** Path and query of a (possibly absolute) link, so both forms compare equal. */
export function linkPath(href: string): string {
  const url = new URL(href, 'https://base.invalid');
  return `${url.pathname}${url.search}`;
}

/** A definition POST body; `spec` and `metadata` fields are merged over a valid WORKSPACE_LEVEL default. */
export function definitionBody(workspace: string, specOverrides: Json = {}, metadataOverrides: Json = {}): Json {
  return {
    apiVersion: 'v1-preview',
    kind: 'meshBuildingBlockDefinition',
    metadata: { ownedByWorkspace: workspace, ...metadataOverrides },
    spec: {
      displayName: 'A building block',
      description: 'Created by the black-box tests',
      targetType: 'WORKSPACE_LEVEL',
      ...specOverrides,
    },
  };
}

/** POSTs a definition (asserting 201) and returns the response body. */
export async function createDefinition(
  client: ApiClient,
  workspace: string,
  specOverrides: Json = {},
  metadataOverrides: Json = {},
): Promise<Json> {
  const response = await client.post(DEFINITIONS, definitionBody(workspace, specOverrides, metadataOverrides), { headers: io(DEFINITION) });
  assert.equal(response.status, 201, `POST ${DEFINITIONS}: ${response.status} ${response.text}`);
  return response.json;
}

export const getDefinition = (client: ApiClient, uuid: string, accept = DEFINITION) =>
  client.get(`${DEFINITIONS}/${uuid}`, { headers: { accept } });
export const getVersion = (client: ApiClient, uuid: string, accept = VERSION) => client.get(`${VERSIONS}/${uuid}`, { headers: { accept } });

/** GETs a list, asserts 200 and the list envelope, returns the embedded items. */
export async function listItems(client: ApiClient, path: string, accept: string, plural: string): Promise<Json[]> {
  const response = await client.get(path, { headers: { accept } });
  assert.equal(response.status, 200, `${path}: ${response.status} ${response.text}`);
  assert.ok(Array.isArray(response.json._embedded?.[plural]), `${path}: _embedded.${plural} missing in ${response.text}`);
  assert.equal(typeof response.json.page?.totalElements, 'number', `${path}: page missing in ${response.text}`);
  return response.json._embedded[plural];
}

/** The versions of a definition (asserting 200), via `?buildingBlockDefinitionUuid=`. */
export const listVersions = (client: ApiClient, definitionUuid: string) =>
  listItems(client, `${VERSIONS}?buildingBlockDefinitionUuid=${definitionUuid}&size=350`, VERSION, 'meshBuildingBlockDefinitionVersions');

/** Uuids of the definitions a list query returns. */
export const definitionUuids = async (client: ApiClient, query: string) =>
  (await listItems(client, `${DEFINITIONS}?size=350&${query}`, DEFINITION, 'meshBuildingBlockDefinitions')).map(
    (d) => d.metadata.uuid as string,
  );

/** A version request body around a spec (metadata is ignored by the server; the Terraform provider sends one). */
export const versionBody = (spec: Json, metadata?: Json): Json => ({
  apiVersion: 'v1-preview',
  kind: 'meshBuildingBlockDefinitionVersion',
  ...(metadata ? { metadata } : {}),
  spec,
});

export const putVersion = (client: ApiClient, uuid: string, spec: Json, metadata?: Json) =>
  client.put(`${VERSIONS}/${uuid}`, versionBody(spec, metadata), { headers: io(VERSION) });
export const postVersion = (client: ApiClient, spec: Json, metadata?: Json) =>
  client.post(VERSIONS, versionBody(spec, metadata), { headers: io(VERSION) });

/** A valid `implementation` object of the type, with every required field (and a few optional ones). */
export function implementationOf(type: ImplementationType): Json {
  switch (type) {
    case 'manual':
      return { type, manual: {} };
    case 'terraform':
      return {
        type,
        terraform: {
          terraformVersion: '1.9.8',
          repositoryUrl: 'https://github.com/example/building-blocks.git',
          async: false,
          useMeshHttpBackendFallback: false,
          repositoryPath: 'modules/bucket',
          refName: 'main',
        },
      };
    case 'githubWorkflows':
      return {
        type,
        githubWorkflows: {
          repository: 'example/building-blocks',
          branch: 'main',
          applyWorkflow: 'apply.yml',
          destroyWorkflow: 'destroy.yml',
          async: true,
          omitRunObjectInput: false,
        },
      };
    case 'gitlabPipeline':
      return { type, gitlabPipeline: { projectId: '4711', refName: 'main' } };
    case 'azureDevOpsPipeline':
      return { type, azureDevOpsPipeline: { project: 'platform', pipelineId: '42', refName: 'refs/heads/main', async: false } };
  }
}

/** A valid version spec of the implementation type (DRAFT, no inputs or outputs); `overrides` replace top-level spec fields. */
export function versionSpec(
  definitionUuid: string,
  versionNumber: number,
  type: ImplementationType = 'manual',
  overrides: Json = {},
): Json {
  return {
    buildingBlockDefinitionRef: { uuid: definitionUuid, kind: 'meshBuildingBlockDefinition' },
    versionNumber,
    state: 'DRAFT',
    implementation: implementationOf(type),
    inputs: {},
    outputs: {},
    ...overrides,
  };
}

/** The uuid of the one version a fresh definition has (asserting there is exactly one). */
export async function firstVersionUuid(client: ApiClient, definitionUuid: string): Promise<string> {
  const versions = await listVersions(client, definitionUuid);
  assert.equal(versions.length, 1, `a fresh definition has exactly one version: ${JSON.stringify(versions)}`);
  return versions[0]!.metadata.uuid;
}

/** Creates a definition and releases its version 1 with the spec's fields; returns the definition and the released version. */
export async function createReleasedDefinition(
  client: ApiClient,
  workspace: string,
  type: ImplementationType = 'manual',
  overrides: Json = {},
  specOverrides: Json = {},
): Promise<{ definition: Json; version: Json }> {
  const definition = await createDefinition(client, workspace, specOverrides);
  const uuid = definition.metadata.uuid as string;
  const versionUuid = await firstVersionUuid(client, uuid);
  const released = await putVersion(client, versionUuid, versionSpec(uuid, 1, type, { ...overrides, state: 'RELEASED' }));
  assert.equal(released.status, 200, `releasing version 1: ${released.text}`);
  assert.equal(released.json.spec.state, 'RELEASED');
  return { definition, version: released.json };
}

/** An admin's publication review of a released version (`ADM_REVIEW_PUBLICATION`): approve or reject. */
export async function reviewVersion(
  admin: ApiClient,
  versionUuid: string,
  decision: 'approve' | 'reject',
  reason?: string,
): Promise<Response> {
  return admin.post(`${VERSIONS}/${versionUuid}/${decision}${reason ? `?reason=${encodeURIComponent(reason)}` : ''}`, undefined, {
    headers: { accept: VERSION },
  });
}
