import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { buildForTests, MAIN_SOURCE } from '../../scripts/test-build.mjs';
import { blockyardArgs } from './blockyard-command.js';
import { ApiClient, media, type Response } from './client.js';
import { createPostgresDatabase, postgresPool, type Dialect } from './databases.js';
import { registerRunner, runnerDefinition, runWorld, BLOCK_V2, RUN, RUNS, BLOCKS } from './runs.js';
import { io, type Json } from './structure.js';

/**
 * Crash safety: the real server as a child process under a steady concurrent mix of
 * block creates and deletes, run claims and status reports, killed with SIGKILL at a random moment and
 * started again on the same database, cycle after cycle. Every request that got a 2xx is remembered
 * with what it acknowledged; after each restart the objects the cycle and the one before touched are
 * read back (and at the end all of them), and the database is searched for half-written objects.
 *
 * With several instances (PostgreSQL) they share the one database, each request goes
 * to one picked at random, one is killed per cycle while the load goes on on the survivors, and the
 * check reads through the survivors before the killed one is started again.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MASTER_KEY = 'Y2hhb3MtbWFzdGVyLWtleS0zMi1ieXRlcy1sb25nLSE=';
const ADMIN_KEY = { clientId: 'chaos-admin', clientSecret: 'chaos-admin-secret-0123456789' };
export const CHAOS_LOG_DIR = path.join(tmpdir(), 'blockyard-test-logs');

export type OperationKind = 'create' | 'delete' | 'claim' | 'register' | 'progress' | 'finish';
export const OPERATIONS: readonly OperationKind[] = ['create', 'delete', 'claim', 'register', 'progress', 'finish'];

export interface ChaosOptions {
  dialect: Dialect;
  /** SIGKILLs (each followed by a restart and a check). */
  cycles: number;
  /** Requests in flight at once during the load (default 6). */
  concurrency?: number;
  /** The kill comes this many ms into a cycle's load, uniformly at random (default 50–400). */
  killWindowMs?: readonly [number, number];
  /**
   * Server instances on the one database (PostgreSQL only; default 1). Each load request goes to one
   * picked at random, with no load balancer; each cycle SIGKILLs one of them, lets the load go on (the
   * dead one's requests fail to connect), checks through the survivors and starts it again.
   */
  instances?: number;
  /** With several instances: the load goes on this many ms after the kill, uniformly at random (default 300–800). */
  survivorLoadMs?: readonly [number, number];
  /** Restart from a process that loaded the code in advance (default true; see `Child`). false: a fresh `blockyard serve` each time. */
  warmStart?: boolean;
  /** Progress lines (one per cycle). */
  log?: (line: string) => void;
  /** Keep the data directory and the PostgreSQL database after the run (the server log is always kept). */
  keep?: boolean;
}

export interface OperationCounts {
  sent: number;
  acknowledged: number;
  lost: number;
}

export interface ChaosResult {
  dialect: Dialect;
  cycles: number;
  instances: number;
  /** Server starts (instances + cycles). */
  starts: number;
  /** Requests of the load (reads made to check are not counted). */
  requests: number;
  acknowledged: number;
  /** Acknowledged while one instance was dead (several instances: the survivors' share of the load). */
  acknowledgedWhileDown: number;
  /** Requests that failed to connect or lost their connection because their instance was killed (expected; never acknowledged). */
  connectionErrors: number;
  /** Acknowledged requests whose effect was not found after a restart. */
  lost: number;
  byOperation: Record<OperationKind, OperationCounts>;
  /** What was acknowledged and what was found instead, one line per lost acknowledgment. */
  lostDetails: string[];
  /** Half-written or inconsistent objects found (block without its run, step without its run, ...). */
  halfWritten: string[];
  /** Answers the load did not expect (5xx, 401 to a run token, a connection failing before the kill, ...). */
  unexpected: string[];
  /** Claimed runs whose claim never reached the client (the server died after committing it): IN_PROGRESS until the run timeout. */
  unacknowledgedClaims: number;
  blocksAtEnd: number;
  runsAtEnd: number;
  durationMs: number;
  /** The server's stdout and stderr of every start, with a marker line per kill (lines prefixed `[instance N]` when there are several). */
  serverLog: string;
}

// ---------------------------------------------------------------------------------------------
// The model: what the server acknowledged

interface Ack {
  id: number;
  cycle: number;
  kind: OperationKind;
  what: string;
}

interface BlockRecord {
  uuid: string;
  /** The acknowledged create, or undefined when the block is known only through a claimed run (its create's answer was lost). */
  created?: Ack;
  applyRunUuid?: string;
  deleteSent: boolean;
  deleted?: Ack;
  /** Outputs of an acknowledged SUCCEEDED APPLY report. */
  outputs?: { value: string; ack: Ack };
}

type FinalStatus = 'SUCCEEDED' | 'FAILED';

interface RunRecord {
  uuid: string;
  blockUuid: string;
  behavior: 'APPLY' | 'DESTROY';
  token: string;
  claimed: Ack;
  /** The status this run will be finished with. */
  final: FinalStatus;
  /** Next report to send: 0 register the source, 1 progress, 2 finish, 3 nothing more. */
  next: number;
  /** Highest report phase sent and acknowledged (-1: none). */
  sent: number;
  acked: number;
  acks: Ack[];
  busy: boolean;
}

const SOURCE = 'chaos';
const OUTPUT_SENSITIVE = 'token_out';
const OUTPUT_PLAIN = 'result';
const isFinalStatus = (status: string) => status === 'SUCCEEDED' || status === 'FAILED' || status === 'ABORTED';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(Math.random() * items.length)]);

/** Runs `fn` over the items, `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let index = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (index < items.length) await fn(items[index++]!);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The server as a child process

/**
 * A server process. Cold, it is `blockyard serve` (`blockyardArgs`), as before every restart. Warm, it
 * is a process that has already loaded the packages the server imports (fastify, kysely, pg, ...) and
 * waits; `start()` then imports the server, compiled from src/ once per run into one file, which runs
 * `serve` as src/main.ts does. The driver keeps two warm processes in reserve, so a restart after a
 * SIGKILL costs the server's own start on the crashed database (open, migrate, bootstrap, listen), not
 * a second or two of loading code. Nothing a warm process does before `start()` touches the database,
 * the data directory or a port.
 */
