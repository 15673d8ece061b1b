import assert from 'node:assert/strict';
import type { ApiClient, Response } from './client.js';
import { media } from './client.js';
import {
  createDefinition,
  createReleasedDefinition,
  firstVersionUuid,
  postVersion,
  putVersion,
  versionSpec,
  type ImplementationType,
} from './definitions.js';
import { createLocation, createPlatform, createProject, createTenant, createWorkspace, io, unique, type Json } from './structure.js';

/** The two representations of one stored block (the Accept / Content-Type selects one). */
export const BLOCK_V1 = media('meshbuildingblock', 'v1');
export const BLOCK_V2 = media('meshbuildingblock', 'v2-preview');
/** The form the Terraform provider sends: `meshcloud` vendor, camel-cased kind. */
export const BLOCK_V2_MESHCLOUD = media('meshBuildingBlock', 'v2-preview', 'meshcloud');
export const BLOCK_V1_MESHCLOUD = media('meshBuildingBlock', 'v1', 'meshcloud');
export const RUN = media('meshbuildingblockrun', 'v1');

export const BLOCKS = '/api/meshobjects/meshbuildingblocks';
export const RUNS = '/api/meshobjects/meshbuildingblockruns';
export const TENANTS = '/api/meshobjects/meshtenants';

export type Representation = 'v1' | 'v2';
export const mediaOf = (representation: Representation) => (representation === 'v1' ? BLOCK_V1 : BLOCK_V2);

/** The shared runners every installation has, by implementation type. */
export const SHARED_RUNNERS = {
  TERRAFORM: '98520496-627d-43e6-82da-ce499179ff3f',
  GITHUB_WORKFLOW: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a11',
  GITLAB_PIPELINE: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a12',
  AZURE_DEVOPS_PIPELINE: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a13',
  MANUAL: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a14',
} as const;
/** Every definition the tests drive through runs is a terraform one (runnerRef null → the shared Terraform runner). */
export const RUNNER = SHARED_RUNNERS.TERRAFORM;

export const STATUSES = [
  'WAITING_FOR_DEPENDENT_INPUT',
  'WAITING_FOR_OPERATOR_INPUT',
  'WAITING_FOR_USER_INPUT',
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'ABORTED',
] as const;

/** Permission codes of building blocks. */
export const PERMISSIONS = {
  LIST: 'BUILDINGBLOCK_LIST',
  SAVE: 'BUILDINGBLOCK_SAVE',
  DELETE: 'BUILDINGBLOCK_DELETE',
  ADM_LIST: 'ADM_BUILDINGBLOCK_LIST',
  ADM_SAVE: 'ADM_BUILDINGBLOCK_SAVE',
  ADM_DELETE: 'ADM_BUILDINGBLOCK_DELETE',
  MANAGED_LIST: 'MANAGED_BUILDINGBLOCK_LIST',
  MANAGED_SAVE: 'MANAGED_BUILDINGBLOCK_SAVE',
} as const;

/** A block input row as sent: `{key, value, valueType}`. */
export const input = (key: string, value: unknown, valueType: string) => ({ key, value, valueType });

export interface TenantRef {
  uuid: string;
  /** `<ws>.<project>.<platform>.<location>` */
  identifier: string;
  workspace: string;
  project: string;
}

export interface DefinitionRef {
  uuid: string;
  /** Unique per world, so `definitionName` filters are exact. */
  displayName: string;
  /** The released version 1 (or the draft version 1 of `draft`). */
  versionUuid: string;
  versionNumber: number;
}

