import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Tables } from '../src/store/schema.js';

/**
 * The bulk loader: fills the service's own tables (through its Kysely schema, in batched multi-row
 * inserts inside transactions) with an organisation's worth of data: workspaces with a project and a
 * tenant each, released definitions of a platform team, building blocks spread over them, finished
 * runs for a tenth of the blocks, and runs waiting for the bench runner (the claim scenario), spread
 * over up to 1 000 blocks.
 */
export interface DataSet {
  blocks: number;
  /** Block uuids to read (a sample). */
  sampleBlocks: string[];
  workspaces: string[];
  definitionUuids: string[];
  /** One tenant per workspace, each holding that workspace's blocks. */
  tenantUuids: string[];
  /** A released version to create blocks of, and a tenant of the first workspace to create them on. */
  versionUuid: string;
  tenantUuid: string;
  /** The runner whose waiting runs the claim scenario takes. */
  runnerUuid: string;
  waitingRuns: number;
}

/** The admin client the read tools' servers bootstrap (its secret made per run). */
export const BENCH_CLIENT_ID = '00000000-0000-4000-8000-0000000be0c1';

/**
 * A fresh data directory and the server settings the read tools (`read-ab.ts`, `inject-path.ts`)
 * run with on it: an admin client to log in with, a master key, a rate limit no load reaches.
 */
export function benchServerEnv(name: string) {
  const clientSecret = randomBytes(24).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), `blockyard-${name}-`));
  const env = {
    BLOCKYARD_DATA_DIR: dataDir,
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_ADMIN_CLIENT_ID: BENCH_CLIENT_ID,
    BLOCKYARD_ADMIN_CLIENT_SECRET: clientSecret,
    BLOCKYARD_MASTER_KEY: randomBytes(32).toString('base64'),
    BLOCKYARD_RATE_LIMIT_MAX: '10000000',
  };
  return { dataDir, env, login: `grant_type=client_credentials&client_id=${BENCH_CLIENT_ID}&client_secret=${clientSecret}` };
}

const BLOCKS_PER_WORKSPACE = 1000;
const DEFINITIONS = 50;
const STATUSES = [
  'SUCCEEDED',
  'SUCCEEDED',
  'SUCCEEDED',
  'SUCCEEDED',
  'FAILED',
  'PENDING',
  'IN_PROGRESS',
  'WAITING_FOR_USER_INPUT',
] as const;
const ROWS_PER_INSERT = 200;

async function insertMany<T extends keyof Tables>(db: Kysely<Tables>, table: T, rows: Tables[T][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(i, i + ROWS_PER_INSERT) as any)
      .execute();
  }
}

