import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { ApiClient, media, type Response } from './client.js';
import { createPostgresDatabase, type Dialect } from './databases.js';
import { registerRunner, runnerDefinition, runWorld, BLOCK_V2, RUN, RUNS, BLOCKS } from './runs.js';
import { io, type Json } from './structure.js';

/**
 * Crash safety (issue 9, item 1): the real server as a child process under a steady concurrent mix of
 * block creates and deletes, run claims and status reports, killed with SIGKILL at a random moment and
 * started again on the same database, cycle after cycle. Every request that got a 2xx is remembered
 * with what it acknowledged; after each restart the objects the cycle touched are read back (and at
 * the end all of them), and the database is searched for half-written objects.
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
  /** Server starts (cycles + 1). */
  starts: number;
  /** Requests of the load (reads made to check are not counted). */
  requests: number;
  acknowledged: number;
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
  /** The server's stdout and stderr of every start, with a marker line per kill. */
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

interface Child {
  process: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startChild(env: NodeJS.ProcessEnv, log: WriteStream): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no "listening on" line within 60 s: ${out.slice(-2000)}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        if (out.length < 100_000) out += chunk.toString();
        const match = /listening on (https:\/\/localhost:\d+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        if (out.length < 100_000) out += chunk.toString();
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited before listening (code ${code}, signal ${signal}): ${out.slice(-2000)}`));
      });
    });
    return { process: child, url, exited };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** The environment of every start: the same data directory or database, master key and admin key. */
function serverEnv(dataDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the caller's own BLOCKYARD_* configuration may leak into the child (test settings may).
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('BLOCKYARD_') || key.startsWith('BLOCKYARD_TEST_')) env[key] = value;
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
        if (check.length !== 1 || check[0]!.integrity_check !== 'ok') problems.push(`integrity_check: ${JSON.stringify(check).slice(0, 2000)}`);
        const keys = db.pragma('foreign_key_check') as Json[];
        if (keys.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(keys).slice(0, 2000)}`);
        return problems;
      });
    },
    async close() {},
  };
}