export interface BlockWorld {
  /** Owns every definition (and the platform): the "managing" workspace. */
  provider: string;
  /** The consumer workspace with `project` and `tenant`. */
  workspace: string;
  project: string;
  tenant: TenantRef;
  /** A second consumer workspace with a tenant on the same platform. */
  other: { workspace: string; project: string; tenant: TenantRef };
  location: string;
  platform: string;
  platformUuid: string;
  /** `<platform>.<location>` */
  platformIdentifier: string;
  defs: {
    /** TENANT_LEVEL, deletionMode DELETE; USER_INPUT name (regex)/size/flag/tier/zones/items/file, non-updateable `locked`, operator `op` (all with defaults), STATIC `fixed`. */
    plain: DefinitionRef;
    /** TENANT_LEVEL, deletionMode PURGE; input `name` with a default. */
    purge: DefinitionRef;
    /** WORKSPACE_LEVEL; input `note` with a default. */
    workspaceLevel: DefinitionRef;
    /** TENANT_LEVEL with an output `vpc_id`: the parent. */
    dependency: DefinitionRef;
    /** TENANT_LEVEL, depends on `dependency`; BUILDING_BLOCK_OUTPUT input `upstream` ← `dependency.vpc_id`; USER_INPUT `label` with a default. */
    dependent: DefinitionRef;
    /** TENANT_LEVEL; operator input `op` without a default, USER_INPUT `note` with a default. */
    operator: DefinitionRef;
    /** TENANT_LEVEL; USER_INPUT `needed` without a default (updateableByConsumer false). */
    user: DefinitionRef;
    /** TENANT_LEVEL, onlyApplyOncePerTenant. */
    once: DefinitionRef;
    /** TENANT_LEVEL githubWorkflows (never claimed by these tests); sensitive USER_INPUT `secret`. */
    sensitive: DefinitionRef;
    /** TENANT_LEVEL; versions 1 and 2 RELEASED, 3 DRAFT; input `name` with a default. */
    versioned: DefinitionRef & { versions: { 1: string; 2: string; 3: string } };
    /** WORKSPACE_LEVEL, only a DRAFT version 1. */
    draft: DefinitionRef;
  };
}

const user = (type: string, extra: Json = {}) => ({
  displayName: `A ${type}`,
  type,
  assignmentType: 'USER_INPUT',
  updateableByConsumer: true,
  ...extra,
});

/** Creates a tenant of the workspace on the platform, in a fresh project unless an existing one is named. */
export async function addTenant(client: ApiClient, workspace: string, platformUuid: string, existingProject?: string): Promise<TenantRef> {
  const project = existingProject ?? unique('bb-prj');
  if (!existingProject) await createProject(client, workspace, project);
  const tenant = await createTenant(client, workspace, project, platformUuid);
  assert.equal(typeof tenant.metadata?.uuid, 'string', JSON.stringify(tenant));
  assert.equal(typeof tenant.status?.tenantName, 'string', JSON.stringify(tenant));
  return { uuid: tenant.metadata.uuid, identifier: tenant.status.tenantName, workspace, project };
}

async function released(
  client: ApiClient,
  provider: string,
  targetType: string,
  type: ImplementationType,
  version: Json,
): Promise<DefinitionRef> {
  const displayName = unique('Definition');
  const platforms = targetType === 'TENANT_LEVEL' ? { supportedPlatforms: ['CUSTOM'] } : {};
  const { definition, version: v } = await createReleasedDefinition(client, provider, type, version, {
    targetType,
    displayName,
    ...platforms,
  });
  return { uuid: definition.metadata.uuid, displayName, versionUuid: v.metadata.uuid, versionNumber: 1 };
}

/**
 * A provider workspace owning a location, a platform and released definitions, plus two consumer
 * workspaces with a project and a tenant each. Every name is fresh.
 */