export async function loadData(db: Kysely<Tables>, blocks: number, waitingRuns: number, log: (line: string) => void): Promise<DataSet> {
  const now = new Date().toISOString();
  const workspaceCount = Math.max(2, Math.ceil(blocks / BLOCKS_PER_WORKSPACE));
  const workspaces = Array.from({ length: workspaceCount }, (_, i) => `ws-${i}`);
  const doc = (metadata: object, spec: object) => JSON.stringify({ metadata, spec });

  await db.transaction().execute(async (trx) => {
    await insertMany(
      trx,
      'workspaces',
      [...workspaces, 'platform-team'].map((name) => ({ name, document: doc({ name, tags: {} }, { displayName: name }), created_on: now })),
    );
    await insertMany(
      trx,
      'projects',
      workspaces.map((workspace) => ({
        workspace,
        name: 'app',
        payment_method: null,
        substitute_payment_method: null,
        document: doc({ name: 'app', ownedByWorkspace: workspace }, { displayName: 'App', tags: {} }),
        created_on: now,
      })),
    );
    await trx
      .insertInto('locations')
      .values({
        name: 'eu',
        uuid: randomUUID(),
        display_name: 'EU',
        owned_by_workspace: null,
        document: doc({ name: 'eu' }, { displayName: 'EU' }),
        created_on: now,
      })
      .execute();
    await trx
      .insertInto('platforms')
      .values({
        uuid: PLATFORM,
        name: 'cloud',
        location: 'eu',
        owned_by_workspace: 'platform-team',
        platform_type: 'AZURE',
        is_public: 1,
        display_name: 'Cloud',
        restriction: 'PUBLIC',
        publication_state: 'PUBLISHED',
        document: doc(
          { name: 'cloud', ownedByWorkspace: 'platform-team' },
          {
            displayName: 'Cloud',
            locationRef: { kind: 'meshLocation', name: 'eu' },
            config: { type: 'azure' },
            availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
          },
        ),
        created_on: now,
      })
      .execute();
  });
  const tenants = workspaces.map((workspace) => ({ uuid: randomUUID(), workspace }));
  await db.transaction().execute((trx) =>
    insertMany(
      trx,
      'tenants',
      tenants.map((t) => ({
        uuid: t.uuid,
        workspace: t.workspace,
        project: 'app',
        platform_uuid: PLATFORM,
        platform_tenant_id: `${t.workspace}-app`,
        landing_zone: null,
        document: doc({ ownedByWorkspace: t.workspace, ownedByProject: 'app' }, { platformIdentifier: 'cloud.eu' }),
        created_on: now,
        deleted_on: null,
      })),
    ),
  );

  const runnerUuid = randomUUID();
  const definitions = Array.from({ length: DEFINITIONS }, (_, i) => ({
    uuid: randomUUID(),
    versionUuid: randomUUID(),
    name: `Definition ${i}`,
  }));
  const inputs = {
    size: { displayName: 'Size', type: 'INTEGER', assignmentType: 'USER_INPUT', defaultValue: 1 },
    name: { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT' },
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('runners')
      .values({
        uuid: runnerUuid,
        owned_by_workspace: 'platform-team',
        implementation_type: 'MANUAL',
        restriction: 'PRIVATE',
        document: doc({}, { displayName: 'bench runner', implementationType: 'MANUAL' }),
        created_on: now,
        last_seen: null,
      })
      .execute();
    await insertMany(
      trx,
      'definitions',
      definitions.map((d) => ({
        uuid: d.uuid,
        owned_by_workspace: 'platform-team',
        display_name: d.name,
        target_type: 'TENANT_LEVEL',
        latest_version: 1,
        latest_released_version: 1,
        latest_published_version: 1,
        document: doc(
          { ownedByWorkspace: 'platform-team', tags: {} },
          { displayName: d.name, description: 'bench', targetType: 'TENANT_LEVEL', supportedPlatforms: ['AZURE'] },
        ),
        created_on: now,
      })),
    );
    await insertMany(
      trx,
      'definition_usage',
      definitions.map((d, index) => ({
        definition_uuid: d.uuid,
        stripe: 0,
        blocks: Math.floor(blocks / DEFINITIONS) + (index < blocks % DEFINITIONS ? 1 : 0),
      })),
    );
    await insertMany(
      trx,
      'definition_versions',
      definitions.map((d) => ({
        uuid: d.versionUuid,
        definition_uuid: d.uuid,
        version_number: 1,
        state: 'RELEASED',
        runner_uuid: runnerUuid,
        document: JSON.stringify({
          buildingBlockDefinitionRef: { uuid: d.uuid, kind: 'meshBuildingBlockDefinition' },
          versionNumber: 1,
          state: 'RELEASED',
          runnerRef: { uuid: runnerUuid, kind: 'meshBuildingBlockRunner' },
          implementation: { type: 'manual' },
          inputs,
          outputs: {},
        }),
        created_on: now,
        review_state: 'APPROVED',
        review: null,
      })),
    );
  });

  const sampleBlocks: string[] = [];
  /** Blocks of the first tenant and definition, whose runs the bench runner claims. */
  const waitingBlocks: string[] = [];
  const started = Date.now();
  const batch = 20_000;
  for (let first = 0; first < blocks; first += batch) {
    await db.transaction().execute(async (trx) => {
      const rows: Tables['building_blocks'][] = [];
      const runs: Tables['runs'][] = [];
      for (let i = first; i < Math.min(blocks, first + batch); i++) {
        const tenant = tenants[i % tenants.length]!;
        const definition = definitions[i % DEFINITIONS]!;
        const uuid = randomUUID();
        // By the block's place in its workspace: every workspace holds every status (by `i` alone, a
        // workspace count divisible by 8 would give each workspace one status only).
        const status = STATUSES[Math.floor(i / tenants.length) % STATUSES.length]!;
        const runUuid = i % 10 === 0 ? randomUUID() : null;
        if (sampleBlocks.length < 10_000 && i % Math.max(1, Math.floor(blocks / 10_000)) === 0) sampleBlocks.push(uuid);
        if (waitingBlocks.length < 1000 && i % tenants.length === 0 && i % DEFINITIONS === 0) waitingBlocks.push(uuid);
        const created = new Date(Date.parse(now) + i).toISOString();
        rows.push({
          uuid,
          workspace: tenant.workspace,
          project: 'app',
          tenant_uuid: tenant.uuid,
          platform_identifier: 'cloud.eu',
          target_kind: 'meshTenant',
          definition_uuid: definition.uuid,
          definition_owner: 'platform-team',
          version_uuid: definition.versionUuid,
          version_number: 1,
          display_name: `block ${i}`,
          status,
          once_per_tenant: null,
          force_purge: 0,
          marked_for_deletion_on: null,
          marked_for_deletion_by: null,
          latest_run_uuid: runUuid,
          document: JSON.stringify({
            inputs: [{ key: 'name', value: `block-${i}`, valueType: 'STRING', isSensitive: false, assignmentType: 'USER_INPUT' }],
            parents: [],
          }),
          outputs: JSON.stringify(
            status === 'SUCCEEDED' ? [{ key: 'url', value: `https://example.com/${i}`, valueType: 'STRING', isSensitive: false }] : [],
          ),
          created_on: created,
          created_by: 'bench',
        });
        if (runUuid) runs.push(runRow(runUuid, uuid, tenant.workspace, definition.uuid, runnerUuid, 'SUCCEEDED', created));
      }
      await insertMany(trx, 'building_blocks', rows);
      await insertMany(trx, 'runs', runs);
    });
    if ((first / batch) % 10 === 9) log(`  ${first + batch} blocks loaded (${Math.round((Date.now() - started) / 1000)} s)`);
  }

  // Runs waiting for the bench runner: the claim scenario takes one per request. Spread over many
  // blocks, oldest first in turn, as a runner's queue is: a claim changes its block, and concurrent
  // claims of one block's runs would queue on that block's row (PostgreSQL).

  for (let first = 0; first < waitingRuns; first += batch) {
    const runs: Tables['runs'][] = [];
    for (let i = first; i < Math.min(waitingRuns, first + batch); i++)
      runs.push({
        ...runRow(
          randomUUID(),
          waitingBlocks[i % waitingBlocks.length]!,
          tenants[0]!.workspace,
          definitions[0]!.uuid,
          runnerUuid,
          'PENDING',
          new Date(Date.parse(now) + i).toISOString(),
        ),
        run_number: 1000 + i,
      });
    await db.transaction().execute((trx) => insertMany(trx, 'runs', runs));
  }
  return {
    blocks,
    sampleBlocks,
    workspaces,
    definitionUuids: definitions.map((d) => d.uuid),
    tenantUuids: tenants.map((t) => t.uuid),
    versionUuid: definitions[0]!.versionUuid,
    tenantUuid: tenants[0]!.uuid,
    runnerUuid,
    waitingRuns,
  };
}

