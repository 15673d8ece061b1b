/**
 * Write throughput with and without the event log, measured in pairs: the tree of the
 * commit before the event log (`--before`, default 6fe963b, extracted with `git archive`) and this
 * tree (or the commit `--after`, to measure one change against another) run side by side as child
 * processes on fresh SQLite databases; the same client alternates
 * bursts of block creates and of run status reports between them, in alternating order, for
 * `--rounds` rounds. Reported: requests/s of each and their quotient, and the servers' own CPU time
 * per request (from /proc), which a busy shared machine disturbs far less than throughput, and with
 * `--postgres` PostgreSQL's CPU per request (all its processes during each burst: one server works at a time).
 *
 * `--postgres`: each server on a fresh PostgreSQL database of its own (`BLOCKYARD_TEST_POSTGRES_URL`,
 * default the local server) instead of SQLite.
 *
 * `--kinds` picks the bursts (default `create,report`): `claim` claims waiting runs (each server is
 * first topped up to CLAIM_STOCK waiting runs by untimed creates), `login` asks `/oauth/token` for
 * tokens with client credentials, as the bench does, `import` imports IMPORT_OBJECTS workspace user
 * groups into a meshObjectCollection of a fresh workspace (both made untimed before the burst).
 *
 *   node --import tsx bench/event-log-ab.ts [--before <commit>] [--after <commit>] [--rounds 6] [--seconds 3] [--kinds create,report,claim,login,import] [--postgres]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '../test/support/client.js';
import { createPostgresDatabase } from '../test/support/databases.js';
import { cpuMs, postgresCpuMs, treeOf as extractedTree } from './processes.js';
import { asRun, BLOCK_V2, claim, claimRun, patch, runnerDefinition, runWorld, SHARED_RUNNERS, tenantTarget } from '../test/support/runs.js';
import { createWorkspace, IMPORT_JSON } from '../test/support/structure.js';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string', default: '6fe963b' },
    after: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '3' },
    kinds: { type: 'string', default: 'create,report' },
    postgres: { type: 'boolean', default: false },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const extracted: string[] = [];

function treeOf(commit: string): string {
  const tree = extractedTree(ROOT, commit);
  extracted.push(tree);
  return tree;
}

const trees = { before: treeOf(args.before!), after: args.after === undefined ? ROOT : treeOf(args.after) } as const;
type Name = keyof typeof trees;
const PASSWORD = 'bench-admin-password-1';
const CLIENT_ID = 'bench-client';
const CLIENT_SECRET = 'bench-client-secret-0123456789';
const LOGIN_FORM = `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const dataDirs: string[] = [];
const postgresDatabases: { drop(): Promise<void> }[] = [];

async function start(tree: string): Promise<{ child: ChildProcess; client: ApiClient }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-ab-'));
  dataDirs.push(dataDir);
  // The default log level, as in `npm run bench`: the access log goes to a file (never a pipe that could fill).
  const logFile = path.join(dataDir, 'server.log');
  const out = openSync(logFile, 'a');
  const postgres = args.postgres ? await createPostgresDatabase() : undefined;
  if (postgres) postgresDatabases.push(postgres);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(tree, 'src/main.ts'), 'serve'], {
    cwd: tree,
    env: {
      ...process.env,
      BLOCKYARD_PORT: '0',
      BLOCKYARD_HOST: '127.0.0.1',
      BLOCKYARD_DATA_DIR: dataDir,
      BLOCKYARD_LOG_LEVEL: 'info',
      BLOCKYARD_ADMIN_USERNAME: 'bench-admin',
      BLOCKYARD_ADMIN_PASSWORD: PASSWORD,
      BLOCKYARD_ADMIN_CLIENT_ID: CLIENT_ID,
      BLOCKYARD_ADMIN_CLIENT_SECRET: CLIENT_SECRET,
      BLOCKYARD_RATE_LIMIT_MAX: '10000000',
      ...(postgres ? { BLOCKYARD_DATABASE_URL: postgres.url, BLOCKYARD_MASTER_KEY: randomBytes(32).toString('base64') } : {}),
    },
    stdio: ['ignore', out, 'inherit'],
  });
  closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  let port: string | undefined;
  while (port === undefined) {
    const seen = readFileSync(logFile, 'utf8');
    port = /listening on https:\/\/localhost:(\d+)/.exec(seen)?.[1];
    if (port === undefined && exited !== undefined) throw new Error(`${tree}: exited (${exited}) before listening:\n${seen.slice(-4000)}`);
    if (port === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ca = readFileSync(path.join(dataDir, 'tls/cert.pem'), 'utf8');
  return {
    child,
    client: new ApiClient(`https://127.0.0.1:${port}`, ca, {
      authorization: `Basic ${Buffer.from(`bench-admin:${PASSWORD}`).toString('base64')}`,
    }),
  };
}

const servers = { before: await start(trees.before), after: await start(trees.after) };
const worlds = {} as Record<Name, { tenant: string; version: string; claimer: ApiClient; waiting: number }>;
for (const name of ['before', 'after'] as const) {
  const { client } = servers[name];
  const world = await runWorld(client);
  const definition = await runnerDefinition(client, world.provider, null);
  const token = (await client.post('/oauth/token', LOGIN_FORM, { headers: FORM, anonymous: true })).json.access_token as string;
  // Claims as the bench's claim scenario does: with the Bearer token of an API key.
  worlds[name] = {
    tenant: world.tenantUuid,
    version: definition.versionUuid,
    claimer: client.with({ authorization: `Bearer ${token}` }),
    waiting: 0,
  };
}
const CLAIM_STOCK = 3000;

async function create(name: Name): Promise<void> {
  const world = worlds[name];
  const body = {
    apiVersion: 'v2-preview',
    kind: 'meshBuildingBlock',
    spec: {
      displayName: `ab ${counter++}`,
      buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: world.version },
      targetRef: tenantTarget(world.tenant),
      inputs: [],
      parentBuildingBlocks: [],
    },
  };
  const response = await servers[name].client.post('/api/meshobjects/meshbuildingblocks', body, {
    headers: { accept: BLOCK_V2, 'content-type': BLOCK_V2 },
  });
  if (response.status !== 201) throw new Error(`${name} create: ${response.status} ${response.text}`);
  world.waiting++;
}

const CONNECTIONS = 10;
let counter = 0;
const totals: Record<string, { requests: number; ms: number; cpuMs: number; databaseMs: number }> = {};

type Kind = 'create' | 'report' | 'claim' | 'login' | 'import';

/** Groups per import of the `import` bursts, and the fresh collections made ready before each burst. */
const IMPORT_OBJECTS = 200;
const IMPORT_STOCK = 150;
let collections = 0;

