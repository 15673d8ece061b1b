import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { Agent, request as send } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/store/database.js';
import { loadData, type DataSet } from './load-data.js';
import { startWatcher, type WatchLatency } from './watch-latency.js';

/**
 * `npm run bench [-- --postgres] [-- --smoke] [-- --sizes 10000,1000000] [-- --duration 10]`:
 * the real server (a child process, HTTPS, keep-alive) on data loaded through its own storage layer,
 * each scenario at fixed concurrency and duration, as ratios to a baseline measured in the same run.
 */
const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const smoke = args.smoke!;
const sizes = (args.sizes ?? (smoke ? '500' : '10000,1000000')).split(',').map(Number);
const duration = Number(args.duration ?? (smoke ? 1 : 10));
const connections = Number(args.connections);
const dialects: ('sqlite' | 'postgres')[] = args.postgres ? ['sqlite', 'postgres'] : ['sqlite'];
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLIENT_ID = '00000000-0000-4000-8000-0000000be0c1';
const CLIENT_SECRET = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('base64');
const PG_ADMIN_URL = process.env.BLOCKYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The targets of the performance issue: ratio of requests/s to the baseline's. */
const TARGETS: Record<string, number> = {
  'GET block v2-preview': 0.7,
  'GET block v1': 0.7,
  'list 50 (workspace + status)': 0.15,
  'list 50 (managedByDefinitionUuid)': 0.15,
  'POST block v2-preview': 0.1,
  'PATCH run status': 0.15,
  'claim a run': 0.1,
  'login (/oauth/token)': 0.1,
};

/**
 * Write throughput with the event log (issue 18): every create and status report now appends its
 * events in its transaction. Each write scenario's ratio to the baseline is compared with the same
 * scenario's ratio in `bench/results/before-event-log.json` (the last full run before the event log,
 * same machine, same sizes): the quotient must stay at or above 0.8. Ratios to a baseline measured in
 * the same run cancel the machine's speed of the moment; absolute requests/s would not.
 */