const PLATFORM = '5c0c0a1e-0000-4000-8000-00000000be0c';

function runRow(
  uuid: string,
  blockUuid: string,
  workspace: string,
  definitionUuid: string,
  runnerUuid: string,
  status: string,
  created: string,
): Tables['runs'] {
  const snapshot = {
    buildingBlock: {
      uuid: blockUuid,
      spec: {
        displayName: 'block',
        workspaceIdentifier: workspace,
        projectIdentifier: 'app',
        fullPlatformIdentifier: 'cloud.eu',
        inputs: [{ key: 'name', value: 'x', type: 'STRING', isSensitive: false, isEnvironment: false }],
        parentBuildingBlocks: [],
      },
    },
    buildingBlockDefinition: {
      uuid: definitionUuid,
      spec: { workspaceIdentifier: 'platform-team', version: 1, implementation: { type: 'manual' } },
    },
    trigger: { reason: 'BUILDING_BLOCK_CREATION', author: { identifier: 'bench', type: 'ApiUser' } },
  };
  return {
    uuid,
    block_uuid: blockUuid,
    run_number: 1,
    behavior: 'APPLY',
    status,
    runner_uuid: runnerUuid,
    definition_uuid: definitionUuid,
    definition_owner: 'platform-team',
    workspace,
    node_id: null,
    document: JSON.stringify(snapshot),
    outputs: '{}',
    created_on: created,
    claimed_on: status === 'PENDING' ? null : created,
    ended_on: status === 'SUCCEEDED' ? created : null,
    updated_on: created,
    log_bytes: 0,
  };
}