/** A fresh workspace with a collection of the same name. */
async function freshCollection(client: ApiClient): Promise<string> {
  const name = `ab-import-${collections++}`;
  await createWorkspace(client, name);
  const made = await client.post(
    '/api/meshobjectcollections',
    { name, owner: 'ab', description: '', ownedByWorkspace: name },
    { headers: { 'content-type': 'application/vnd.vendor.api.meshobjectcollection.v1+json' } },
  );
  if (made.status !== 201) throw new Error(`collection ${name}: ${made.status} ${made.text}`);
  return name;
}

async function importInto(client: ApiClient, collection: string): Promise<void> {
  const groups = Array.from({ length: IMPORT_OBJECTS }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'meshWorkspaceUserGroup',
    metadata: { name: `group-${i}`, ownedByWorkspace: collection },
    spec: { displayName: `group ${i}`, members: [] },
  }));
  const response = await client.put(`/api/meshobjects?meshObjectCollection=${collection}`, groups, {
    headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON },
  });
  const failed = response.status === 200 ? (response.json as { status: string }[]).filter((result) => result.status !== 'SUCCESS') : [];
  if (response.status !== 200 || failed.length > 0) throw new Error(`import: ${response.status} ${response.text.slice(0, 500)}`);
}

async function burst(name: Name, kind: Kind, ms: number): Promise<number> {
  const { client, child } = servers[name];
  const world = worlds[name];
  if (kind === 'claim') {
    let missing = CLAIM_STOCK - world.waiting;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (missing-- > 0) await create(name);
      }),
    );
  }
  const claimed =
    kind === 'report' ? await Promise.all(Array.from({ length: CONNECTIONS }, () => claimRun(client, SHARED_RUNNERS.TERRAFORM))) : [];
  world.waiting -= claimed.length;
  const ready = kind === 'import' ? await Promise.all(Array.from({ length: IMPORT_STOCK }, () => freshCollection(client))) : [];
  const cpu0 = cpuMs(child.pid!);
  // One server works at a time: PostgreSQL's CPU meanwhile is this burst's (every backend and writer).
  const database0 = args.postgres ? postgresCpuMs() : 0;
  const began = Date.now();
  const end = began + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, index) => {
      while (Date.now() < end) {
        if (kind === 'create') await create(name);
        else if (kind === 'claim') {
          const response = await claim(world.claimer, SHARED_RUNNERS.TERRAFORM);
          if (response.status !== 201)
            throw new Error(`${name} claim: ${response.status} ${response.text} (fewer than CLAIM_STOCK runs for one burst?)`);
          world.waiting--;
        } else if (kind === 'import') {
          // A burst that uses up its collections ends early (its rate is over the time it took).
          const collection = ready.pop();
          if (collection === undefined) break;
          await importInto(client, collection);
        } else if (kind === 'login') {
          const response = await client.post('/oauth/token', LOGIN_FORM, { headers: FORM, anonymous: true });
          if (response.status !== 200) throw new Error(`${name} login: ${response.status} ${response.text}`);
        } else {
          const run = claimed[index]!;
          const response = await patch(asRun(client, run), run.metadata.uuid, 'ab', {
            status: 'IN_PROGRESS',
            steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: `applying ${counter++}` }],
          });
          if (response.status !== 200) throw new Error(`${name} report: ${response.status} ${response.text}`);
        }
        done++;
      }
    }),
  );
  const took = Date.now() - began;
  const total = (totals[`${kind}/${name}`] ??= { requests: 0, ms: 0, cpuMs: 0, databaseMs: 0 });
  total.requests += done;
  total.ms += took;
  total.cpuMs += cpuMs(child.pid!) - cpu0;
  if (args.postgres) total.databaseMs += postgresCpuMs() - database0;
  return (done * 1000) / took;
}