export async function blockWorld(client: ApiClient): Promise<BlockWorld> {
  const provider = unique('bb-prov');
  const workspace = unique('bb-ws');
  const otherWorkspace = unique('bb-oth');
  const location = unique('bb-loc');
  const platform = unique('bb-plf');
  await Promise.all([
    createWorkspace(client, provider),
    createWorkspace(client, workspace),
    createWorkspace(client, otherWorkspace),
    createLocation(client, location),
  ]);
  const platformUuid = await createPlatform(client, provider, platform, location);
  const [tenant, otherTenant] = await Promise.all([
    addTenant(client, workspace, platformUuid),
    addTenant(client, otherWorkspace, platformUuid),
  ]);
  const project = tenant.project;

  const dependency = await released(client, provider, 'TENANT_LEVEL', 'terraform', {
    outputs: { vpc_id: { displayName: 'VPC id', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
  });
  const [plain, purge, workspaceLevel, dependent, operator, userDef, once, sensitive] = await Promise.all([
    released(client, provider, 'TENANT_LEVEL', 'terraform', {
      deletionMode: 'DELETE',
      inputs: {
        name: user('STRING', {
          defaultValue: 'abc',
          valueValidationRegex: '^[a-z-]+$',
          validationRegexErrorMessage: 'only lower-case letters and dashes',
          displayOrder: 0,
        }),
        size: user('INTEGER', { defaultValue: 16 }),
        flag: user('BOOLEAN', { defaultValue: false }),
        tier: user('SINGLE_SELECT', { selectableValues: ['s', 'm', 'l'], defaultValue: 's' }),
        zones: user('MULTI_SELECT', { selectableValues: ['a', 'b', 'c'], defaultValue: ['a'] }),
        items: user('LIST', { defaultValue: ['x'] }),
        file: user('FILE', { defaultValue: 'data:text/plain;base64,aGVsbG8=' }),
        locked: user('STRING', { defaultValue: 'l0', updateableByConsumer: false }),
        op: { displayName: 'Operator', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT', defaultValue: 'op0' },
        fixed: { displayName: 'Fixed', type: 'INTEGER', assignmentType: 'STATIC', argument: 3 },
      },
    }),
    released(client, provider, 'TENANT_LEVEL', 'terraform', {
      deletionMode: 'PURGE',
      inputs: { name: user('STRING', { defaultValue: 'p' }) },
    }),
    released(client, provider, 'WORKSPACE_LEVEL', 'terraform', {
      deletionMode: 'DELETE',
      inputs: { note: user('STRING', { defaultValue: 'n' }) },
    }),
    released(client, provider, 'TENANT_LEVEL', 'terraform', {
      dependencyDefinitionRefs: [{ uuid: dependency.uuid, kind: 'meshBuildingBlockDefinition' }],
      inputs: {
        upstream: {
          displayName: 'Upstream',
          type: 'STRING',
          assignmentType: 'BUILDING_BLOCK_OUTPUT',
          argument: `${dependency.uuid}.vpc_id`,
        },
        label: user('STRING', { defaultValue: 'l' }),
      },
    }),
    released(client, provider, 'TENANT_LEVEL', 'terraform', {
      inputs: {
        op: { displayName: 'Operator', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT' },
        note: user('STRING', { defaultValue: 'n' }),
      },
    }),
    released(client, provider, 'TENANT_LEVEL', 'terraform', { inputs: { needed: user('STRING', { updateableByConsumer: false }) } }),
    released(client, provider, 'TENANT_LEVEL', 'terraform', { onlyApplyOncePerTenant: true }),
    released(client, provider, 'TENANT_LEVEL', 'githubWorkflows', { inputs: { secret: user('STRING', { isSensitive: true }) } }),
  ]);

  // versioned: 1 and 2 released, 3 a draft
  const versioned = await released(client, provider, 'TENANT_LEVEL', 'terraform', {
    inputs: { name: user('STRING', { defaultValue: 'v' }) },
  });
  const v2 = await postVersion(
    client,
    versionSpec(versioned.uuid, 2, 'terraform', { inputs: { name: user('STRING', { defaultValue: 'v' }) } }),
  );
  assert.equal(v2.status, 201, `version 2: ${v2.text}`);
  const v2Released = await putVersion(
    client,
    v2.json.metadata.uuid,
    versionSpec(versioned.uuid, 2, 'terraform', { inputs: { name: user('STRING', { defaultValue: 'v' }) }, state: 'RELEASED' }),
  );
  assert.equal(v2Released.status, 200, `releasing version 2: ${v2Released.text}`);
  const v3 = await postVersion(
    client,
    versionSpec(versioned.uuid, 3, 'terraform', { inputs: { name: user('STRING', { defaultValue: 'v' }) } }),
  );
  assert.equal(v3.status, 201, `version 3: ${v3.text}`);

  const draftName = unique('Draft');
  const draftDefinition = await createDefinition(client, provider, { targetType: 'WORKSPACE_LEVEL', displayName: draftName });
  const draft: DefinitionRef = {
    uuid: draftDefinition.metadata.uuid,
    displayName: draftName,
    versionUuid: await firstVersionUuid(client, draftDefinition.metadata.uuid),
    versionNumber: 1,
  };

  return {
    provider,
    workspace,
    project,
    tenant,
    other: { workspace: otherWorkspace, project: otherTenant.project, tenant: otherTenant },
    location,
    platform,
    platformUuid,
    platformIdentifier: `${platform}.${location}`,
    defs: {
      plain,
      purge,
      workspaceLevel,
      dependency,
      dependent,
      operator,
      user: userDef,
      once,
      sensitive,
      versioned: { ...versioned, versions: { 1: versioned.versionUuid, 2: v2.json.metadata.uuid, 3: v3.json.metadata.uuid } },
      draft,
    },
  };
}

export type Target =
  { kind: 'meshTenant'; uuid: string } | { kind: 'meshWorkspace'; identifier: string } | { kind: 'meshWorkspace'; name: string };
export const tenantTarget = (tenant: TenantRef | string): Target => ({
  kind: 'meshTenant',
  uuid: typeof tenant === 'string' ? tenant : tenant.uuid,
});
export const workspaceTarget = (workspace: string): Target => ({ kind: 'meshWorkspace', identifier: workspace });

export interface Parent {
  buildingBlockUuid: string;
  definitionUuid: string;
}

export interface V2Options {
  versionUuid: string;
  target: Target;
  displayName?: string;
  inputs?: unknown;
  parents?: Parent[];
  /** Extra spec fields (e.g. parentBuildingBlockRefs). */
  spec?: Json;
}

/** A v2-preview create (or PUT) body. */
export function v2Body(options: V2Options): Json {
  return {
    apiVersion: 'v2-preview',
    kind: 'meshBuildingBlock',
    spec: {
      displayName: options.displayName ?? unique('Block'),
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: options.versionUuid },
      targetRef: options.target,
      inputs: options.inputs ?? [],
      parentBuildingBlocks: options.parents ?? [],
      ...options.spec,
    },
  };
}

export interface V1Options {
  definitionUuid: string;
  definitionVersion?: unknown;
  tenantIdentifier: string;
  displayName?: string;
  inputs?: unknown;
  parents?: Parent[];
}

/** A v1 create body. */
export function v1Body(options: V1Options): Json {
  return {
    apiVersion: 'v1',
    kind: 'meshBuildingBlock',
    metadata: {
      definitionUuid: options.definitionUuid,
      definitionVersion: options.definitionVersion ?? 1,
      tenantIdentifier: options.tenantIdentifier,
    },
    spec: {
      displayName: options.displayName ?? unique('Block'),
      inputs: options.inputs ?? [],
      parentBuildingBlocks: options.parents ?? [],
    },
  };
}

/** POSTs a block body in the representation's media type (Accept and Content-Type). */
export const postBlock = (client: ApiClient, body: unknown, representation: Representation = 'v2') =>
  client.post(BLOCKS, body, { headers: io(mediaOf(representation)) });

/** PUTs a v2-preview body. */
export const putBlock = (client: ApiClient, uuid: string, body: unknown) =>
  client.put(`${BLOCKS}/${uuid}`, body, { headers: io(BLOCK_V2) });

export const getBlock = (client: ApiClient, uuid: string, representation: Representation = 'v2') =>
  client.get(`${BLOCKS}/${uuid}`, { headers: { accept: mediaOf(representation) } });

/** Creates a block with a v2-preview body (asserting 201) and returns it. */
export async function createBlockV2(client: ApiClient, options: V2Options): Promise<Json> {
  const response = await postBlock(client, v2Body(options), 'v2');
  assert.equal(response.status, 201, `POST ${BLOCKS} (v2-preview): ${response.status} ${response.text}`);
  return response.json;
}

/** Creates a block with a v1 body (asserting 201) and returns it. */
export async function createBlockV1(client: ApiClient, options: V1Options): Promise<Json> {
  const response = await postBlock(client, v1Body(options), 'v1');
  assert.equal(response.status, 201, `POST ${BLOCKS} (v1): ${response.status} ${response.text}`);
  return response.json;
}

/** GETs a block (asserting 200) in the representation. */
export async function readBlock(client: ApiClient, uuid: string, representation: Representation = 'v2'): Promise<Json> {
  const response = await getBlock(client, uuid, representation);
  assert.equal(response.status, 200, `GET ${BLOCKS}/${uuid} (${representation}): ${response.status} ${response.text}`);
  return response.json;
}

/** The `status.status` of a block read with v2-preview. */
export const statusOf = async (client: ApiClient, uuid: string) => (await readBlock(client, uuid)).status.status as string;

/** One claim: the run, or undefined when nothing waits (404). */
export async function claimOnce(client: ApiClient, runnerUuid: string): Promise<Json | undefined> {
  const response = await client.post(`${RUNS}/create?forRunnerUuid=${runnerUuid}`, undefined, { headers: { accept: RUN } });
  if (response.status === 404) return undefined;
  assert.ok(response.status === 201, `claim for runner ${runnerUuid}: ${response.status} ${response.text}`);
  return response.json;
}

/**
 * Claims runs of the runner until one of the block comes (runs of other blocks, left behind by
 * earlier tests, are claimed and left IN_PROGRESS on the way); undefined when the queue holds none.
 * Without a block, the first run claimed.
 */
export async function tryClaimRun(client: ApiClient, runnerUuid: string, blockUuid?: string): Promise<Json | undefined> {
  for (let i = 0; i < 1000; i++) {
    const run = await claimOnce(client, runnerUuid);
    if (!run || !blockUuid || run.spec?.buildingBlock?.uuid === blockUuid) return run;
  }
  assert.fail('more than 1000 runs queued');
}

/** Like tryClaimRun, asserting a run of the block (or any run) was claimed. */
export async function claimRun(client: ApiClient, runnerUuid: string, blockUuid?: string): Promise<Json> {
  const run = await tryClaimRun(client, runnerUuid, blockUuid);
  assert.ok(run, `no run waits for runner ${runnerUuid}${blockUuid ? ` and block ${blockUuid}` : ''}`);
  return run;
}

/** PATCHes the run's status with its run token (one step, optional STRING outputs); returns the raw response. */
export function reportRun(client: ApiClient, run: Json, status: string, outputs: Record<string, string> = {}): Promise<Response> {
  const token = run.spec?.runToken;
  assert.equal(typeof token, 'string', `the claimed run carries a runToken: ${JSON.stringify(run)}`);
  const stepOutputs = Object.fromEntries(
    Object.entries(outputs).map(([name, value]) => [name, { value, type: 'STRING', isSensitive: false }]),
  );
  return client
    .with({ authorization: `Bearer ${token}` })
    .patch(
      `${RUNS}/${run.metadata.uuid}/status/source/blocks-test`,
      { status, steps: [{ id: 'main', status, outputs: stepOutputs }] },
      { headers: io(RUN) },
    );
}

/** Reports the run's final status (asserting 200) and returns the `{runAborted}` answer. */
export async function finishRun(
  client: ApiClient,
  run: Json,
  status: 'SUCCEEDED' | 'FAILED' | 'ABORTED',
  outputs: Record<string, string> = {},
): Promise<Json> {
  const response = await reportRun(client, run, status, outputs);
  assert.equal(response.status, 200, `PATCH run ${run.metadata?.uuid} ${status}: ${response.status} ${response.text}`);
  return response.json;
}

/** Creates (v2-preview), claims and finishes a block's first run: the block ends SUCCEEDED (or as told). */
export async function settledBlock(
  client: ApiClient,
  options: V2Options,
  status: 'SUCCEEDED' | 'FAILED' = 'SUCCEEDED',
  outputs: Record<string, string> = {},
): Promise<Json> {
  const block = await createBlockV2(client, options);
  const run = await claimRun(client, RUNNER, block.metadata.uuid);
  await finishRun(client, run, status, outputs);
  return block;
}

/** The uuids of a list (asserting 200 and the envelope), following no pages (size 350). */
export async function blockUuids(client: ApiClient, query: string, representation: Representation = 'v2'): Promise<string[]> {
  const response = await client.get(`${BLOCKS}?size=350${query ? `&${query}` : ''}`, { headers: { accept: mediaOf(representation) } });
  assert.equal(response.status, 200, `GET ${BLOCKS}?${query} (${representation}): ${response.status} ${response.text}`);
  assert.ok(Array.isArray(response.json._embedded?.meshBuildingBlocks), `_embedded.meshBuildingBlocks missing: ${response.text}`);
  return response.json._embedded.meshBuildingBlocks.map((b: Json) => b.metadata.uuid as string);
}

/** The row of an input (or output) list by key. */
export const row = (rows: Json[], key: string): Json | undefined => rows.find((r) => r.key === key);
