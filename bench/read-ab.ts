/**
 * The read scenarios measured in pairs against their bare reference: the API server (this
 * tree's build, the default log level) and `bench/reference-server.ts` run side by side on the same
 * SQLite file; autocannon alternates bursts between them, in alternating order, for `--rounds`
 * rounds. Reported per scenario: requests/s of each, their quotient, and each server's own CPU time
 * per request (from /proc), which a busy shared machine disturbs far less than throughput.
 *
 *   npm run build && node --import tsx bench/read-ab.ts [--blocks 10000] [--rounds 4] [--seconds 3] [--only <regex>] [--profile] [--hold] [--floor] [--two] [--before <commit>]
 *
 * `--before <commit>` adds the API of that commit (extracted beside this tree, sharing its
 * node_modules) on the same file, sent the same requests: a change to the read path measured against
 * the tree before it in one run. Both APIs then run from their sources through tsx, alike.
 *
 * `--floor` adds copies of the reference: one that reads what the reference reads and then
 * sends the API's own answer to such a request (its headers and body, byte for byte, fetched from the
 * API at the start: a block, a page of the workspace + status list), and one that also writes the
 * API's access line through the API's logger. They measure what the answer the API must give costs by
 * itself, with none of the work that makes it: the most any implementation of the API could reach.
 * A third copy writes that answer from the rows it read (`row-text.ts`: templates, stored JSON
 * spliced as text) with the access line: the least work that makes the answer, checked at the start
 * to write the API's bytes; still without authentication, permission or negotiation.
 *
 * `--spin <µs>` adds a copy of the reference that busy-works that many microseconds more per request
 * (`BENCH_REFERENCE_SPIN_US`): its CPU per request beyond the reference's and those microseconds is
 * what being slower costs by itself on this machine (its writes wake a client that waited).
 *
 * `--two` adds a second reference on the same file and measures both at once with half the
 * connections each, the way `bench/run.ts` measures two instances of the API: what a second instance
 * of the least server there is adds on this machine, where the load generator shares its two cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pino from 'pino';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/store/database.js';
import { benchServerEnv, loadData } from './load-data.js';
import { cpuMs, treeOf } from './processes.js';

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '3' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    hold: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
    before: { type: 'string' },
    two: { type: 'boolean', default: false },
    spin: { type: 'string' },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { dataDir, env, login: LOGIN_FORM } = benchServerEnv('read-ab');

type Server = { child: ChildProcess; url: string };
function started(args: string[], cwd = ROOT, moreEnv: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, ...moreEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
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
const beforeTree = args.before === undefined ? undefined : treeOf(ROOT, args.before);
const apiMain = (tree: string) =>
  beforeTree ? ['--import', 'tsx', path.join(tree, 'src/main.ts'), 'serve'] : [path.join(tree, 'dist/main.js'), 'serve'];
const api = await started([
  ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, 'bench/profiles')}`] : []),
  ...apiMain(ROOT),
]);
const before: Record<string, Server> = beforeTree ? { before: await started(apiMain(beforeTree), beforeTree) } : {};
/** A bare reference on the file (`reference-server.ts`): with an answer file, one of the floors' copies. */
const startedReference = (options: { answerFile?: string; env?: Record<string, string>; profile?: boolean } = {}) =>
  started(
    [
      ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir=/tmp/refprof'] : []),
      '--import',
      'tsx',
      path.join(ROOT, 'bench/reference-server.ts'),
      dataDir,
      ...(options.answerFile ? [options.answerFile] : []),
    ],
    ROOT,
    options.env,
  );