try {
  const rounds = Number(args.rounds);
  const ms = Number(args.seconds) * 1000;
  const kinds = args.kinds!.split(',') as Kind[];
  for (let round = 0; round < rounds; round++) {
    for (const [k, kind] of kinds.entries()) {
      const order: Name[] = (round + k) % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      const line: string[] = [];
      for (const name of order) line.push(`${name} ${(await burst(name, kind, ms)).toFixed(0)}/s`);
      process.stdout.write(`round ${round + 1} ${kind}: ${line.join(', ')}\n`);
    }
  }
  for (const kind of kinds) {
    const [b, a] = [totals[`${kind}/before`]!, totals[`${kind}/after`]!];
    const rate = (t: typeof b) => (t.requests * 1000) / t.ms;
    const cpu = (t: typeof b) => t.cpuMs / t.requests;
    const database = (t: typeof b) => t.databaseMs / t.requests;
    const databaseLine = args.postgres
      ? `; PostgreSQL CPU per request ${database(a).toFixed(2)} ms vs ${database(b).toFixed(2)} ms: ${(database(b) / database(a)).toFixed(2)}`
      : '';
    process.stdout.write(
      `${kind}: ${rate(a).toFixed(0)}/s after, ${rate(b).toFixed(0)}/s before: ${(rate(a) / rate(b)).toFixed(2)}; server CPU per request ${cpu(a).toFixed(2)} ms vs ${cpu(b).toFixed(2)} ms: ${(cpu(b) / cpu(a)).toFixed(2)}${databaseLine}\n`,
    );
  }
} finally {
  for (const server of Object.values(servers)) {
    server.child.kill('SIGTERM');
    await server.client.close();
  }
  for (const dir of [...dataDirs, ...extracted]) rmSync(dir, { recursive: true, force: true });
  // Dropped with force: the servers' connections may not have closed yet.
  for (const database of postgresDatabases) await database.drop();
}