export interface Child {
  process: ChildProcess;
  exited: Promise<void>;
  /** Lets the server start (warm) and resolves with its URL once it listens. */
  start(): Promise<string>;
  /** Prefix of this process's lines in the shared log (several instances). */
  label: string;
}

/** The warm process: `node --input-type=module -e STANDBY <bundle> <package>...` (bare imports resolve from the project root, its cwd). */
const STANDBY = `
const [bundle, ...packages] = process.argv.slice(1);
await Promise.all(packages.map((name) => import(name)));
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.destroy();
process.argv = [process.argv[0], bundle, 'serve'];
await import(bundle);
`;

/** src/main.ts compiled (scripts/test-build.mjs) and the packages it imports. */
export interface ServerBundle {
  file: string;
  packages: string[];
  remove(): Promise<void>;
}

/** Compiles the server once for the driver, as the test runner compiles it (each module keeps its own location). */
export async function bundleServer(): Promise<ServerBundle> {
  const cache = path.join(ROOT, 'node_modules', '.cache', 'blockyard');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'chaos-'));
  const { compiled, packages } = await buildForTests(ROOT, [MAIN_SOURCE], dir);
  return { file: compiled.get(MAIN_SOURCE)!, packages, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Spawns a server process whose output goes, line by line, to the log (prefixed with its label when there are several instances). */
export function spawnChild(env: NodeJS.ProcessEnv, log: WriteStream, options: { warm?: ServerBundle; prefixLines?: boolean } = {}): Child {
  const { warm, prefixLines = false } = options;
  const args = warm ? ['--input-type=module', '-e', STANDBY, pathToFileURL(warm.file).href, ...warm.packages] : blockyardArgs(['serve']);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: [warm ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const result: Child = { process: child, exited, label: warm ? 'standby' : 'server', start: async () => '' };
  let out = '';
  let url: string | undefined;
  let onLine = () => {};
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      log.write(prefixLines ? `[${result.label}] ${line}\n` : `${line}\n`);
      if (out.length < 100_000) out += `${line}\n`;
      const match = url ? null : /listening on (https:\/\/localhost:\d+)/.exec(line);
      if (match) url = match[1];
      onLine();
    });
  }
  result.start = async () => {
    if (warm) child.stdin!.end('go\n');
    try {
      return await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening on" line within 60 s: ${out.slice(-2000)}`)), 60_000);
        onLine = () => {
          if (!url) return;
          clearTimeout(timer);
          resolve(url);
        };
        onLine();
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`the server exited before listening (code ${code}, signal ${signal}): ${out.slice(-2000)}`));
        });
        if (child.exitCode !== null || child.signalCode !== null)
          reject(new Error(`the server exited before listening (code ${child.exitCode}, signal ${child.signalCode}): ${out.slice(-2000)}`));
      });
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  };
  return result;
}