const EVENT_LOG_WRITES = ['POST block v2-preview', 'PATCH run status', 'claim a run'];
const EVENT_LOG_TARGET = 0.8;
const BEFORE_EVENT_LOG = path.join(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'), 'bench/results/before-event-log.json');

interface Row {
  dialect: string;
  blocks: number;
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  ratio: number;
  target?: number;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        child.stdout!.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${seen}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(forced);
}

function residentMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function measure(name: string, url: string, options: Partial<autocannon.Options>): Promise<Omit<Row, 'dialect' | 'blocks' | 'ratio'>> {
  const result = await autocannon({ url, connections, duration, ...options } as autocannon.Options);
  const errors = result.errors + result.timeouts + result.non2xx;
  return { scenario: name, requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors };
}

/**
 * A few unrecorded seconds of reads before a server's first measurement: the first scenario should
 * not pay for filling the database's page cache (and V8's warm-up) alone.
 */
async function warmUp(url: string, options: Partial<autocannon.Options>): Promise<void> {
  await autocannon({ url, connections, duration: Math.min(duration, 3), ...options } as autocannon.Options);
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

/** One keep-alive connection pool per server certificate, for the setup requests. */
const agents = new Map<string, Agent>();

async function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, ca: string): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let agent = agents.get(ca);
  if (!agent) agents.set(ca, (agent = new Agent({ connect: { ca } })));
  const response = await send(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body, dispatcher: agent });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function benchOne(dialect: 'sqlite' | 'postgres', blocks: number): Promise<{ rows: Row[]; memoryMb: number; loadSeconds: number; watch: WatchLatency }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-bench-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const name = `blockyard_bench_${process.pid}_${blocks}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const env: Record<string, string> = {
    BLOCKYARD_DATA_DIR: dataDir,
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    BLOCKYARD_ADMIN_CLIENT_ID: CLIENT_ID,
    BLOCKYARD_ADMIN_CLIENT_SECRET: CLIENT_SECRET,
    BLOCKYARD_MASTER_KEY: MASTER_KEY,
    BLOCKYARD_RATE_LIMIT_MAX: '10000000',
    BLOCKYARD_TOKEN_TTL_SECONDS: '7200',
    ...(databaseUrl ? { BLOCKYARD_DATABASE_URL: databaseUrl } : {}),
  };

  // 1. Load through the service's storage layer (migrations included).
  const loadStarted = Date.now();
  const database = await openDatabase(loadConfig(env), pino({ level: 'warn' }));
  const waiting = smoke ? 3_000 : 150_000;
  let data: DataSet;
  try {
    data = await loadData(database.db, blocks, waiting, log);
    // What autovacuum does on a live PostgreSQL database after a bulk load: planner statistics and a
    // visibility map (index-only counts). Without them a freshly loaded table is planned blind.
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
  } finally {
    await database.close();
  }
  const loadSeconds = Math.round((Date.now() - loadStarted) / 1000);
  log(`${dialect}: ${blocks} blocks loaded in ${loadSeconds} s`);

  // 2. The server, as `npm start` runs it.
  const profileArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/profiles')}`] : [];
  const server = spawn(process.execPath, [...profileArgs, path.join(ROOT, 'dist/main.js'), 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const rows: Row[] = [];
  let baseline: ChildProcess | undefined;
  try {
    const url = await waitForLine(server, /listening on (https:\/\/\S+)/);
    server.stdout!.resume();
    const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const token = (await request(`${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}` }, ca)).json.access_token as string;
    const auth = { authorization: `Bearer ${token}` };
    const V2 = 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json';
    const V1 = 'application/vnd.vendor.api.meshbuildingblock.v1.hal+json';
    const RUN = 'application/vnd.vendor.api.meshbuildingblockrun.v1.hal+json';

    // 3. The baseline answers a body of the size of a building block response.
    const sample = await request(`${url}/api/meshobjects/meshbuildingblocks/${data.sampleBlocks[0]}`, { headers: { ...auth, accept: V2 } }, ca);
    const bodyFile = path.join(dataDir, 'baseline-body.json');
    writeFileSync(bodyFile, JSON.stringify(sample.json));
    baseline = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/baseline-server.ts'), path.join(dataDir, 'tls/cert.pem'), path.join(dataDir, 'tls/key.pem'), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const baselineUrl = await waitForLine(baseline, /listening on (https:\/\/\S+)/);
    // The load generator sends the baseline exactly what it sends in the GET scenario (headers, a path
    // per request), so the ratio measures the server's work, not a difference in the client's.
    const blockPath = () => `/api/meshobjects/meshbuildingblocks/${pick(data.sampleBlocks)}`;
    const getBlock = { headers: { ...auth, accept: V2 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: blockPath() }) }] };
    await warmUp(baselineUrl, getBlock);
    const base = await measure('baseline (static JSON over HTTPS)', baselineUrl, getBlock);
    rows.push({ dialect, blocks, ...base, ratio: 1 });
    log(`  baseline: ${base.requestsPerSecond} req/s`);
    await stop(baseline);
    baseline = undefined;
    if (dialect === 'sqlite') {
      baseline = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/reference-server.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
      const referenceUrl = await waitForLine(baseline, /listening on (https:\/\/\S+)/);
      await warmUp(referenceUrl, getBlock);
      const reference = await measure('reference: bare Fastify + SQLite row by uuid', referenceUrl, getBlock);
      const referenceList = await measure('reference: bare Fastify + SQLite list of 50', referenceUrl, { headers: { ...auth, accept: V2 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/list?workspace=${pick(data.workspaces)}&status=SUCCEEDED` }) }] });
      for (const row of [reference, referenceList]) {
        rows.push({ dialect, blocks, ...row, ratio: Math.round((row.requestsPerSecond / base.requestsPerSecond) * 100) / 100 });
        log(`  ${row.scenario}: ${row.requestsPerSecond} req/s`);
      }
      await stop(baseline);
      baseline = undefined;
    }

    // Run tokens of claimed runs, for the status-update scenario.
    const claimUrl = `${url}/api/meshobjects/meshbuildingblockruns/create?forRunnerUuid=${data.runnerUuid}`;
    const runTokens: { uuid: string; token: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const claimed = await request(claimUrl, { method: 'POST', headers: { ...auth, accept: RUN } }, ca);
      runTokens.push({ uuid: claimed.json.metadata.uuid, token: claimed.json.spec.runToken });
    }

    const createBody = (n: number) =>
      JSON.stringify({
        apiVersion: 'v2-preview',
        kind: 'meshBuildingBlock',
        spec: {
          displayName: `bench ${n}`,
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: data.versionUuid },
          targetRef: { kind: 'meshTenant', uuid: data.tenantUuid },
          inputs: [{ key: 'name', value: `bench-${n}`, valueType: 'STRING' }],
          parentBuildingBlocks: [],
        },
      });
    let created = 0;
    const scenarios: [string, string, Partial<autocannon.Options>][] = [
      ['GET block v2-preview', url, getBlock],
      ['GET block v1', url, { headers: { ...auth, accept: V1 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: blockPath() }) }] }],
      ['list 50 (workspace + status)', url, { headers: { ...auth, accept: V2 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/api/meshobjects/meshbuildingblocks?workspaceIdentifier=${pick(data.workspaces)}&status=SUCCEEDED&size=50` }) }] }],
      ['list 50 (managedByDefinitionUuid)', url, { headers: { ...auth, accept: V2 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/api/meshobjects/meshbuildingblocks?managedByDefinitionUuid=${pick(data.definitionUuids)}&size=50` }) }] }],
      ['POST block v2-preview', `${url}/api/meshobjects/meshbuildingblocks`, { method: 'POST', headers: { ...auth, accept: V2, 'content-type': V2 }, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, body: createBody(created++) }) }] }],
      [
        'PATCH run status',
        url,
        {
          method: 'PATCH',
          headers: { accept: RUN, 'content-type': RUN },
          requests: [
            {
              setupRequest: (r: autocannon.Request) => {
                const run = pick(runTokens);
                const body = JSON.stringify({ status: 'IN_PROGRESS', steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: 'applying', outputs: { url: { value: `https://example.com/${created}`, type: 'STRING', isSensitive: false } } }] });
                return { ...r, path: `/api/meshobjects/meshbuildingblockruns/${run.uuid}/status/source/bench`, headers: { ...r.headers, authorization: `Bearer ${run.token}` }, body };
              },
            },
          ],
        },
      ],
      ['claim a run', claimUrl, { method: 'POST', headers: { ...auth, accept: RUN } }],
      ['login (/oauth/token)', `${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}` }],
    ];
    for (const [, target, options] of scenarios.slice(0, 3)) await warmUp(target, options);
    // One event stream open through every scenario: the writes' events are timed to their arrival.
    const watcher = await startWatcher(url, ca, auth.authorization);
    for (const [name, target, options] of scenarios) {
      if (args.only !== undefined && !new RegExp(args.only).test(name)) continue;
      const measured = await measure(name, target, options);
      rows.push({ dialect, blocks, ...measured, ratio: Math.round((measured.requestsPerSecond / base.requestsPerSecond) * 100) / 100, ...(TARGETS[name] !== undefined ? { target: TARGETS[name] } : {}) });
      log(`  ${name}: ${measured.requestsPerSecond} req/s`);
    }
    const watch = watcher.stop();
    log(`  watcher: ${watch.events} events, delivery latency p50 ${watch.p50} ms, p99 ${watch.p99} ms`);
    return { rows, memoryMb: residentMemoryMb(server.pid!), loadSeconds, watch };
  } finally {
    if (baseline) await stop(baseline);
    await stop(server);
    for (const agent of agents.values()) await agent.close();
    agents.clear();
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.();
  }
}

