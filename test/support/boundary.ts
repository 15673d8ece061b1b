/**
 * Helpers of the authorization-boundary suite. Two workspaces, A (the prober) and B (the
 * owner of what is probed), each with a project, a location, a platform, a tenant, a runner and a key
 * holding ordinary (non-ADM_) permissions of its own workspace; B's definitions and blocks; and a way
 * to compare the answer about B's existing object with the answer about a non-existent one.
 */
import assert from 'node:assert/strict';
import type { ApiClient, Response } from './client.js';
import { addTenant, claimRun, createBlockV2, tenantTarget, type TenantRef } from './blocks.js';
import { createDefinition, createReleasedDefinition, firstVersionUuid, reviewVersion } from './definitions.js';
import { clientWithKey } from './identity.js';
import { asRun, patch, registerRunner, runnerDefinition, TENANT_LEVEL, WORKSPACE_LEVEL } from './runs.js';
import { createLocation, createPlatform, createWorkspace, unique, type Json } from './structure.js';

/** Ordinary permissions of a workspace's key: everything the scenarios need, no ADM_ code. */
export const ORDINARY_PERMISSIONS = [
  'BUILDINGBLOCK_LIST',
  'BUILDINGBLOCK_SAVE',
  'BUILDINGBLOCK_DELETE',
  'BUILDINGBLOCKDEFINITION_LIST',
  'BUILDINGBLOCKDEFINITION_SAVE',
  'BUILDINGBLOCKRUNNER_LIST',
  'BUILDINGBLOCKRUNNER_SAVE',
  'MANAGED_BUILDINGBLOCK_LIST',
  'MANAGED_BUILDINGBLOCKRUN_LIST',
  'MANAGED_BUILDINGBLOCKRUN_SAVE',
  'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE',
  'TENANT_LIST',
] as const;

export interface Released {
  uuid: string;
  /** The released version 1. */
  versionUuid: string;
}

export interface Side {
  workspace: string;
  project: string;
  location: string;
  platform: string;
  platformUuid: string;
  tenant: TenantRef;
  /** A key of the workspace with ORDINARY_PERMISSIONS. */
  key: ApiClient;
  /** A private runner of the workspace (registered by its key, with the shared test certificate). */
  runner: string;
}

export interface BoundaryWorld {
  a: Side & {
    /** A key of A holding only BUILDINGBLOCK_LIST (no run permission). */
    lister: ApiClient;
    /** TENANT_LEVEL, released, no inputs, on the shared runner (never claimed here). */
    tenantLevel: Released;
    /** WORKSPACE_LEVEL, released, no inputs, on the shared runner. */
    workspaceLevel: Released;
    /** TENANT_LEVEL, released, a sensitive STRING user input `secret` without a default. */
    sensitive: Released;
  };
  b: Side & {
    /** TENANT_LEVEL, released (hence published), on B's runner, with an output `secret`. */
    secretSource: Released;
    /** A block of `secretSource` on B's tenant whose run SUCCEEDED with a sensitive `secret` output. */
    succeeded: string;
    /** Another block of `secretSource` whose run B's runner claimed and left IN_PROGRESS. */
    live: { block: string; run: string };
    /** WORKSPACE_LEVEL, never released: only its DRAFT version 1 exists (unpublished). */
    unpublished: { uuid: string; draftVersionUuid: string };
  };
}

async function side(admin: ApiClient, prefix: string): Promise<Side> {
  const workspace = unique(`${prefix}-ws`);
  const location = unique(`${prefix}-loc`);
  const platform = unique(`${prefix}-plf`);
  await createWorkspace(admin, workspace);
  await createLocation(admin, location);
  const platformUuid = await createPlatform(admin, workspace, platform, location);
  const tenant = await addTenant(admin, workspace, platformUuid);
  const { client: key } = await clientWithKey(admin, workspace, [...ORDINARY_PERMISSIONS]);
  const runner = (await registerRunner(key, workspace)).metadata.uuid as string;
  return { workspace, project: tenant.project, location, platform, platformUuid, tenant, key, runner };
}

/** A released definition of the workspace on the shared Terraform runner (runnerRef null). */
async function released(key: ApiClient, workspace: string, spec: Json, version: Json = {}): Promise<Released> {
  const { definition, version: v } = await createReleasedDefinition(
    key,
    workspace,
    'terraform',
    { runnerRef: null, ...version },
    { displayName: unique('Boundary'), ...spec },
  );
  return { uuid: definition.metadata.uuid, versionUuid: v.metadata.uuid };
}

/** Reports a claimed run's end with its run token, with one sensitive STRING output per entry. */
export async function succeedWithSecrets(client: ApiClient, run: Json, secrets: Record<string, string>): Promise<void> {
  const outputs = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, { value, type: 'STRING', isSensitive: true }]));
  const response = await patch(asRun(client, run), run.metadata.uuid, 'boundary', {
    status: 'SUCCEEDED',
    steps: [{ id: 'apply', status: 'SUCCEEDED', outputs }],
  });
  assert.equal(response.status, 200, `reporting run ${run.metadata.uuid} SUCCEEDED: ${response.status} ${response.text}`);
}