const reference = await startedReference({ profile: Boolean(process.env.PROFILE_REFERENCE) });
const ca = readFileSync(path.join(dataDir, 'tls/cert.pem'), 'utf8');
const agent = new Agent({ connect: { ca } });
const login = await request(`${api.url}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: LOGIN_FORM,
  dispatcher: agent,
});
const token = ((await login.body.json()) as { access_token: string }).access_token;
const floors: Record<string, Server> = {};
if (args.floor) {
  const answerTo = async (path: string) => {
    const answer = await request(`${api.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' },
      dispatcher: agent,
    });
    const body = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`${path}: ${answer.statusCode} ${body}`);
    // Node writes its own date, connection, keep-alive and length headers.
    return {
      headers: Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)),
      ),
      body,
    };
  };
  const block = await answerTo(`/api/meshobjects/meshbuildingblocks/${data.sampleBlocks[0]}`);
  const lists = {
    'workspace-status': await answerTo(
      `/api/meshobjects/meshbuildingblocks?workspaceIdentifier=${data.workspaces[0]}&status=SUCCEEDED&size=50`,
    ),
  };
  for (const [name, accessLog, textFrom] of [
    ['answer', false, undefined],
    ['answer + access line', true, undefined],
    ['text from the row + access line', true, api.url],
  ] as const) {
    const file = path.join(dataDir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ block, lists, accessLog, textFrom }));
    floors[name] = await startedReference({ answerFile: file });
  }
  // The copy that writes the answers from the rows must write the API's bytes, or it measures something else.
  const { url } = floors['text from the row + access line']!;
  for (const [path, expected] of [
    [`/api/meshobjects/meshbuildingblocks/${data.sampleBlocks[0]}`, block.body],
    [`/list/workspace-status?key=${data.workspaces[0]}&key2=SUCCEEDED`, lists['workspace-status'].body],
  ]) {
    const written = await (await request(`${url}${path}`, { dispatcher: agent })).body.text();
    if (written !== expected) throw new Error(`${path}: the text from the row differs from the API's answer:\n${written}\n${expected}`);
  }
}
await agent.close();

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const V2 = 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json';
const V1 = 'application/vnd.vendor.api.meshbuildingblock.v1.hal+json';
const headers = (accept: string) => ({ authorization: `Bearer ${token}`, accept });
const blockPath = () => `/api/meshobjects/meshbuildingblocks/${pick(data.sampleBlocks)}`;
/** name → [what the API is sent, what the reference is sent] */
const scenarios: Record<string, [Partial<autocannon.Options>, Partial<autocannon.Options>]> = {
  'GET block v2-preview': [
    { headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] },
    { headers: headers(V2), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] },
  ],
  'GET block v1': [
    { headers: headers(V1), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] },
    { headers: headers(V1), requests: [{ setupRequest: (r) => ({ ...r, path: blockPath() }) }] },
  ],
  'list 50 (workspace + status)': [
    {
      headers: headers(V2),
      requests: [
        {
          setupRequest: (r) => ({
            ...r,
            path: `/api/meshobjects/meshbuildingblocks?workspaceIdentifier=${pick(data.workspaces)}&status=SUCCEEDED&size=50`,
          }),
        },
      ],
    },
    {
      headers: headers(V2),
      requests: [{ setupRequest: (r) => ({ ...r, path: `/list/workspace-status?key=${pick(data.workspaces)}&key2=SUCCEEDED` }) }],
    },
  ],
};
const spun: Record<string, Server> =
  args.spin === undefined
    ? {}
    : { [`reference + ${args.spin} µs of work per request`]: await startedReference({ env: { BENCH_REFERENCE_SPIN_US: args.spin } }) };
/** `--two`: a second reference on the same file, sent half the connections while the first gets the other half. */
const secondReference = args.two ? await startedReference() : undefined;
const TWO = 'two references (5 + 5 connections)';
const servers: Record<string, Server> = {
  api,
  ...before,
  reference,
  ...floors,
  ...spun,
  ...(secondReference ? { [TWO]: reference } : {}),
};
type Name = string;
const totals: Record<string, { requests: number; ms: number; cpuMs: number }> = {};
const seconds = Number(args.seconds);

