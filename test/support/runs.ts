import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { constants, createDecipheriv, privateDecrypt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiClient, Response } from './client.js';
import { media } from './client.js';
import { createReleasedDefinition } from './definitions.js';
import { createLocation, createPlatform, createProject, createTenant, createWorkspace, io, unique, type Json } from './structure.js';

const run = promisify(execFile);

/** Media types: runners are v1-preview, runs v1. */
export const RUNNER = media('meshbuildingblockrunner', 'v1-preview');
export const RUN = media('meshbuildingblockrun', 'v1');
/** What the Kotlin runners send: `meshcloud` vendor and a charset parameter. */
export const RUN_KOTLIN = `${media('meshbuildingblockrun', 'v1', 'meshcloud')}; charset=utf-8`;
export const BLOCK_V2 = media('meshbuildingblock', 'v2-preview');
export const BLOCK_V1 = media('meshbuildingblock', 'v1');

export const RUNNERS = '/api/meshobjects/meshbuildingblockrunners';
export const RUNS = '/api/meshobjects/meshbuildingblockruns';
export const BLOCKS = '/api/meshobjects/meshbuildingblocks';

/** The shared runners every installation has (admin-owned, PUBLIC, no public key until an admin sets one). */
export const SHARED_RUNNERS = {
  TERRAFORM: '98520496-627d-43e6-82da-ce499179ff3f',
  GITHUB_WORKFLOW: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a11',
  GITLAB_PIPELINE: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a12',
  AZURE_DEVOPS_PIPELINE: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a13',
  MANUAL: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a14',
} as const;

// ---------------------------------------------------------------------------------------------
// Certificates and the runner-side decryption (COMPAT §11)

export interface RunnerCertificate {
  /** PEM X.509 certificate (what is registered as `spec.publicKey`). */
  certificate: string;
  /** PEM PKCS#8 private key (what the runner keeps). */
  privateKey: string;
}