function table(rows: Row[]): string {
  const header = ['database', 'blocks', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ratio', 'target'];
  const lines = rows.map((r) => [r.dialect, String(r.blocks), r.scenario, String(r.requestsPerSecond), String(r.p50), String(r.p99), String(r.errors), r.ratio.toFixed(2), r.target === undefined ? '' : `≥ ${r.target.toFixed(2)}`]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}

async function main(): Promise<void> {
  log('building the server (npm run build)…');
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const rows: Row[] = [];
  const memory: Record<string, number> = {};
  const loads: Record<string, number> = {};
  const watch: Record<string, WatchLatency> = {};
  for (const dialect of dialects) {
    for (const blocks of sizes) {
      const result = await benchOne(dialect, blocks);
      rows.push(...result.rows);
      memory[`${dialect}/${blocks}`] = result.memoryMb;
      loads[`${dialect}/${blocks}`] = result.loadSeconds;
      watch[`${dialect}/${blocks}`] = result.watch;
    }
  }
  // Write throughput with the event log, against the same scenarios before it (see EVENT_LOG_WRITES).
  if (existsSync(BEFORE_EVENT_LOG)) {
    const before = (JSON.parse(readFileSync(BEFORE_EVENT_LOG, 'utf8')) as { rows: Row[] }).rows;
    const baseline = (list: Row[], r: Row) => list.find((x) => x.dialect === r.dialect && x.blocks === r.blocks && x.scenario.startsWith('baseline'))?.requestsPerSecond;
    for (const r of rows.filter((x) => EVENT_LOG_WRITES.includes(x.scenario))) {
      const then = before.find((x) => x.dialect === r.dialect && x.blocks === r.blocks && x.scenario === r.scenario);
      const [baseNow, baseThen] = [baseline(rows, r), then && baseline(before, then)];
      if (!then || !baseNow || !baseThen) continue;
      // Unrounded: the ratios in the table are rounded to two places, too coarse for a quotient of 0.03s.
      const quotient = Math.round((r.requestsPerSecond / baseNow / (then.requestsPerSecond / baseThen)) * 100) / 100;
      rows.push({ dialect: r.dialect, blocks: r.blocks, scenario: `${r.scenario} with the event log ÷ before it`, requestsPerSecond: r.requestsPerSecond, p50: r.p50, p99: r.p99, errors: 0, ratio: quotient, target: EVENT_LOG_TARGET });
    }
  }
  log(`\n${table(rows)}\n`);
  log(`resident memory after the run (MB): ${JSON.stringify(memory)}; load time (s): ${JSON.stringify(loads)}`);
  for (const [key, w] of Object.entries(watch)) log(`event stream watcher ${key}: ${w.events} events during the scenarios, delivery latency p50 ${w.p50} ms, p99 ${w.p99} ms, max ${w.max} ms`);

  const failures: string[] = rows.filter((r) => r.errors > 0).map((r) => `${r.dialect}/${r.blocks} ${r.scenario}: ${r.errors} errors or non-2xx responses`);
  for (const [key, w] of Object.entries(watch)) if (w.lost || w.events === 0) failures.push(`${key}: the event stream watcher ${w.lost ? 'was disconnected' : 'received no event'}`);
  if (!smoke) {
    for (const r of rows) if (r.dialect === 'sqlite' && r.target !== undefined && r.blocks === Math.max(...sizes) && r.ratio < r.target) failures.push(`sqlite/${r.blocks} ${r.scenario}: ratio ${r.ratio} below ${r.target}`);
    for (const r of rows) if (r.scenario.endsWith('÷ before it') && r.ratio < EVENT_LOG_TARGET) failures.push(`${r.dialect}/${r.blocks} ${r.scenario}: ${r.ratio} below ${EVENT_LOG_TARGET}`);
    if (sizes.length > 1) {
      const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
      for (const r of rows.filter((x) => x.blocks === large && x.target !== undefined)) {
        const before = rows.find((x) => x.dialect === r.dialect && x.blocks === small && x.scenario === r.scenario);
        if (before && r.p99 > 2 * Math.max(before.p99, 1)) failures.push(`${r.dialect} ${r.scenario}: p99 ${r.p99} ms at ${large} blocks is more than twice ${before.p99} ms at ${small}`);
      }
    }
    for (const [key, mb] of Object.entries(memory)) if (mb > 300) failures.push(`${key}: resident memory ${mb} MB above 300 MB`);
  }
  const result = { when: new Date().toISOString(), smoke, duration, connections, sizes, rows, memoryMb: memory, loadSeconds: loads, watcherLatencyMs: watch, failures };
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const stamp = result.when.replace(/[:.]/g, '-');
  writeFileSync(path.join(ROOT, `bench/results/${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  // latest.json holds the last full run (every default size): the figures the README quotes.
  if (!smoke && args.sizes === undefined) writeFileSync(path.join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (failures.length > 0) {
    log(`FAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else if (smoke) log(`smoke: every scenario ran and answered without errors (${rows.length} rows); ratios, p99 growth and memory are judged only in a full run`);
  else log('all scenarios within their targets: ratios, p99 growth from the smallest to the largest size, resident memory');
}

await main();
