/**
 * The API's own per-request work, without sockets: the server (this tree's sources, the default log
 * level, its access line written to /dev/null) is sent requests through Fastify's `inject`, in
 * process, one after another, and so is a bare Fastify answering the same row from the same file
 * (what `reference-server.ts` does for GET block). Reported: microseconds per request of each and
 * their difference — what authentication, the rate count, negotiation, permission, the codec, the
 * serialiser, metrics and the access line cost together (`inject` itself costs both sides alike,
 * ~100 µs). With `--api-only`, only the API, for a profile of its path: with no socket writes in it,
 * the samples are all JavaScript (over TLS, native `writev` takes 40–50 % of them on this machine
 * and hides the rest).
 *
 *   node --import tsx [--cpu-prof --cpu-prof-dir=/tmp/prof] bench/inject-path.ts [--requests 20000] [--rounds 5] [--api-only]
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { openDatabase } from '../src/store/database.js';
import { benchServerEnv, loadData } from './load-data.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    blocks: { type: 'string', default: '10000' },
    'api-only': { type: 'boolean', default: false },
  },
});
const { dataDir, env, login: LOGIN_FORM } = benchServerEnv('inject-path');
const config = loadConfig(env);
const database = await openDatabase(config, pino({ level: 'warn' }));
const data = await loadData(database.db, Number(args.blocks), 0, () => undefined);
await database.close();

// The access line is written as the server writes it (asynchronously, buffered), to nowhere.
const server = await startServer(config, {
  logDestination: pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 }),
  print: () => undefined,
});
const login = await server.app.inject({
  method: 'POST',
  url: '/oauth/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: LOGIN_FORM,
});
const token = (login.json() as { access_token: string }).access_token;

const bare = Fastify();
const byUuid = new SQLite(path.join(dataDir, 'blockyard.db'), { readonly: true }).prepare('select * from building_blocks where uuid = ?');
bare.get('/api/meshobjects/meshbuildingblocks/:uuid', async (request, reply) => {
  const row = byUuid.get((request.params as { uuid: string }).uuid);
  if (!row) return reply.code(404).send();
  return row;
});
await bare.ready();

const V2 = 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json';
const headers = { authorization: `Bearer ${token}`, accept: V2 };
const paths = data.sampleBlocks.map((uuid) => `/api/meshobjects/meshbuildingblocks/${uuid}`);

/**
 * Microseconds per request of `count` injected GETs, one after another, each in a turn of the event
 * loop of its own as a request from a socket is: an `await` alone never lets the loop reach its
 * immediates, and light-my-request ends each response in one (4 000 requests held 50 MB of answers
 * until the loop turned, and the collector's work on them was a third of the samples).
 */
async function timed(app: FastifyInstance, count: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const answer = await app.inject({ method: 'GET', url: paths[i % paths.length]!, headers });
    if (answer.statusCode !== 200) throw new Error(`${answer.statusCode}: ${answer.body}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

const count = Number(args.requests);
await timed(server.app, count / 4);
const rows: string[] = [];
if (args['api-only']) {
  for (let round = 0; round < Number(args.rounds); round++)
    rows.push(`round ${round + 1}: API ${(await timed(server.app, count)).toFixed(1)} µs per GET block`);
} else {
  await timed(bare, count / 4);
  for (let round = 0; round < Number(args.rounds); round++) {
    // Alternating order: neither side always runs on the warmer machine.
    let api: number, reference: number;
    if (round % 2 === 0) {
      api = await timed(server.app, count);
      reference = await timed(bare, count);
    } else {
      reference = await timed(bare, count);
      api = await timed(server.app, count);
    }
    rows.push(
      `round ${round + 1}: API ${api.toFixed(1)} µs, bare ${reference.toFixed(1)} µs, the API's own ${(api - reference).toFixed(1)} µs per GET block`,
    );
  }
}
console.log(rows.join('\n'));
await bare.close();
await server.close();
rmSync(dataDir, { recursive: true, force: true });