function postgresProbe(url: string): DatabaseProbe {
  const client = new pg.Pool({ connectionString: url, max: 1 });
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

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { dialect, cycles } = options;
  const concurrency = options.concurrency ?? 6;
  const [killMin, killMax] = options.killWindowMs ?? [50, 400];
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
  const counts = Object.fromEntries(OPERATIONS.map((kind) => [kind, { sent: 0, acknowledged: 0, lost: 0 }])) as Record<OperationKind, OperationCounts>;
  let cycle = 0;
  let sequence = 0;

  const acknowledge = (kind: OperationKind, what: string): Ack => {
    const ack = { id: acks.length, cycle, kind, what };
    acks.push(ack);
    counts[kind].acknowledged++;
    return ack;
  };
  const markLost = (ack: Ack, found: string) => {
    if (lost.has(ack.id)) return;
    lost.set(ack.id, `cycle ${ack.cycle}: acknowledged ${ack.kind} (${ack.what}); after the restart: ${found}`);
    counts[ack.kind].lost++;
  };
  const violation = (text: string) => {
    if (!halfWritten.has(text)) halfWritten.set(text, `after cycle ${cycle}: ${text}`);
  };

  // --- the server
  let child: Child | undefined;
  let admin: ApiClient | undefined;
  let adminToken = '';
  let ca = '';
  let starts = 0;
  const start = async () => {
    child = await startChild(env, log);
    starts++;
    ca ||= await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const anonymous = new ApiClient(child.url, ca);
    if (!adminToken) {
      const response = await anonymous.post('/api/login', ADMIN_KEY, { headers: { 'content-type': 'application/json' } });
      if (response.status !== 200) throw new Error(`admin login: ${response.status} ${response.text}`);
      adminToken = response.json.access_token;
    }
    admin = anonymous.with({ authorization: `Bearer ${adminToken}` });
  };
  const closeClient = async () => {
    if (admin) await admin.agent.destroy().catch(() => undefined);
    admin = undefined;
  };

  try {
    await start();

    // --- the world: a tenant, a runner with an RSA certificate, a released terraform definition on it
    // whose blocks carry a sensitive input (encrypted for the runner at each claim) and get outputs.
    const world = await runWorld(admin!);
    const runner = await registerRunner(admin!, world.provider, { implementationType: 'TERRAFORM' });
    const runnerUuid = runner.metadata.uuid as string;
    const user = (type: string, extra: Json = {}) => ({ displayName: `A ${type}`, type, assignmentType: 'USER_INPUT', updateableByConsumer: true, ...extra });
    const definition = await runnerDefinition(admin!, world.provider, runnerUuid, {
      inputs: { name: user('STRING'), secret: user('STRING', { isSensitive: true }) },
      outputs: {
        [OUTPUT_PLAIN]: { displayName: 'Result', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 },
        [OUTPUT_SENSITIVE]: { displayName: 'Token', type: 'STRING', assignmentType: 'NONE', displayOrder: 1 },
      },
    });

    // --- what one cycle's load does
    const touchedBlocks = new Set<string>();
    const touchedRuns = new Set<string>();
    let killed = false;

    const blockRecord = (uuid: string): BlockRecord => {
      let record = blocks.get(uuid);
      if (!record) blocks.set(uuid, (record = { uuid, deleteSent: false }));
      return record;
    };

    /** One load request: counted, and classified when it failed in a way the load does not expect. */
    const send = async (kind: OperationKind, what: string, request: () => Promise<Response>, expected: number[] = []): Promise<Response | undefined> => {
      counts[kind].sent++;
      try {
        const response = await request();
        if ((response.status < 200 || response.status > 299) && !expected.includes(response.status)) {
          unexpected.push(`cycle ${cycle}: ${kind} ${what}: ${response.status} ${response.text.slice(0, 500)}`);
        }
        return response;
      } catch (error) {
        if (!killed) unexpected.push(`cycle ${cycle}: ${kind} ${what}: ${(error as Error).message} (before the kill)`);
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
      const client = admin!;
      const response = await send('create', name, () => client.post(BLOCKS, body, { headers: io(BLOCK_V2) }));
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
      const client = admin!;
      // 404: an earlier DELETE whose answer was lost removed it already.
      const response = await send('delete', record.uuid, () => client.delete(`${BLOCKS}/${record.uuid}`), [404]);
      if (response?.status === 202) record.deleted = acknowledge('delete', `block ${record.uuid}`);
    };

    const claim = async () => {
      const client = admin!;
      const response = await send('claim', `runner ${runnerUuid}`, () => client.post(`${RUNS}/create?forRunnerUuid=${runnerUuid}`, undefined, { headers: { accept: RUN } }), [404]);
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
      if (behavior === 'APPLY' && (typeof secret?.value !== 'string' || secret.value.length < 100)) unexpected.push(`cycle ${cycle}: claim ${uuid}: the sensitive input is not encrypted for the runner: ${JSON.stringify(secret)}`);
      const final: FinalStatus = Math.random() < (behavior === 'APPLY' ? 0.85 : 0.9) ? 'SUCCEEDED' : 'FAILED';
      runs.set(uuid, { uuid, blockUuid, behavior, token: json.spec.runToken, claimed: ack, final, next: 0, sent: -1, acked: -1, acks: [], busy: false });
      blockRecord(blockUuid);
      touchedRuns.add(uuid);
      touchedBlocks.add(blockUuid);
    };

    const reportBody = (run: RunRecord, phase: number): { method: 'POST' | 'PATCH'; path: string; body: Json; kind: OperationKind } => {
      const base = `${RUNS}/${run.uuid}/status/source`;
      if (phase === 0) return { method: 'POST', path: base, kind: 'register', body: { source: { id: SOURCE, externalRunId: `ext-${run.uuid}` }, steps: [{ id: 'prepare', displayName: 'Prepare' }, { id: 'apply', displayName: 'Apply' }] } };
      if (phase === 1) return { method: 'PATCH', path: `${base}/${SOURCE}`, kind: 'progress', body: { status: 'IN_PROGRESS', steps: [{ id: 'prepare', status: 'SUCCEEDED', userMessage: `prepared ${run.uuid}` }] } };
      const outputs = run.behavior === 'APPLY' && run.final === 'SUCCEEDED' ? { [OUTPUT_PLAIN]: { value: `out-${run.uuid}`, type: 'STRING', isSensitive: false }, [OUTPUT_SENSITIVE]: { value: `sensitive-${run.uuid}`, type: 'STRING', isSensitive: true } } : {};
      return { method: 'PATCH', path: `${base}/${SOURCE}`, kind: 'finish', body: { status: run.final, steps: [{ id: 'apply', status: run.final, userMessage: `${run.final} ${run.uuid}`, systemMessage: 'log line\n'.repeat(20), outputs }] } };
    };

    const report = async () => {
      const run = pick([...runs.values()].filter((r) => r.next < 3 && !r.busy));
      if (!run) return claim();
      run.busy = true;
      try {
        const phase = run.next;
        const { method, path: target, body, kind } = reportBody(run, phase);
        const client = admin!.with({ authorization: `Bearer ${run.token}` });
        touchedRuns.add(run.uuid);
        touchedBlocks.add(run.blockUuid);
        run.sent = Math.max(run.sent, phase);
        const response = await send(kind, `run ${run.uuid}`, () => client.request(method, target, { body, headers: io(RUN) }));
        if (response?.status !== 200) return;
        if (phase > 0 && response.json.runAborted !== false) unexpected.push(`cycle ${cycle}: ${kind} run ${run.uuid}: answered ${response.text} (nothing aborts a claimed run here)`);
        const ack = acknowledge(kind, `${run.behavior} run ${run.uuid} of block ${run.blockUuid}: ${phase === 2 ? run.final : phase === 1 ? 'IN_PROGRESS, step prepare SUCCEEDED' : 'source and steps registered'}`);
        run.acks.push(ack);
        run.acked = Math.max(run.acked, phase);
        run.next = phase + 1;
        if (phase === 2 && run.behavior === 'APPLY' && run.final === 'SUCCEEDED') blockRecord(run.blockUuid).outputs = { value: `out-${run.uuid}`, ack };
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
    const getRun = (uuid: string) => admin!.get(`${RUNS}/${uuid}`, { headers: { accept: RUN } });

    const checkService = async () => {
      const api = await admin!.get('/api', { headers: { accept: media('', 'v1') } });
      if (api.status !== 200) violation(`GET /api after the restart: ${api.status} ${api.text.slice(0, 300)}`);
      for (const probePath of ['/readyz', '/healthz']) {
        const response = await admin!.get(probePath, { anonymous: true });
        if (response.status !== 200) violation(`GET ${probePath} after the restart: ${response.status} ${response.text.slice(0, 300)}`);
      }
    };

    const checkBlock = async (record: BlockRecord) => {
      const response = await admin!.get(`${BLOCKS}/${record.uuid}`, { headers: ADMIN_ACCEPT });
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
      if (record.deleted && state !== 'MARKED_FOR_DELETION') markLost(record.deleted, `block ${record.uuid} exists with lifecycle ${state} (status ${status})`);
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
        if (status === 'PENDING' || status === 'IN_PROGRESS') violation(`block ${record.uuid} is ${status} without a run (status.latestRunUuid null)`);
        if (record.created) markLost(record.created, `block ${record.uuid} has no latestRunUuid (its create answered APPLY run ${record.applyRunUuid})`);
        return;
      }
      const run = await getRun(latest);
      if (run.status !== 200) {
        violation(`block ${record.uuid} is ${status} and its latest run ${latest} cannot be read: ${run.status} ${run.text.slice(0, 300)}`);
        return;
      }
      if (run.json.spec?.buildingBlock?.uuid !== record.uuid) violation(`block ${record.uuid}'s latest run ${latest} belongs to block ${run.json.spec?.buildingBlock?.uuid}`);
      if (run.json.status !== status) violation(`block ${record.uuid} is ${status} (${state}) but its latest run ${latest} (${run.json.spec?.behavior}) is ${run.json.status}`);
      if (record.applyRunUuid && record.created) {
        const apply = latest === record.applyRunUuid ? run : await getRun(record.applyRunUuid);
        if (apply.status !== 200) markLost(record.created, `the APPLY run ${record.applyRunUuid} its create answered cannot be read: ${apply.status}`);
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
        markLost(record.acks.at(-1) ?? record.claimed, `run ${record.uuid} is ${status} (claimed, finish ${record.sent >= 2 ? `${record.final} sent, unanswered` : 'not sent'})`);
      }
      if (record.acked >= 0) {
        const logs = await admin!.get(`${RUNS}/${record.uuid}/logs`, { headers: { accept: RUN } });
        if (logs.status !== 200) {
          markLost(record.acks[0]!, `GET run ${record.uuid}/logs: ${logs.status} ${logs.text.slice(0, 300)}`);
        } else {
          const steps = logs.json.steps as Json[];
          const step = (id: string) => steps.find((s) => s.id === id && s.sourceId === SOURCE);
          const registered = record.acks.find((ack) => ack.kind === 'register');
          if (registered && (!step('prepare') || !step('apply'))) markLost(registered, `run ${record.uuid} has steps ${JSON.stringify(steps)}`);
          const progress = record.acks.find((ack) => ack.kind === 'progress');
          const prepare = step('prepare');
          if (progress && (prepare?.status !== 'SUCCEEDED' || prepare.userMessage !== `prepared ${record.uuid}`)) markLost(progress, `step prepare of run ${record.uuid} is ${JSON.stringify(prepare)}`);
          const apply = step('apply');
          if (finishAck && (apply?.status !== record.final || apply.userMessage !== `${record.final} ${record.uuid}`)) markLost(finishAck, `step apply of run ${record.uuid} is ${JSON.stringify(apply)}`);
        }
      }
      // The block of a run: there, or deleted by a DELETE (a successful DESTROY removes it).
      const block = await admin!.get(`${BLOCKS}/${record.blockUuid}`, { headers: ADMIN_ACCEPT });
      const blockRecordOf = blocks.get(record.blockUuid);
      if (block.status === 404 && !blockRecordOf?.deleteSent) violation(`run ${record.uuid} (${record.behavior}, ${status}) belongs to block ${record.blockUuid}, which is gone though it was never deleted`);
      if (finishAck && record.behavior === 'DESTROY' && record.final === 'SUCCEEDED' && block.status !== 404) markLost(finishAck, `block ${record.blockUuid} still exists (${block.status}) after its DESTROY run succeeded`);
    };

    /** Half-written objects anywhere in the database. */
    const checkDatabase = async () => {
      for (const problem of await probe.integrity()) violation(problem);
      const q = probe.query.bind(probe);
      for (const row of await q(`select b.uuid, b.status, b.latest_run_uuid from building_blocks b left join runs r on r.uuid = b.latest_run_uuid
          where (b.latest_run_uuid is not null and r.uuid is null) or (b.latest_run_uuid is null and b.status in ('PENDING', 'IN_PROGRESS'))`)) {
        violation(`block ${row.uuid} is ${row.status} and its latest run ${row.latest_run_uuid} does not exist`);
      }
      for (const row of await q(`select b.uuid, b.status, b.marked_for_deletion_on, r.uuid as run_uuid, r.status as run_status, r.behavior from building_blocks b join runs r on r.uuid = b.latest_run_uuid where b.status <> r.status`)) {
        const state = row.marked_for_deletion_on ? 'MARKED_FOR_DELETION' : 'ACTIVE';
        violation(`block ${row.uuid} is ${row.status} (${state}) but its latest run ${row.run_uuid} (${row.behavior}) is ${row.run_status}`);
      }
      for (const row of await q(`select b.uuid, r.uuid as run_uuid from building_blocks b join runs r on r.uuid = b.latest_run_uuid
          where exists (select 1 from runs n where n.block_uuid = b.uuid and n.run_number > r.run_number)`)) {
        violation(`block ${row.uuid}'s latest run ${row.run_uuid} is not its newest run`);
      }
      for (const row of await q(`select block_uuid, count(*) as active from runs where status in ('PENDING', 'IN_PROGRESS') group by block_uuid having count(*) > 1`)) {
        violation(`block ${row.block_uuid} has ${row.active} runs not ended at once`);
      }
      for (const row of await q(`select r.uuid, r.block_uuid, r.status, r.behavior from runs r left join building_blocks b on b.uuid = r.block_uuid where b.uuid is null`)) {
        if (!blocks.get(row.block_uuid)?.deleteSent) violation(`run ${row.uuid} (${row.behavior}, ${row.status}) belongs to block ${row.block_uuid}, which does not exist and was never deleted`);
        else if (!isFinalStatus(row.status)) violation(`run ${row.uuid} (${row.behavior}) of the removed block ${row.block_uuid} is still ${row.status}`);
      }
      for (const row of await q(`select s.run_uuid, s.source_id from run_sources s left join runs r on r.uuid = s.run_uuid where r.uuid is null`)) {
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
      for (const row of await q(`select d.uuid, d.usage_count, (select count(*) from building_blocks b where b.definition_uuid = d.uuid) as actual from definitions d`)) {
        if (Number(row.usage_count) !== Number(row.actual)) violation(`definition ${row.uuid} counts ${row.usage_count} blocks but has ${row.actual}`);
      }
      // Outputs belong to a successful APPLY run of their block (no orphaned outputs).
      const withOutputs = await q(`select uuid, outputs from building_blocks where outputs <> '[]'`);
      if (withOutputs.length > 0) {
        const applied = new Map<string, Json[]>();
        for (const row of await q(`select block_uuid, outputs from runs where behavior = 'APPLY' and status = 'SUCCEEDED'`)) {
          applied.set(row.block_uuid, [...(applied.get(row.block_uuid) ?? []), JSON.parse(row.outputs)]);
        }
        for (const row of withOutputs) {
          const outputs = JSON.parse(row.outputs) as Json[];
          const fromRun = (applied.get(row.uuid) ?? []).some((runOutputs) => outputs.every((o) => JSON.stringify(runOutputs[o.key]?.value) === JSON.stringify(o.value)));
          if (!fromRun) violation(`block ${row.uuid} has outputs ${row.outputs.slice(0, 300)} that no successful APPLY run of it reported`);
        }
      }
    };

    const check = async (all: boolean) => {
      await checkService();
      const blockList = all ? [...blocks.values()] : [...touchedBlocks].map((uuid) => blocks.get(uuid)!).filter(Boolean);
      const runList = all ? [...runs.values()] : [...touchedRuns].map((uuid) => runs.get(uuid)!).filter(Boolean);
      await pool(blockList, 8, checkBlock);
      await pool(runList, 8, checkRun);
      await checkDatabase();
    };

    // --- the cycles
    for (cycle = 1; cycle <= cycles; cycle++) {
      touchedBlocks.clear();
      touchedRuns.clear();
      killed = false;
      const killAt = killMin + Math.random() * (killMax - killMin);
      const workers = Array.from({ length: concurrency }, async () => {
        while (!killed) await operation();
      });
      await sleep(killAt);
      killed = true;
      const victim = child!;
      log.write(`\n--- chaos: cycle ${cycle}: SIGKILL ${Math.round(killAt)} ms into the load ---\n`);
      victim.process.kill('SIGKILL');
      await victim.exited;
      await Promise.all(workers);
      await closeClient();
      const restarting = Date.now();
      await start();
      const checking = Date.now();
      await check(false);
      say(
        `[${dialect}] cycle ${cycle}/${cycles}: killed ${Math.round(killAt)} ms into the load; restart ${checking - restarting} ms, check ${Date.now() - checking} ms; ` +
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
      starts,
      requests,
      acknowledged: acks.length,
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
    if (child) {
      child.process.kill('SIGKILL');
      await child.exited;
    }
    await closeClient();
    await probe.close().catch(() => undefined);
    await new Promise((resolve) => log.end(resolve));
    if (!options.keep) {
      await database?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}

/** The counts as a small table (one row per result). */
export function formatChaosTable(results: readonly ChaosResult[]): string {
  const header = ['database', 'cycles', 'requests', 'acknowledged', 'lost', 'half-written', 'unexpected', 'seconds'];
  const rows = results.map((r) => [r.dialect, r.cycles, r.requests, r.acknowledged, r.lost, r.halfWritten.length, r.unexpected.length, Math.round(r.durationMs / 1000)].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** A failure report: what was lost or half-written, and where the server's log is. */
export function describeChaosFailure(result: ChaosResult, limit = 20): string {
  const list = (title: string, items: string[]) => (items.length === 0 ? [] : [`${title} (${items.length}):`, ...items.slice(0, limit).map((item) => `  - ${item}`), ...(items.length > limit ? [`  … ${items.length - limit} more`] : [])]);
  return [
    `[${result.dialect}] ${result.cycles} cycles, ${result.requests} requests, ${result.acknowledged} acknowledged, ${result.lost} lost; server log: ${result.serverLog}`,
    ...list('lost acknowledgments', result.lostDetails),
    ...list('half-written objects', result.halfWritten),
    ...list('unexpected answers', result.unexpected),
  ].join('\n');
}
