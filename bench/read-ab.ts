/**
 * The read scenarios measured in pairs against their bare reference (issue 24): the API server (this
 * tree's build, the default log level) and `bench/reference-server.ts` run side by side on the same
 * SQLite file; autocannon alternates bursts between them, in alternating order, for `--rounds`
 * rounds. Reported per scenario: requests/s of each, their quotient, and each server's own CPU time
 * per request (from /proc), which a busy shared machine disturbs far less than throughput.
 *
 *   npm run build && node --import tsx bench/read-ab.ts [--blocks 10000] [--rounds 4] [--seconds 3] [--only <regex>] [--profile] [--hold]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pino from 'pino';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/store/database.js';
import { loadData } from './load-data.js';

const { values: args } = parseArgs({
  options: { blocks: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '4' }, seconds: { type: 'string', default: '3' }, only: { type: 'string' }, profile: { type: 'boolean', default: false }, hold: { type: 'boolean', default: false } },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLIENT_ID = '00000000-0000-4000-8000-0000000be0c1';
const CLIENT_SECRET = randomBytes(24).toString('hex');
const dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-read-ab-'));
const env = {
  BLOCKYARD_DATA_DIR: dataDir,
  BLOCKYARD_PORT: '0',
  BLOCKYARD_HOST: '127.0.0.1',
  BLOCKYARD_ADMIN_CLIENT_ID: CLIENT_ID,
  BLOCKYARD_ADMIN_CLIENT_SECRET: CLIENT_SECRET,
  BLOCKYARD_MASTER_KEY: randomBytes(32).toString('base64'),
  BLOCKYARD_RATE_LIMIT_MAX: '10000000',
};

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function started(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (https:\/\/\S+)/.exec(seen);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // the access log goes on; nothing may fill the pipe
      resolve({ child, url: match[1]! });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before listening:\n${seen}`)));
  });
}

const database = await openDatabase(loadConfig(env), pino({ level: 'warn' }));
const data = await loadData(database.db, Number(args.blocks), 1000, () => undefined);
await database.close();
const api = await started([...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/profiles')}`] : []), path.join(ROOT, 'dist/main.js'), 'serve']);
const reference = await started([...(process.env.PROFILE_REFERENCE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/refprof'] : []), '--import', 'tsx', path.join(ROOT, 'bench/reference-server.ts'), dataDir]);
const ca = readFileSync(path.join(dataDir, 'tls/cert.pem'), 'utf8');
const agent = new Agent({ connect: { ca } });
const login = await request(`${api.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`, dispatcher: agent });
const token = ((await login.body.json()) as { access_token: string }).access_token;
await agent.close();

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const V2 = 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json';
const V1 = 'application/vnd.vendor.api.meshbuildingblock.v1.hal+json';
const headers = (accept: string) => ({ authorization: `Bearer ${token}`, accept });
const blockPath = () => `/api/meshobjects/meshbuildingblocks/${pick(data.sampleBlocks)}`;
/** name → [what the API is sent, what the reference is sent] */
const scenarios: Record<string, [Partial<autocannon.Options>, Partial<autocannon.Options>]> = {
  'GET block v2-preview': [{ headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] }, { headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] }],
  'GET block v1': [{ headers: headers(V1), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] }, { headers: headers(V1), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] }],
  'list 50 (workspace + status)': [
    { headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: `/api/meshobjects/meshbuildingblocks?workspaceIdentifier=${pick(data.workspaces)}&status=SUCCEEDED&size=50` }) }] },
    { headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: `/list/workspace-status?key=${pick(data.workspaces)}&key2=SUCCEEDED` }) }] },
  ],
};
const servers = { api, reference };
type Name = keyof typeof servers;
const totals: Record<string, { requests: number; ms: number; cpuMs: number }> = {};
const seconds = Number(args.seconds);

async function burst(scenario: string, name: Name): Promise<number> {
  const { child, url } = servers[name];
  const options = scenarios[scenario]![name === 'api' ? 0 : 1];
  const cpu0 = cpuMs(child.pid!);
  const result = await autocannon({ url, connections: 10, duration: seconds, ...options } as autocannon.Options);
  if (result.non2xx + result.errors > 0) throw new Error(`${scenario} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const total = (totals[`${scenario}/${name}`] ??= { requests: 0, ms: 0, cpuMs: 0 });
  total.requests += result.requests.total;
  total.ms += seconds * 1000;
  total.cpuMs += cpuMs(child.pid!) - cpu0;
  return result.requests.average;
}

if (args.hold) {
  // For poking at the servers by hand (curl, strace): both stay up until this process is interrupted.
  process.stdout.write(`api ${api.url} (pid ${api.child.pid}), reference ${reference.url} (pid ${reference.child.pid}), block ${data.sampleBlocks[0]}\ntoken ${token}\n`);
  await new Promise((resolve) => process.once('SIGINT', resolve));
}
try {
  const chosen = Object.keys(scenarios).filter((name) => args.only === undefined || new RegExp(args.only).test(name));
  for (const scenario of chosen) for (const name of ['api', 'reference'] as const) await autocannon({ url: servers[name].url, connections: 10, duration: 2, ...scenarios[scenario]![name === 'api' ? 0 : 1] } as autocannon.Options);
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const scenario of chosen) {
      const order: Name[] = round % 2 === 0 ? ['api', 'reference'] : ['reference', 'api'];
      const line: string[] = [];
      for (const name of order) line.push(`${name} ${(await burst(scenario, name)).toFixed(0)}/s`);
      process.stdout.write(`round ${round + 1} ${scenario}: ${line.join(', ')}\n`);
    }
  }
  for (const scenario of chosen) {
    const [a, r] = [totals[`${scenario}/api`]!, totals[`${scenario}/reference`]!];
    const rate = (t: typeof a) => (t.requests * 1000) / t.ms;
    const cpu = (t: typeof a) => (t.cpuMs * 1000) / t.requests;
    process.stdout.write(`${scenario}: API ${rate(a).toFixed(0)}/s, reference ${rate(r).toFixed(0)}/s: ${(rate(a) / rate(r)).toFixed(2)}; server CPU per request ${cpu(a).toFixed(0)} µs vs ${cpu(r).toFixed(0)} µs: ${(cpu(r) / cpu(a)).toFixed(2)}\n`);
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