/** The environment of every start: the same data directory or database, master key and admin key. */
export function serverEnv(dataDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the caller's own BLOCKYARD_* configuration may leak into the child (test settings may).
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('BLOCKYARD_') || key.startsWith('BLOCKYARD_TEST_')) env[key] = value;
  return {
    ...env,
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_DATA_DIR: dataDir,
    BLOCKYARD_LOG_LEVEL: 'info',
    BLOCKYARD_MASTER_KEY: MASTER_KEY,
    BLOCKYARD_ADMIN_CLIENT_ID: ADMIN_KEY.clientId,
    BLOCKYARD_ADMIN_CLIENT_SECRET: ADMIN_KEY.clientSecret,
    BLOCKYARD_TOKEN_TTL_SECONDS: '86400',
    BLOCKYARD_RATE_LIMIT_MAX: '10000000',
    ...(databaseUrl ? { BLOCKYARD_DATABASE_URL: databaseUrl } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Looking into the database (half-written objects cannot all be seen through the API)

interface DatabaseProbe {
  query<T = Json>(text: string): Promise<T[]>;
  /** SQLite: integrity_check and foreign_key_check; PostgreSQL: nothing (it checks its own pages). */
  integrity(): Promise<string[]>;
  close(): Promise<void>;
}

function sqliteProbe(file: string): DatabaseProbe {
  // A read-only connection per look, so no snapshot of ours outlives it.
  const withDb = <T>(fn: (db: SQLite.Database) => T): T => {
    const db = new SQLite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    async query<T>(text: string) {
      return withDb((db) => db.prepare(text).all() as T[]);
    },
    async integrity() {
      return withDb((db) => {
        const problems: string[] = [];
        const check = db.pragma('integrity_check') as { integrity_check: string }[];
        if (check.length !== 1 || check[0]!.integrity_check !== 'ok')
          problems.push(`integrity_check: ${JSON.stringify(check).slice(0, 2000)}`);
        const keys = db.pragma('foreign_key_check') as Json[];
        if (keys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(keys).slice(0, 2000)}`);
        return problems;
      });
    },
    async close() {},
  };
}

function postgresProbe(url: string): DatabaseProbe {
  const client = postgresPool(url, 1);
  return {
    async query<T>(text: string) {
      return (await client.query(text)).rows as T[];
    },
    async integrity() {
      return [];
    },
    close: () => client.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// The driver

/** A promise with its resolve function (Promise.withResolvers needs Node 22). */
function resolvable(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { dialect, cycles } = options;
  const concurrency = options.concurrency ?? 6;
  const [killMin, killMax] = options.killWindowMs ?? [50, 400];
  const [survivorMin, survivorMax] = options.survivorLoadMs ?? [300, 800];
  const instanceCount = options.instances ?? 1;
  const warmStart = options.warmStart ?? true;
  if (!Number.isInteger(instanceCount) || instanceCount < 1) throw new Error(`instances: a positive integer, got ${instanceCount}`);
  if (instanceCount > 1 && dialect !== 'postgres') throw new Error('several instances need PostgreSQL');
  const say = options.log ?? (() => undefined);
  const started = Date.now();

  const dataDir = await mkdtemp(path.join(tmpdir(), `blockyard-chaos-${dialect}-`));
  const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  await mkdir(CHAOS_LOG_DIR, { recursive: true });
  const serverLog = path.join(CHAOS_LOG_DIR, `chaos-${dialect}-${process.pid}-${Date.now()}-${randomBytes(3).toString('hex')}.log`);
  const log = createWriteStream(serverLog, { flags: 'a' });
  const env = serverEnv(dataDir, database?.url);
  const probe = database ? postgresProbe(database.url) : sqliteProbe(path.join(dataDir, 'blockyard.db'));

  // --- the record of everything acknowledged
  const blocks = new Map<string, BlockRecord>();
  const runs = new Map<string, RunRecord>();
  const acks: Ack[] = [];
  const lost = new Map<number, string>();
  /** Each problem once, with the cycle after which it was first seen. */
  const halfWritten = new Map<string, string>();
  const unexpected: string[] = [];
  const counts = Object.fromEntries(OPERATIONS.map((kind) => [kind, { sent: 0, acknowledged: 0, lost: 0 }])) as Record<
    OperationKind,
    OperationCounts
  >;
  let cycle = 0;
  let sequence = 0;
  /** An instance is dead (several instances: the survivors carry the load). */
  let down = false;
  let acknowledgedWhileDown = 0;
  let connectionErrors = 0;

  /** Resolves at the first acknowledgement of the current cycle (the kill is timed from there). */
  let firstAck = resolvable();
  const acknowledge = (kind: OperationKind, what: string): Ack => {
    const ack = { id: acks.length, cycle, kind, what };
    acks.push(ack);
    firstAck.resolve();
    if (down && instanceCount > 1) acknowledgedWhileDown++;
    counts[kind].acknowledged++;
    return ack;
  };
  const markLost = (ack: Ack, found: string) => {
    if (lost.has(ack.id)) return;
    lost.set(ack.id, `cycle ${ack.cycle}: acknowledged ${ack.kind} (${ack.what}); after cycle ${cycle}: ${found}`);
    counts[ack.kind].lost++;
  };
  const violation = (text: string) => {
    if (!halfWritten.has(text)) halfWritten.set(text, `after cycle ${cycle}: ${text}`);
  };

  // --- the servers: `instanceCount` instances on the one database, each a child process
  interface Instance {
    index: number;
    child?: Child;
    /** The admin's client for this instance (its connections die with the process). */
    client?: ApiClient;
    /** Killed and not started again yet: its requests fail to connect. */
    dead: boolean;
    kills: number;
  }
  const instances: Instance[] = Array.from({ length: instanceCount }, (_, index) => ({ index, dead: true, kills: 0 }));
  const several = instanceCount > 1;
  /** Warm processes in reserve (two, so each has had a cycle or two to load before it is needed). */
  const reserve: Child[] = [];
  let adminToken = '';
  let ca = '';
  let starts = 0;
  const bundle = warmStart ? await bundleServer() : undefined;
  const spawnServer = () => spawnChild(env, log, { warm: bundle, prefixLines: several });
  const start = async (instance: Instance) => {
    const child = reserve.shift() ?? spawnServer();
    child.label = `instance ${instance.index}`;
    instance.child = child;
    const url = await child.start();
    starts++;
    ca ||= await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const anonymous = new ApiClient(url, ca);
    if (!adminToken) {
      const response = await anonymous.post('/api/login', ADMIN_KEY, { headers: { 'content-type': 'application/json' } });
      if (response.status !== 200) throw new Error(`admin login: ${response.status} ${response.text}`);
      adminToken = response.json.access_token;
    }
    instance.client = anonymous.with({ authorization: `Bearer ${adminToken}` });
    instance.dead = false;
    // Replacements load their code while this one serves.
    while (bundle && reserve.length < 2) reserve.push(spawnServer());
  };
  const closeClient = async (instance: Instance) => {
    if (instance.client) await instance.client.agent.destroy().catch(() => undefined);
    instance.client = undefined;
  };
  /** Any instance, dead or alive: the load has no load balancer and learns of a dead instance by failing to connect. */
  const anyInstance = () => pick(instances)!;
  /** A live instance's client, for setting up and for checking. */
  const live = () => pick(instances.filter((instance) => !instance.dead))!.client!;

  try {
    // The first instance creates the data directory's certificate and migrates; the others join it.
    await start(instances[0]!);
    await Promise.all(instances.slice(1).map((instance) => start(instance)));
    const admin = live();

    // --- the world: a tenant, a runner with an RSA certificate, a released terraform definition on it
    // whose blocks carry a sensitive input (encrypted for the runner at each claim) and get outputs.
    const world = await runWorld(admin);
    const runner = await registerRunner(admin, world.provider, { implementationType: 'TERRAFORM' });
    const runnerUuid = runner.metadata.uuid as string;
    const user = (type: string, extra: Json = {}) => ({
      displayName: `A ${type}`,
      type,
      assignmentType: 'USER_INPUT',
      updateableByConsumer: true,
      ...extra,
    });
    const definition = await runnerDefinition(admin, world.provider, runnerUuid, {
      inputs: { name: user('STRING'), secret: user('STRING', { isSensitive: true }) },
      outputs: {
        [OUTPUT_PLAIN]: { displayName: 'Result', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 },
        [OUTPUT_SENSITIVE]: { displayName: 'Token', type: 'STRING', assignmentType: 'NONE', displayOrder: 1 },
      },
    });

    // --- what one cycle's load does
    let touchedBlocks = new Set<string>();
    let touchedRuns = new Set<string>();
    /** The load's workers stop when this is set. */
    let stopped = false;

    const blockRecord = (uuid: string): BlockRecord => {
      let record = blocks.get(uuid);
      if (!record) blocks.set(uuid, (record = { uuid, deleteSent: false }));
      return record;
    };

    /**
     * One load request to an instance picked at random: counted, and classified when it failed in a way
     * the load does not expect. A connection error is expected only from an instance that was killed.
     */
    const send = async (
      kind: OperationKind,
      what: string,
      request: (client: ApiClient) => Promise<Response>,
      expected: number[] = [],
    ): Promise<Response | undefined> => {
      counts[kind].sent++;
      const instance = anyInstance();
      try {
        const response = await request(instance.client!);
        if ((response.status < 200 || response.status > 299) && !expected.includes(response.status)) {
          unexpected.push(
            `cycle ${cycle}: ${kind} ${what} on instance ${instance.index}: ${response.status} ${response.text.slice(0, 500)}`,
          );
        }
        return response;
      } catch (error) {
        if (instance.dead) {
          connectionErrors++;
          // As a client without a load balancer would, it pauses before its next try.
          await sleep(10);
        } else
          unexpected.push(
            `cycle ${cycle}: ${kind} ${what}: ${(error as Error).message} (instance ${instance.index}, ${several ? 'a survivor' : 'before the kill'})`,
          );
        return undefined;
      }
    };

    const create = async () => {
      const name = `chaos-${cycle}-${++sequence}`;
      const body = {
        apiVersion: 'v2-preview',
        kind: 'meshBuildingBlock',
        spec: {
          displayName: name,
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: definition.versionUuid },
          targetRef: { kind: 'meshTenant', uuid: world.tenantUuid },
          inputs: [
            { key: 'name', value: name, valueType: 'STRING' },
            { key: 'secret', value: { plaintext: `secret-${randomBytes(6).toString('hex')}` }, valueType: 'STRING' },
          ],
          parentBuildingBlocks: [],
        },
      };
      const response = await send('create', name, (client) => client.post(BLOCKS, body, { headers: io(BLOCK_V2) }));
      if (response?.status !== 201) return;
      const json = response.json;
      const record = blockRecord(json.metadata.uuid);
      record.created = acknowledge('create', `block ${record.uuid} "${name}", APPLY run ${json.status?.latestRunUuid}`);
      record.applyRunUuid = json.status?.latestRunUuid ?? undefined;
      touchedBlocks.add(record.uuid);
    };

    const remove = async () => {
      const record = pick([...blocks.values()].filter((b) => b.created && !b.deleted));
      if (!record) return create();
      record.deleteSent = true;
      touchedBlocks.add(record.uuid);
      // 404: an earlier DELETE whose answer was lost removed it already.
      const response = await send('delete', record.uuid, (client) => client.delete(`${BLOCKS}/${record.uuid}`), [404]);
      if (response?.status === 202) record.deleted = acknowledge('delete', `block ${record.uuid}`);
    };

    const claim = async () => {
      const response = await send(
        'claim',
        `runner ${runnerUuid}`,
        (client) => client.post(`${RUNS}/create?forRunnerUuid=${runnerUuid}`, undefined, { headers: { accept: RUN } }),
        [404],
      );
      if (response?.status !== 201) return;
      const json = response.json;
      const uuid = json.metadata.uuid as string;
      const blockUuid = json.spec.buildingBlock.uuid as string;
      const behavior = json.spec.behavior as 'APPLY' | 'DESTROY';
      const ack = acknowledge('claim', `${behavior} run ${uuid} of block ${blockUuid}`);
      if (runs.has(uuid)) {
        violation(`run ${uuid} was handed out twice: claimed in cycle ${runs.get(uuid)!.claimed.cycle} and again in cycle ${cycle}`);
        return;
      }
      const secret = json.spec.buildingBlock.spec.inputs?.find((i: Json) => i.key === 'secret');
      if (behavior === 'APPLY' && (typeof secret?.value !== 'string' || secret.value.length < 100))
        unexpected.push(`cycle ${cycle}: claim ${uuid}: the sensitive input is not encrypted for the runner: ${JSON.stringify(secret)}`);
      const final: FinalStatus = Math.random() < (behavior === 'APPLY' ? 0.85 : 0.9) ? 'SUCCEEDED' : 'FAILED';
      runs.set(uuid, {
        uuid,
        blockUuid,
        behavior,
        token: json.spec.runToken,
        claimed: ack,
        final,
        next: 0,
        sent: -1,
        acked: -1,
        acks: [],
        busy: false,
      });
      blockRecord(blockUuid);
      touchedRuns.add(uuid);
      touchedBlocks.add(blockUuid);
    };

    const reportBody = (run: RunRecord, phase: number): { method: 'POST' | 'PATCH'; path: string; body: Json; kind: OperationKind } => {
      const base = `${RUNS}/${run.uuid}/status/source`;
      if (phase === 0)
        return {
          method: 'POST',
          path: base,
          kind: 'register',
          body: {
            source: { id: SOURCE, externalRunId: `ext-${run.uuid}` },
            steps: [
              { id: 'prepare', displayName: 'Prepare' },
              { id: 'apply', displayName: 'Apply' },
            ],
          },
        };
      if (phase === 1)
        return {
          method: 'PATCH',
          path: `${base}/${SOURCE}`,
          kind: 'progress',
          body: { status: 'IN_PROGRESS', steps: [{ id: 'prepare', status: 'SUCCEEDED', userMessage: `prepared ${run.uuid}` }] },
        };
      const outputs =
        run.behavior === 'APPLY' && run.final === 'SUCCEEDED'
          ? {
              [OUTPUT_PLAIN]: { value: `out-${run.uuid}`, type: 'STRING', isSensitive: false },
              [OUTPUT_SENSITIVE]: { value: `sensitive-${run.uuid}`, type: 'STRING', isSensitive: true },
            }
          : {};
      return {
        method: 'PATCH',
        path: `${base}/${SOURCE}`,
        kind: 'finish',
        body: {
          status: run.final,
          steps: [
            { id: 'apply', status: run.final, userMessage: `${run.final} ${run.uuid}`, systemMessage: 'log line\n'.repeat(20), outputs },
          ],
        },
      };
    };

    const report = async () => {
      const run = pick([...runs.values()].filter((r) => r.next < 3 && !r.busy));
      if (!run) return claim();
      run.busy = true;
      try {
        const phase = run.next;
        const { method, path: target, body, kind } = reportBody(run, phase);
        touchedRuns.add(run.uuid);
        touchedBlocks.add(run.blockUuid);
        run.sent = Math.max(run.sent, phase);
        const response = await send(kind, `run ${run.uuid}`, (client) =>
          client.with({ authorization: `Bearer ${run.token}` }).request(method, target, { body, headers: io(RUN) }),
        );
        if (response?.status !== 200) return;
        if (phase > 0 && response.json.runAborted !== false)
          unexpected.push(`cycle ${cycle}: ${kind} run ${run.uuid}: answered ${response.text} (nothing aborts a claimed run here)`);
        const ack = acknowledge(
          kind,
          `${run.behavior} run ${run.uuid} of block ${run.blockUuid}: ${phase === 2 ? run.final : phase === 1 ? 'IN_PROGRESS, step prepare SUCCEEDED' : 'source and steps registered'}`,
        );
        run.acks.push(ack);
        run.acked = Math.max(run.acked, phase);
        run.next = phase + 1;
        if (phase === 2 && run.behavior === 'APPLY' && run.final === 'SUCCEEDED')
          blockRecord(run.blockUuid).outputs = { value: `out-${run.uuid}`, ack };
      } finally {
        run.busy = false;
      }
    };

    const operations: [number, () => Promise<void>][] = [
      [30, create],
      [10, remove],
      [25, claim],
      [35, report],
    ];
    const total = operations.reduce((sum, [weight]) => sum + weight, 0);
    const operation = () => {
      let roll = Math.random() * total;
      for (const [weight, fn] of operations) if ((roll -= weight) < 0) return fn();
      return create();
    };

    // --- checking after a restart
    const ADMIN_ACCEPT = { accept: BLOCK_V2 };
    const getRun = (uuid: string) => live().get(`${RUNS}/${uuid}`, { headers: { accept: RUN } });

    /** Every live instance answers normally (the restarted one and, with several, the survivors). */
    const checkService = async () => {
      for (const instance of instances.filter((i) => !i.dead)) {
        const client = instance.client!;
        const where = several ? ` on instance ${instance.index}` : '';
        const api = await client.get('/api', { headers: { accept: media('', 'v1') } });
        if (api.status !== 200) violation(`GET /api${where} after the kill: ${api.status} ${api.text.slice(0, 300)}`);
        for (const probePath of ['/readyz', '/healthz']) {
          const response = await client.get(probePath, { anonymous: true });
          if (response.status !== 200)
            violation(`GET ${probePath}${where} after the kill: ${response.status} ${response.text.slice(0, 300)}`);
        }
      }
    };

    const checkBlock = async (record: BlockRecord) => {
      const response = await live().get(`${BLOCKS}/${record.uuid}`, { headers: ADMIN_ACCEPT });
      if (response.status === 404) {
        if (!record.deleteSent) {
          if (record.created) markLost(record.created, `GET block ${record.uuid} is 404 and no DELETE was ever sent`);
          else violation(`block ${record.uuid} (known from a claimed run) is gone, and no DELETE was ever sent for it`);
        }
        if (record.outputs && !record.deleteSent) markLost(record.outputs.ack, `block ${record.uuid} is gone`);
        return;
      }
      if (response.status !== 200) {
        violation(`GET block ${record.uuid}: ${response.status} ${response.text.slice(0, 300)}`);
        return;
      }
      const block = response.json;
      const state = block.status?.lifecycle?.state;
      const status = block.status?.status as string;
      const latest = block.status?.latestRunUuid as string | null;
      if (record.deleted && state !== 'MARKED_FOR_DELETION')
        markLost(record.deleted, `block ${record.uuid} exists with lifecycle ${state} (status ${status})`);
      if (!record.deleteSent && state !== 'ACTIVE') violation(`block ${record.uuid} is ${state} though no DELETE was sent for it`);
      if (record.outputs) {
        const outputs = (block.status?.outputs ?? []) as Json[];
        const plain = outputs.find((o) => o.key === OUTPUT_PLAIN);
        const sensitive = outputs.find((o) => o.key === OUTPUT_SENSITIVE);
        if (plain?.value !== record.outputs.value || typeof sensitive?.value?.hash !== 'string') {
          markLost(record.outputs.ack, `block ${record.uuid} (${status}) has outputs ${JSON.stringify(outputs)}`);
        }
      }
      if (!latest) {
        if (status === 'PENDING' || status === 'IN_PROGRESS')
          violation(`block ${record.uuid} is ${status} without a run (status.latestRunUuid null)`);
        if (record.created)
          markLost(record.created, `block ${record.uuid} has no latestRunUuid (its create answered APPLY run ${record.applyRunUuid})`);
        return;
      }
      const run = await getRun(latest);
      if (run.status !== 200) {
        violation(`block ${record.uuid} is ${status} and its latest run ${latest} cannot be read: ${run.status} ${run.text.slice(0, 300)}`);
        return;
      }
      if (run.json.spec?.buildingBlock?.uuid !== record.uuid)
        violation(`block ${record.uuid}'s latest run ${latest} belongs to block ${run.json.spec?.buildingBlock?.uuid}`);
      if (run.json.status !== status)
        violation(
          `block ${record.uuid} is ${status} (${state}) but its latest run ${latest} (${run.json.spec?.behavior}) is ${run.json.status}`,
        );
      if (record.applyRunUuid && record.created) {
        const apply = latest === record.applyRunUuid ? run : await getRun(record.applyRunUuid);
        if (apply.status !== 200)
          markLost(record.created, `the APPLY run ${record.applyRunUuid} its create answered cannot be read: ${apply.status}`);
      }
    };

    const checkRun = async (record: RunRecord) => {
      const response = await getRun(record.uuid);
      if (response.status !== 200) {
        markLost(record.claimed, `GET run ${record.uuid}: ${response.status} ${response.text.slice(0, 300)}`);
        return;
      }
      const run = response.json;
      const status = run.status as string;
      const finishAck = record.acks.find((ack) => ack.kind === 'finish');
      if (finishAck) {
        if (status !== record.final) markLost(finishAck, `run ${record.uuid} is ${status}`);
      } else if (status !== 'IN_PROGRESS' && !(record.sent >= 2 && status === record.final)) {
        markLost(
          record.acks.at(-1) ?? record.claimed,
          `run ${record.uuid} is ${status} (claimed, finish ${record.sent >= 2 ? `${record.final} sent, unanswered` : 'not sent'})`,
        );
      }
      if (record.acked >= 0) {
        const logs = await live().get(`${RUNS}/${record.uuid}/logs`, { headers: { accept: RUN } });
        if (logs.status !== 200) {
          markLost(record.acks[0]!, `GET run ${record.uuid}/logs: ${logs.status} ${logs.text.slice(0, 300)}`);
        } else {
          const steps = logs.json.steps as Json[];
          const step = (id: string) => steps.find((s) => s.id === id && s.sourceId === SOURCE);
          const registered = record.acks.find((ack) => ack.kind === 'register');
          if (registered && (!step('prepare') || !step('apply')))
            markLost(registered, `run ${record.uuid} has steps ${JSON.stringify(steps)}`);
          const progress = record.acks.find((ack) => ack.kind === 'progress');
          const prepare = step('prepare');
          if (progress && (prepare?.status !== 'SUCCEEDED' || prepare.userMessage !== `prepared ${record.uuid}`))
            markLost(progress, `step prepare of run ${record.uuid} is ${JSON.stringify(prepare)}`);
          const apply = step('apply');
          if (finishAck && (apply?.status !== record.final || apply.userMessage !== `${record.final} ${record.uuid}`))
            markLost(finishAck, `step apply of run ${record.uuid} is ${JSON.stringify(apply)}`);
        }
      }
      // The block of a run: there, or deleted by a DELETE (a successful DESTROY removes it).
      const block = await live().get(`${BLOCKS}/${record.blockUuid}`, { headers: ADMIN_ACCEPT });
      const blockRecordOf = blocks.get(record.blockUuid);
      if (block.status === 404 && !blockRecordOf?.deleteSent)
        violation(
          `run ${record.uuid} (${record.behavior}, ${status}) belongs to block ${record.blockUuid}, which is gone though it was never deleted`,
        );
      if (finishAck && record.behavior === 'DESTROY' && record.final === 'SUCCEEDED' && block.status !== 404)
        markLost(finishAck, `block ${record.blockUuid} still exists (${block.status}) after its DESTROY run succeeded`);
    };

    /**
     * The event log: every change has its event and every event its change. Blocks and runs
     * in the database have their creation events; every claimed run its claim, every ended run its end
     * (or its cancellation); every acknowledged status report its event. And back: a created block
     * exists unless its deletion event says it went, a deleted one is gone, a requested run exists, a
     * claimed one was claimed, an ended one ended so. Checked while events and changes commit together.
     */
    const checkEvents = async (q: DatabaseProbe['query']) => {
      const about = new Map<string, Map<string, string[]>>();
      for (const row of await q(`select title, content from events where title like 'Building Block%' order by seq`)) {
        // Content is the block's or the run's answer: the uuid in metadata, a run's status a string.
        const content = JSON.parse(row.content) as Json;
        const uuid = content.metadata.uuid as string;
        const byUuid = about.get(row.title) ?? new Map<string, string[]>();
        byUuid.set(uuid, [...(byUuid.get(uuid) ?? []), String(content.status)]);
        about.set(row.title, byUuid);
      }
      const has = (title: string, uuid: string) => about.get(title)?.has(uuid) ?? false;
      const uuidsOf = (title: string) => [...(about.get(title)?.keys() ?? [])];
      const blockRows = new Set((await q(`select uuid from building_blocks`)).map((row) => row.uuid as string));
      const runRows = new Map((await q(`select uuid, status, claimed_on from runs`)).map((row) => [row.uuid as string, row]));
      for (const uuid of blockRows)
        if (!has('Building Block Created', uuid)) violation(`block ${uuid} exists without its "Building Block Created" event`);
      for (const uuid of uuidsOf('Building Block Created')) {
        if (!blockRows.has(uuid) && !has('Building Block Deleted', uuid))
          violation(`event "Building Block Created" of block ${uuid}, which is gone without a "Building Block Deleted" event`);
      }
      for (const uuid of uuidsOf('Building Block Deleted')) {
        if (blockRows.has(uuid)) violation(`event "Building Block Deleted" of block ${uuid}, which still exists`);
        if (!has('Building Block Created', uuid)) violation(`event "Building Block Deleted" of block ${uuid}, which was never created`);
      }
      for (const [uuid, row] of runRows) {
        if (!has('Building Block Run Requested', uuid)) violation(`run ${uuid} exists without its "Building Block Run Requested" event`);
        if (row.claimed_on && !has('Building Block Run Claimed', uuid))
          violation(`run ${uuid} was claimed without a "Building Block Run Claimed" event`);
        if (isFinalStatus(row.status)) {
          const ends = [
            ...(about.get('Building Block Run Status Changed')?.get(uuid) ?? []),
            ...(about.get('Building Block Run Cancelled')?.get(uuid) ?? []),
          ];
          if (!ends.includes(row.status))
            violation(`run ${uuid} is ${row.status} without an event saying so (events: ${JSON.stringify(ends)})`);
        }
      }
      for (const uuid of uuidsOf('Building Block Run Requested'))
        if (!runRows.has(uuid)) violation(`event "Building Block Run Requested" of run ${uuid}, which does not exist`);
      for (const uuid of uuidsOf('Building Block Run Claimed'))
        if (!runRows.get(uuid)?.claimed_on) violation(`event "Building Block Run Claimed" of run ${uuid}, which was never claimed`);
      for (const [uuid, statuses] of about.get('Building Block Run Status Changed') ?? []) {
        const final = statuses.filter(isFinalStatus);
        if (final.length > 0 && runRows.get(uuid)?.status !== final.at(-1))
          violation(`event: run ${uuid} ended ${final.at(-1)}, but it is ${runRows.get(uuid)?.status}`);
      }
      for (const record of runs.values()) {
        const reported = record.acks.find((ack) => ack.kind === 'register' || ack.kind === 'progress');
        if (reported && !has('Building Block Run Steps Changed', record.uuid) && !has('Building Block Run Status Changed', record.uuid))
          markLost(reported, `run ${record.uuid} has no event of its acknowledged status report`);
        if (!has('Building Block Run Claimed', record.uuid))
          markLost(record.claimed, `run ${record.uuid} has no "Building Block Run Claimed" event`);
      }
      for (const record of blocks.values()) {
        if (record.created && !has('Building Block Created', record.uuid))
          markLost(record.created, `block ${record.uuid} has no "Building Block Created" event`);
        if (record.deleted && !has('Building Block Deletion Requested', record.uuid) && !has('Building Block Deleted', record.uuid))
          markLost(record.deleted, `block ${record.uuid} has no event of its acknowledged deletion`);
      }
    };

    /** Half-written objects anywhere in the database. */
    const checkDatabase = async () => {
      for (const problem of await probe.integrity()) violation(problem);
      const q = probe.query.bind(probe);
      for (const row of await q(`select b.uuid, b.status, b.latest_run_uuid from building_blocks b left join runs r on r.uuid = b.latest_run_uuid
          where (b.latest_run_uuid is not null and r.uuid is null) or (b.latest_run_uuid is null and b.status in ('PENDING', 'IN_PROGRESS'))`)) {
        violation(`block ${row.uuid} is ${row.status} and its latest run ${row.latest_run_uuid} does not exist`);
      }
      for (const row of await q(
        `select b.uuid, b.status, b.marked_for_deletion_on, r.uuid as run_uuid, r.status as run_status, r.behavior from building_blocks b join runs r on r.uuid = b.latest_run_uuid where b.status <> r.status`,
      )) {
        const state = row.marked_for_deletion_on ? 'MARKED_FOR_DELETION' : 'ACTIVE';
        violation(
          `block ${row.uuid} is ${row.status} (${state}) but its latest run ${row.run_uuid} (${row.behavior}) is ${row.run_status}`,
        );
      }
      for (const row of await q(`select b.uuid, r.uuid as run_uuid from building_blocks b join runs r on r.uuid = b.latest_run_uuid
          where exists (select 1 from runs n where n.block_uuid = b.uuid and n.run_number > r.run_number)`)) {
        violation(`block ${row.uuid}'s latest run ${row.run_uuid} is not its newest run`);
      }
      for (const row of await q(
        `select block_uuid, count(*) as active from runs where status in ('PENDING', 'IN_PROGRESS') group by block_uuid having count(*) > 1`,
      )) {
        violation(`block ${row.block_uuid} has ${row.active} runs not ended at once`);
      }
      for (const row of await q(
        `select r.uuid, r.block_uuid, r.status, r.behavior from runs r left join building_blocks b on b.uuid = r.block_uuid where b.uuid is null`,
      )) {
        if (!blocks.get(row.block_uuid)?.deleteSent)
          violation(
            `run ${row.uuid} (${row.behavior}, ${row.status}) belongs to block ${row.block_uuid}, which does not exist and was never deleted`,
          );
        else if (!isFinalStatus(row.status))
          violation(`run ${row.uuid} (${row.behavior}) of the removed block ${row.block_uuid} is still ${row.status}`);
      }
      for (const row of await q(
        `select s.run_uuid, s.source_id from run_sources s left join runs r on r.uuid = s.run_uuid where r.uuid is null`,
      )) {
        violation(`status source ${row.source_id} of run ${row.run_uuid} exists without its run`);
      }
      for (const row of await q(`select t.run_uuid, t.source_id, t.step_id from run_steps t left join run_sources s on s.run_uuid = t.run_uuid and s.source_id = t.source_id left join runs r on r.uuid = t.run_uuid
          where s.run_uuid is null or r.uuid is null`)) {
        violation(`step ${row.step_id} (source ${row.source_id}) exists without its run ${row.run_uuid} or source`);
      }
      for (const row of await q(`select p.block_uuid, p.parent_uuid from building_block_parents p left join building_blocks b on b.uuid = p.block_uuid left join building_blocks q on q.uuid = p.parent_uuid
          where b.uuid is null or q.uuid is null`)) {
        violation(`parent link ${row.block_uuid} → ${row.parent_uuid} names a missing block`);
      }
      for (const row of await q(
        `select d.uuid, (select coalesce(sum(u.blocks), 0) from definition_usage u where u.definition_uuid = d.uuid) as usage_count, (select count(*) from building_blocks b where b.definition_uuid = d.uuid) as actual from definitions d`,
      )) {
        if (Number(row.usage_count) !== Number(row.actual))
          violation(`definition ${row.uuid} counts ${row.usage_count} blocks but has ${row.actual}`);
      }
      await checkEvents(q);
      // Outputs belong to a successful APPLY run of their block (no orphaned outputs).
      const withOutputs = await q(`select uuid, outputs from building_blocks where outputs <> '[]'`);
      if (withOutputs.length > 0) {
        const applied = new Map<string, Json[]>();
        for (const row of await q(`select block_uuid, outputs from runs where behavior = 'APPLY' and status = 'SUCCEEDED'`)) {
          applied.set(row.block_uuid, [...(applied.get(row.block_uuid) ?? []), JSON.parse(row.outputs)]);
        }
        for (const row of withOutputs) {
          const outputs = JSON.parse(row.outputs) as Json[];
          const fromRun = (applied.get(row.uuid) ?? []).some((runOutputs) =>
            outputs.every((o) => JSON.stringify(runOutputs[o.key]?.value) === JSON.stringify(o.value)),
          );
          if (!fromRun) violation(`block ${row.uuid} has outputs ${row.outputs.slice(0, 300)} that no successful APPLY run of it reported`);
        }
      }
    };

    /**
     * After a cycle: the service, every block and run this cycle and the one before touched (a request
     * of the cycle before may have been in flight at its kill; on PostgreSQL a commit sent just before
     * the kill can land after it), and the whole database scanned for half-written objects. After the
     * last cycle (`all`): every block and run ever acknowledged.
     */
    let previousBlocks = new Set<string>();
    let previousRuns = new Set<string>();
    const check = async (all: boolean) => {
      await checkService();
      const blockUuids = all ? [...blocks.keys()] : [...new Set([...previousBlocks, ...touchedBlocks])];
      const runUuids = all ? [...runs.keys()] : [...new Set([...previousRuns, ...touchedRuns])];
      await pool(blockUuids.map((uuid) => blocks.get(uuid)!).filter(Boolean), 8, checkBlock);
      await pool(runUuids.map((uuid) => runs.get(uuid)!).filter(Boolean), 8, checkRun);
      await checkDatabase();
      return { blocks: blockUuids.length, runs: runUuids.length };
    };

    // --- the cycles
    for (cycle = 1; cycle <= cycles; cycle++) {
      [previousBlocks, previousRuns] = [touchedBlocks, touchedRuns];
      touchedBlocks = new Set();
      touchedRuns = new Set();
      stopped = false;
      const killAt = killMin + Math.random() * (killMax - killMin);
      firstAck = resolvable();
      const workers = Array.from({ length: concurrency }, async () => {
        while (!stopped) await operation();
      });
      // Timed from the cycle's first acknowledged request, not from its start: a restarted server on a
      // busy machine may take longer than the whole window to answer at all, and then the kill would
      // cut nothing but connection attempts (the mix would never reach its later steps).
      // (A server that acknowledges nothing for 15 s is killed anyway: the checks then say what is wrong.)
      await Promise.race([firstAck.promise, sleep(15_000)]);
      await sleep(killAt);
      // At random among those killed least often, so every instance is killed within each round of cycles.
      const fewest = Math.min(...instances.map((instance) => instance.kills));
      const victim = pick(instances.filter((instance) => instance.kills === fewest))!;
      victim.kills++;
      const survivorLoad = several ? survivorMin + Math.random() * (survivorMax - survivorMin) : 0;
      // Dead before the signal: every request failing from here on to this instance is the kill's.
      victim.dead = true;
      down = true;
      stopped = !several;
      const where = several ? ` instance ${victim.index} of ${instanceCount}` : '';
      log.write(`\n--- chaos: cycle ${cycle}: SIGKILL${where} ${Math.round(killAt)} ms into the load ---\n`);
      victim.child!.process.kill('SIGKILL');
      await victim.child!.exited;
      if (several) await sleep(survivorLoad);
      stopped = true;
      await Promise.all(workers);
      await closeClient(victim);
      // Several instances: checked through the survivors while the victim is still dead.
      const checking = Date.now();
      const checked = several ? await check(false) : undefined;
      const restarting = Date.now();
      await start(victim);
      down = false;
      const restarted = Date.now();
      const { blocks: checkedBlocks, runs: checkedRuns } = checked ?? (await check(false));
      if (several) await checkService();
      const checkMs = several ? restarting - checking : Date.now() - restarted;
      say(
        `[${dialect}${several ? ` ×${instanceCount}` : ''}] cycle ${cycle}/${cycles}: killed${where} ${Math.round(killAt)} ms into the load${several ? `, load on the survivors for ${Math.round(survivorLoad)} ms` : ''}; ` +
          `restart ${restarted - restarting} ms, check ${checkMs} ms (${checkedBlocks} blocks, ${checkedRuns} runs); ` +
          `${acks.length} acknowledged so far, ${lost.size} lost, ${halfWritten.size} half-written, ${unexpected.length} unexpected`,
      );
    }
    cycle = cycles;
    await check(true);
    const [{ n: blocksAtEnd } = { n: 0 }] = await probe.query<{ n: number }>('select count(*) as n from building_blocks');
    const [{ n: runsAtEnd } = { n: 0 }] = await probe.query<{ n: number }>('select count(*) as n from runs');
    const inProgress = await probe.query<{ uuid: string }>(`select uuid from runs where status = 'IN_PROGRESS'`);

    const requests = OPERATIONS.reduce((sum, kind) => sum + counts[kind].sent, 0);
    return {
      dialect,
      cycles,
      instances: instanceCount,
      starts,
      requests,
      acknowledged: acks.length,
      acknowledgedWhileDown,
      connectionErrors,
      lost: lost.size,
      byOperation: counts,
      lostDetails: [...lost.values()],
      halfWritten: [...halfWritten.values()],
      unexpected,
      unacknowledgedClaims: inProgress.filter((row) => !runs.has(row.uuid)).length,
      blocksAtEnd: Number(blocksAtEnd),
      runsAtEnd: Number(runsAtEnd),
      durationMs: Date.now() - started,
      serverLog,
    };
  } finally {
    for (const child of [...instances.map((instance) => instance.child), ...reserve]) {
      if (!child) continue;
      child.process.kill('SIGKILL');
      await child.exited;
    }
    for (const instance of instances) await closeClient(instance);
    await probe.close().catch(() => undefined);
    await bundle?.remove();
    await new Promise((resolve) => log.end(resolve));
    if (!options.keep) {
      await database?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

/** The counts as a small table (one row per result). */
export function formatChaosTable(results: readonly ChaosResult[]): string {
  const header = ['database', 'instances', 'cycles', 'requests', 'acknowledged', 'lost', 'half-written', 'unexpected', 'seconds'];
  const rows = results.map((r) =>
    [
      r.dialect,
      r.instances,
      r.cycles,
      r.requests,
      r.acknowledged,
      r.lost,
      r.halfWritten.length,
      r.unexpected.length,
      Math.round(r.durationMs / 1000),
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/** A failure report: what was lost or half-written, and where the server's log is. */
export function describeChaosFailure(result: ChaosResult, limit = 20): string {
  const list = (title: string, items: string[]) =>
    items.length === 0
      ? []
      : [
          `${title} (${items.length}):`,
          ...items.slice(0, limit).map((item) => `  - ${item}`),
          ...(items.length > limit ? [`  … ${items.length - limit} more`] : []),
        ];
  return [
    `[${result.dialect}${result.instances > 1 ? ` ×${result.instances}` : ''}] ${result.cycles} cycles, ${result.requests} requests, ${result.acknowledged} acknowledged, ${result.lost} lost; server log: ${result.serverLog}`,
    ...list('lost acknowledgments', result.lostDetails),
    ...list('half-written objects', result.halfWritten),
    ...list('unexpected answers', result.unexpected),
  ].join('\n');
}