async function burst(scenario: string, name: Name): Promise<number> {
  const options = optionsFor(scenario, name);
  // The two-instance form of the bench (bench/run.ts): both load generators in this process at once.
  const targets = name === TWO ? [reference, secondReference!] : [servers[name]!];
  const cpu0 = targets.map(({ child }) => cpuMs(child.pid!));
  const results = await Promise.all(
    targets.map(({ url }) => autocannon({ url, connections: 10 / targets.length, duration: seconds, ...options } as autocannon.Options)),
  );
  const total = (totals[`${scenario}/${name}`] ??= { requests: 0, ms: 0, cpuMs: 0 });
  for (const [index, result] of results.entries()) {
    if (result.non2xx + result.errors > 0) throw new Error(`${scenario} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    total.requests += result.requests.total;
    total.cpuMs += cpuMs(targets[index]!.child.pid!) - cpu0[index]!;
  }
  total.ms += seconds * 1000;
  return results.reduce((sum, result) => sum + result.requests.average, 0);
}

/** What a server is sent: the APIs their requests, the reference and its copies the reference's. */
const optionsFor = (scenario: string, name: Name) => scenarios[scenario]![name === 'api' || name === 'before' ? 0 : 1];
/** The servers a scenario compares: the answer floors for the scenarios whose answers they send. */
const comparedIn = (scenario: string): Name[] =>
  Object.keys(servers).filter((name) => !(name in floors) || ['GET block v2-preview', 'list 50 (workspace + status)'].includes(scenario));

if (args.hold) {
  // For poking at the servers by hand (curl, strace): both stay up until this process is interrupted.
  process.stdout.write(
    `api ${api.url} (pid ${api.child.pid}), reference ${reference.url} (pid ${reference.child.pid}), block ${data.sampleBlocks[0]}\ntoken ${token}\n`,
  );
  await new Promise((resolve) => process.once('SIGINT', resolve));
}
try {
  const chosen = Object.keys(scenarios).filter((name) => args.only === undefined || new RegExp(args.only).test(name));
  for (const scenario of chosen)
    for (const name of comparedIn(scenario))
      await autocannon({ url: servers[name]!.url, connections: 10, duration: 2, ...optionsFor(scenario, name) } as autocannon.Options);
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const scenario of chosen) {
      const order = round % 2 === 0 ? comparedIn(scenario) : comparedIn(scenario).reverse();
      const line: string[] = [];
      for (const name of order) line.push(`${name} ${(await burst(scenario, name)).toFixed(0)}/s`);
      process.stdout.write(`round ${round + 1} ${scenario}: ${line.join(', ')}\n`);
    }
  }
  for (const scenario of chosen) {
    const r = totals[`${scenario}/reference`]!;
    const rate = (t: typeof r) => (t.requests * 1000) / t.ms;
    const cpu = (t: typeof r) => (t.cpuMs * 1000) / t.requests;
    const line = (name: string, a: typeof r, versus: string, b: typeof r) =>
      process.stdout.write(
        `${scenario}: ${name} ${rate(a).toFixed(0)}/s, ${versus} ${rate(b).toFixed(0)}/s: ${(rate(a) / rate(b)).toFixed(2)}; server CPU per request ${cpu(a).toFixed(0)} µs vs ${cpu(b).toFixed(0)} µs: ${(cpu(b) / cpu(a)).toFixed(2)}\n`,
      );
    for (const name of comparedIn(scenario).filter((name) => name !== 'reference'))
      line(name === 'api' ? 'API' : name === 'before' ? `API of ${args.before}` : name, totals[`${scenario}/${name}`]!, 'reference', r);
    if (beforeTree) line('API', totals[`${scenario}/api`]!, `API of ${args.before}`, totals[`${scenario}/before`]!);
  }
} finally {
  for (const server of [...Object.values(servers), ...(secondReference ? [secondReference] : [])]) server.child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  if (beforeTree) rmSync(beforeTree, { recursive: true, force: true });
}