async function openssl(args: (dir: string) => string[]): Promise<RunnerCertificate> {
  const dir = await mkdtemp(path.join(tmpdir(), 'blockyard-runner-'));
  try {
    await run('openssl', args(dir), { timeout: 60_000 });
    return {
      certificate: await readFile(path.join(dir, 'runner.crt'), 'utf8'),
      privateKey: await readFile(path.join(dir, 'runner.key'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fresh self-signed RSA-4096 certificate, made by openssl as COMPAT §11 describes. */
export const generateRunnerCertificate = () =>
  openssl((dir) => [
    'req',
    '-x509',
    '-newkey',
    'rsa:4096',
    '-nodes',
    '-subj',
    '/CN=runner',
    '-days',
    '2',
    '-keyout',
    path.join(dir, 'runner.key'),
    '-out',
    path.join(dir, 'runner.crt'),
  ]);

/** A self-signed certificate with an EC (P-256) key: not usable by runners. */
export const generateEcCertificate = () =>
  openssl((dir) => [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=runner',
    '-days',
    '2',
    '-keyout',
    path.join(dir, 'runner.key'),
    '-out',
    path.join(dir, 'runner.crt'),
  ]);

let shared: Promise<RunnerCertificate> | undefined;
/** One RSA-4096 certificate per test process (key generation takes seconds). */
export const runnerCertificate = () => (shared ??= generateRunnerCertificate());

export interface Decrypted {
  plaintext: Buffer;
  /** The decoded ciphertext: RSA-OAEP(k) ‖ uint32-BE(12) ‖ IV ‖ AES-GCM(plaintext) ‖ tag. */
  raw: Buffer;
  /** The AES key the RSA part carried. */
  key: Buffer;
  ivLength: number;
}

/**
 * Decrypts a value the way the runners do (COMPAT §11): base64, the first 512 bytes RSA-OAEP
 * (SHA-1, MGF1-SHA-1) with the runner's private key → the AES-128 key, a uint32-BE IV length, the IV,
 * AES-128-GCM ciphertext with the last 16 bytes as the tag.
 */
export function decryptForRunner(privateKeyPem: string, ciphertextBase64: string): Decrypted {
  assert.equal(typeof ciphertextBase64, 'string', `a ciphertext is a base64 string, got ${JSON.stringify(ciphertextBase64)}`);
  assert.match(ciphertextBase64, /^[A-Za-z0-9+/]+={0,2}$/, 'standard base64');
  const raw = Buffer.from(ciphertextBase64, 'base64');
  assert.equal(raw.toString('base64'), ciphertextBase64, 'standard, padded base64');
  assert.ok(raw.length >= 512 + 4 + 16, `ciphertext too short: ${raw.length} bytes`);
  const key = privateDecrypt({ key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, raw.subarray(0, 512));
  const ivLength = raw.readUInt32BE(512);
  const iv = raw.subarray(516, 516 + ivLength);
  const tag = raw.subarray(raw.length - 16);
  const body = raw.subarray(516 + ivLength, raw.length - 16);
  const decipher = createDecipheriv(`aes-${key.length * 8}-gcm` as 'aes-128-gcm', key, iv);
  decipher.setAuthTag(tag);
  const plaintext = Buffer.concat([decipher.update(body), decipher.final()]);
  return { plaintext, raw, key, ivLength };
}

// ---------------------------------------------------------------------------------------------
// Runners

export interface RunnerOptions {
  displayName?: string;
  implementationType?: string;
  restriction?: string;
  publicKey?: string;
  /** Extra spec fields. */
  spec?: Json;
}

export function runnerBody(workspace: string, publicKey: string | undefined, options: RunnerOptions = {}): Json {
  return {
    apiVersion: 'v1-preview',
    kind: 'meshBuildingBlockRunner',
    metadata: { ownedByWorkspace: workspace },
    spec: {
      displayName: options.displayName ?? unique('Runner'),
      ...(publicKey !== undefined ? { publicKey } : {}),
      implementationType: options.implementationType ?? 'TERRAFORM',
      ...(options.restriction !== undefined ? { restriction: options.restriction } : {}),
      ...options.spec,
    },
  };
}

export const postRunner = (client: ApiClient, body: Json) => client.post(RUNNERS, body, { headers: io(RUNNER) });
export const putRunner = (client: ApiClient, uuid: string, body: Json) => client.put(`${RUNNERS}/${uuid}`, body, { headers: io(RUNNER) });
export const getRunner = (client: ApiClient, uuid: string) => client.get(`${RUNNERS}/${uuid}`, { headers: { accept: RUNNER } });

/** Registers a runner (asserting 201) with the shared test certificate unless another key is given; returns it. */
export async function registerRunner(client: ApiClient, workspace: string, options: RunnerOptions = {}): Promise<Json> {
  const publicKey = options.publicKey ?? (await runnerCertificate()).certificate;
  const response = await postRunner(client, runnerBody(workspace, publicKey, options));
  assert.equal(response.status, 201, `POST ${RUNNERS}: ${response.status} ${response.text}`);
  return response.json;
}

// ---------------------------------------------------------------------------------------------
// Claiming and reporting

export interface ClaimOptions {
  headers?: Record<string, string | undefined>;
}

/** `POST …/meshbuildingblockruns/create?forRunnerUuid=` with no body (what real runners call); the raw response. */
export const claim = (client: ApiClient, runnerUuid: string, options: ClaimOptions = {}): Promise<Response> =>
  client.post(`${RUNS}/create?forRunnerUuid=${encodeURIComponent(runnerUuid)}`, undefined, {
    headers: { accept: RUN, ...options.headers },
  });

/** `POST …/meshbuildingblockruns?runnerNodeId=<node>[&selector=]` (the spec index's form); the raw response. */
export const claimForNode = (client: ApiClient, nodeId: string, selector?: string, options: ClaimOptions = {}): Promise<Response> =>
  client.post(`${RUNS}?runnerNodeId=${encodeURIComponent(nodeId)}${selector ? `&selector=${selector}` : ''}`, undefined, {
    headers: { accept: RUN, ...options.headers },
  });

/** Claims (asserting 201) and returns the run. */
export async function claimRun(client: ApiClient, runnerUuid: string, options: ClaimOptions = {}): Promise<Json> {
  const response = await claim(client, runnerUuid, options);
  assert.equal(response.status, 201, `claim for runner ${runnerUuid}: ${response.status} ${response.text}`);
  return response.json;
}

/** The client acting with the run's token. */
export function asRun(client: ApiClient, claimed: Json): ApiClient {
  const token = claimed.spec?.runToken;
  assert.equal(typeof token, 'string', `the claimed run carries a runToken: ${JSON.stringify(claimed)}`);
  return client.with({ authorization: `Bearer ${token}` });
}

/** `POST …/{run}/status/source` (Accept and Content-Type run v1 unless given); the raw response. */
export const register = (client: ApiClient, runUuid: string, body: unknown, headers: Record<string, string | undefined> = io(RUN)) =>
  client.post(`${RUNS}/${runUuid}/status/source`, body, { headers });

/** `PATCH …/{run}/status/source/{sourceId}`; the raw response. */
export const patch = (
  client: ApiClient,
  runUuid: string,
  sourceId: string,
  body: unknown,
  headers: Record<string, string | undefined> = io(RUN),
) => client.patch(`${RUNS}/${runUuid}/status/source/${encodeURIComponent(sourceId)}`, body, { headers });

/** PATCHes (asserting 200 and the `{runAborted}` body) and returns the flag. */
export async function report(client: ApiClient, runUuid: string, sourceId: string, body: unknown): Promise<boolean> {
  const response = await patch(client, runUuid, sourceId, body);
  assert.equal(response.status, 200, `PATCH run ${runUuid} source ${sourceId}: ${response.status} ${response.text}`);
  assert.deepEqual(Object.keys(response.json), ['runAborted'], response.text);
  assert.equal(typeof response.json.runAborted, 'boolean', response.text);
  return response.json.runAborted;
}

export const getRun = (client: ApiClient, runUuid: string) => client.get(`${RUNS}/${runUuid}`, { headers: { accept: RUN } });

/** GETs a run (asserting 200). */
export async function readRun(client: ApiClient, runUuid: string): Promise<Json> {
  const response = await getRun(client, runUuid);
  assert.equal(response.status, 200, `GET run ${runUuid}: ${response.status} ${response.text}`);
  return response.json;
}

/** The steps of `GET …/{run}/logs` (asserting 200 and the shape). */
export async function logs(client: ApiClient, runUuid: string): Promise<Json[]> {
  const response = await client.get(`${RUNS}/${runUuid}/logs`, { headers: { accept: RUN } });
  assert.equal(response.status, 200, `GET run ${runUuid}/logs: ${response.status} ${response.text}`);
  assert.ok(Array.isArray(response.json.steps), `logs carry steps[]: ${response.text}`);
  return response.json.steps;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 5_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// ---------------------------------------------------------------------------------------------
// A world to run blocks in

export interface RunWorld {
  /** Owns the platform, the definitions and the runners. */
  provider: string;
  /** The consumer: a project and a tenant with a known platformTenantId. */
  consumer: string;
  project: string;
  /** A third workspace with nothing to do with either. */
  stranger: string;
  location: string;
  platform: string;
  tenantUuid: string;
  tenantName: string;
  platformTenantId: string;
}

/** Fresh workspaces, a location and platform of the provider, and a consumer tenant whose platformTenantId the test knows. */
export async function runWorld(client: ApiClient): Promise<RunWorld> {
  const provider = unique('run-prov');
  const consumer = unique('run-cons');
  const stranger = unique('run-str');
  const location = unique('run-loc');
  const platform = unique('run-plf');
  const project = unique('run-prj');
  const platformTenantId = unique('ptid');
  await Promise.all([
    createWorkspace(client, provider),
    createWorkspace(client, consumer),
    createWorkspace(client, stranger),
    createLocation(client, location),
  ]);
  const platformUuid = await createPlatform(client, provider, platform, location);
  await createProject(client, consumer, project);
  const tenant = await createTenant(client, consumer, project, platformUuid, { spec: { platformTenantId } });
  assert.equal(tenant.spec?.platformTenantId, platformTenantId, JSON.stringify(tenant));
  return {
    provider,
    consumer,
    project,
    stranger,
    location,
    platform,
    tenantUuid: tenant.metadata.uuid,
    tenantName: tenant.status.tenantName,
    platformTenantId,
  };
}

/** Spec fields of a definition for tenants of the test platforms (created without config: platform type CUSTOM). */
export const TENANT_LEVEL: Json = { targetType: 'TENANT_LEVEL', supportedPlatforms: ['CUSTOM'] };
export const WORKSPACE_LEVEL: Json = { targetType: 'WORKSPACE_LEVEL' };

export interface Definition {
  uuid: string;
  versionUuid: string;
}

/** A TENANT_LEVEL terraform definition of the provider whose released version 1 runs on `runnerUuid` (null: the shared runner). */
export async function runnerDefinition(
  client: ApiClient,
  workspace: string,
  runnerUuid: string | null,
  version: Json = {},
  spec: Json = TENANT_LEVEL,
): Promise<Definition> {
  const { definition, version: v } = await createReleasedDefinition(
    client,
    workspace,
    'terraform',
    { runnerRef: runnerUuid === null ? null : { uuid: runnerUuid, kind: 'meshBuildingBlockRunner' }, ...version },
    { displayName: unique('Definition'), ...spec },
  );
  return { uuid: definition.metadata.uuid, versionUuid: v.metadata.uuid };
}

export interface BlockOptions {
  versionUuid: string;
  target: Json;
  inputs?: Json[];
  parents?: { buildingBlockUuid: string; definitionUuid: string }[];
  displayName?: string;
}

export const tenantTarget = (uuid: string) => ({ kind: 'meshTenant', uuid });
export const workspaceTarget = (identifier: string) => ({ kind: 'meshWorkspace', identifier });

/** Creates a block with a v2-preview body (asserting 201) and returns it. */
export async function createBlock(client: ApiClient, options: BlockOptions): Promise<Json> {
  const body = {
    apiVersion: 'v2-preview',
    kind: 'meshBuildingBlock',
    spec: {
      displayName: options.displayName ?? unique('Block'),
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: options.versionUuid },
      targetRef: options.target,
      inputs: options.inputs ?? [],
      parentBuildingBlocks: options.parents ?? [],
    },
  };
  const response = await client.post(BLOCKS, body, { headers: io(BLOCK_V2) });
  assert.equal(response.status, 201, `POST ${BLOCKS}: ${response.status} ${response.text}`);
  return response.json;
}

export const getBlock = (client: ApiClient, uuid: string, accept = BLOCK_V2) => client.get(`${BLOCKS}/${uuid}`, { headers: { accept } });

/** GETs a block in v2-preview (asserting 200). */
export async function readBlock(client: ApiClient, uuid: string): Promise<Json> {
  const response = await getBlock(client, uuid);
  assert.equal(response.status, 200, `GET block ${uuid}: ${response.status} ${response.text}`);
  return response.json;
}

/** Every path in a JSON value whose value is null. */
export function nullPaths(value: unknown, where = '$'): string[] {
  if (value === null) return [where];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${where}[${index}]`));
  if (typeof value === 'object') return Object.entries(value as Json).flatMap(([key, item]) => nullPaths(item, `${where}.${key}`));
  return [];
}