/** Builds the two workspaces and B's objects (every name fresh, so suites may share a server). */
export async function boundaryWorld(admin: ApiClient): Promise<BoundaryWorld> {
  const [sideA, sideB] = [await side(admin, 'bd-a'), await side(admin, 'bd-b')];
  const { client: lister } = await clientWithKey(admin, sideA.workspace, ['BUILDINGBLOCK_LIST']);

  const tenantLevel = await released(sideA.key, sideA.workspace, TENANT_LEVEL);
  const workspaceLevel = await released(sideA.key, sideA.workspace, WORKSPACE_LEVEL);
  const sensitive = await released(sideA.key, sideA.workspace, TENANT_LEVEL, {
    inputs: {
      secret: { displayName: 'Secret', type: 'STRING', assignmentType: 'USER_INPUT', isSensitive: true, updateableByConsumer: true },
    },
  });

  const secretSource = await runnerDefinition(sideB.key, sideB.workspace, sideB.runner, {
    outputs: { secret: { displayName: 'Secret', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
  });
  // Released by B's key, it reaches the marketplace once an admin approves it.
  const approval = await reviewVersion(admin, secretSource.versionUuid, 'approve');
  assert.equal(approval.status, 200, `an admin approves B's release: ${approval.text}`);
  const succeeded = (
    await createBlockV2(sideB.key, {
      versionUuid: secretSource.versionUuid,
      target: tenantTarget(sideB.tenant),
      displayName: unique('B-secret-holder'),
    })
  ).metadata.uuid as string;
  await succeedWithSecrets(sideB.key, await claimRun(sideB.key, sideB.runner, succeeded), { secret: `b-only-${unique('secret')}` });
  const liveBlock = (
    await createBlockV2(sideB.key, {
      versionUuid: secretSource.versionUuid,
      target: tenantTarget(sideB.tenant),
      displayName: unique('B-live'),
    })
  ).metadata.uuid as string;
  const liveRun = await claimRun(sideB.key, sideB.runner, liveBlock);
  assert.equal(liveRun.status, 'IN_PROGRESS', `B's claimed run is IN_PROGRESS: ${JSON.stringify(liveRun.status)}`);

  const draftDefinition = await createDefinition(sideB.key, sideB.workspace, {
    targetType: 'WORKSPACE_LEVEL',
    displayName: unique('B-unpublished'),
  });
  const unpublished = {
    uuid: draftDefinition.metadata.uuid as string,
    draftVersionUuid: await firstVersionUuid(sideB.key, draftDefinition.metadata.uuid),
  };

  return {
    a: { ...sideA, lister, tenantLevel, workspaceLevel, sensitive },
    b: { ...sideB, secretSource, succeeded, live: { block: liveBlock, run: liveRun.metadata.uuid as string }, unpublished },
  };
}

// ---------------------------------------------------------------------------------------------
// Oracles

export interface Probe {
  /** The answer. */
  response: Response;
  /**
   * The identifier the request named (a uuid or a name), replaced by a placeholder before comparing;
   * more than one when the two requests also differ in another fresh identifier of A's.
   */
  probed: string | string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The response text with every occurrence (any letter case) of the probed identifiers replaced by `<probed>`. */
export const normalized = (text: string, probed: string | string[]) =>
  (Array.isArray(probed) ? probed : [probed]).reduce((result, id) => result.replace(new RegExp(escape(id), 'gi'), '<probed>'), text);

/** `{errorCode, message}` of an error body (message normalized), or undefined when the body is not one. */
function errorOf(probe: Probe): { errorCode: unknown; message: string } | undefined {
  try {
    const body = JSON.parse(probe.response.text) as Json;
    if (body === null || typeof body !== 'object' || !('message' in body)) return undefined;
    return { errorCode: body.errorCode, message: normalized(String(body.message), probe.probed) };
  } catch {
    return undefined;
  }
}

const show = (probe: Probe) => `${probe.response.status} ${probe.response.text.slice(0, 400)}`;

/**
 * What tells the answer about B's existing object from the answer about a non-existent one: status,
 * `errorCode`, `message` (probed identifier replaced), and any of `hidden` (B's names) in either
 * answer. `refused`: both must be refusals (4xx). Returns one line per difference ([] = indistinguishable).
 */
export function oracleDifferences(what: string, existing: Probe, missing: Probe, hidden: string[], refused = true): string[] {
  const found: string[] = [];
  const a = errorOf(existing);
  const b = errorOf(missing);
  if (existing.response.status !== missing.response.status)
    found.push(`${what}: status differs — B's object: ${show(existing)} | non-existent: ${show(missing)}`);
  else if (a?.errorCode !== b?.errorCode)
    found.push(`${what}: errorCode differs — B's object: ${String(a?.errorCode)} | non-existent: ${String(b?.errorCode)}`);
  else if (a?.message !== b?.message) found.push(`${what}: message differs — B's object: "${a?.message}" | non-existent: "${b?.message}"`);
  if (refused) {
    for (const [label, probe] of [
      ["B's object", existing],
      ['non-existent', missing],
    ] as const) {
      if (probe.response.status < 400 || probe.response.status >= 500)
        found.push(`${what}: expected a refusal (4xx) for ${label}, got ${show(probe)}`);
    }
  }
  for (const [label, probe] of [
    ["B's object", existing],
    ['non-existent', missing],
  ] as const) {
    const text = normalized(probe.response.text, probe.probed);
    for (const name of hidden) if (text.includes(name)) found.push(`${what}: the answer for ${label} names "${name}": ${show(probe)}`);
  }
  return found;
}

/** Every path in a JSON value whose value equals `needle` (as a number or as a string). */
export function pathsOfValue(value: unknown, needle: number, where = '$'): string[] {
  if (value === needle || value === String(needle)) return [where];
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsOfValue(item, needle, `${where}[${index}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value as Json).flatMap(([key, item]) => pathsOfValue(item, needle, `${where}.${key}`));
  return [];
}

/** The upper-case form of a uuid (asserting it differs, i.e. it has letters). */
export function upper(uuid: string): string {
  const result = uuid.toUpperCase();
  assert.notEqual(result, uuid, `uuid ${uuid} has letters to upper-case`);
  return result;
}
