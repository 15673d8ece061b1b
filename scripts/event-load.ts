/**
 * Event stream load ("Done when": 1 000 events/s through 50 watchers keeps memory flat).
 *
 *   npm run event-load -- [--seconds 30] [--rate 1000] [--watchers 50] [--batch 50] [--via store|import] [--postgres]
 *
 * Starts a real server (child process, SQLite or a fresh PostgreSQL database) with a preloaded probe
 * reporting its memory twice a second (scripts/memory-probe.mjs), opens the watchers (event streams
 * over TLS, `title=Workspace Created`), and produces events paced to `rate` per second, `batch` per
 * transaction. `--via store` (the default) appends them from this process through the event log's own
 * recorder (the server's code: on PostgreSQL the NOTIFY wakes the server, on SQLite its poll, set to
 * 1 s here): this machine's server cannot make 1 000 objects a second through the API, and what is
 * measured is the stream's side. `--via import` writes workspaces through the declarative import
 * instead (the achieved rate then says what the API managed). At the end every watcher must have
 * received every event, and the server's RSS and heap after the warm-up must be flat: for RSS the
 * floor of the second half of the samples (the lowest: after a full collection, which the probe
 * forces before every fourth sample) against the first half's; for the heap, its floor once every
 * watcher has received everything against the first half's. `test/event-load.test.ts` runs a short
 * version (`runEventLoad` with a few seconds).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { SYSTEM } from '../src/auth/context.js';
import { loadConfig } from '../src/config.js';
import { EventRecorder } from '../src/kinds/eventlog/recorder.js';
import { openDatabase } from '../src/store/database.js';
import { blockyardArgs } from '../test/support/blockyard-command.js';
import { serverEnv } from '../test/support/chaos.js';
import { ApiClient } from '../test/support/client.js';
import { createPostgresDatabase, type Dialect } from '../test/support/databases.js';
import { basic } from '../test/support/server.js';
import { openStream, type SseStream } from '../test/support/sse.js';
import { IMPORT_JSON } from '../test/support/structure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USER = { username: 'load-admin', password: 'load-admin-password-1' };
const AUTH = basic(USER.username, USER.password);
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface EventLoadOptions {
  dialect: Dialect;
  seconds: number;
  /** Events per second written. */
  rate: number;
  watchers: number;
  /** Events per transaction (store) or workspaces per import request; more (up to 4×) when behind. */
  batch: number;
  via?: 'store' | 'import';
  log?: (line: string) => void;
}

export interface MemorySample {
  at: number;
  rss: number;
  heapUsed: number;
}

export interface EventLoadResult {
  options: Omit<EventLoadOptions, 'log'>;
  /** Events the server acknowledged (import results SUCCESS). */
  events: number;
  achievedRate: number;
  /** Fewest and most events a watcher received. */
  deliveredMin: number;
  deliveredMax: number;
  /** Watchers whose stream ended before the end. */
  watchersLost: number;
  /**
   * The floor (lowest sample: after a collection) of the first and the second half of the samples
   * after the warm-up, in MB; the heap saws between collections, a leak lifts the floor.
   */
  rss: MemoryFloors;
  /** As `rss`, but `second` is the floor once every watcher has received every event (what is retained). */
  heap: MemoryFloors;
  samples: MemorySample[];
}

interface MemoryFloors {
  first: number;
  second: number;
  growth: number;
  max: number;
}

/** `floors` with the second floor taken from the samples after delivery ended. */
function retained(floors: MemoryFloors, drained: MemorySample[]): MemoryFloors {
  if (drained.length === 0) return floors;
  const second = Math.round(Math.min(...drained.map((sample) => sample.heapUsed)) / MB);
  return { ...floors, second, growth: second - floors.first };
}

export async function runEventLoad(options: EventLoadOptions): Promise<EventLoadResult> {
  const { dialect, seconds, rate, watchers, batch, via = 'store', log = () => undefined } = options;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-event-load-'));
  const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  const env = {
    ...serverEnv(dataDir, database?.url),
    BLOCKYARD_ADMIN_USERNAME: USER.username,
    BLOCKYARD_ADMIN_PASSWORD: USER.password,
    BLOCKYARD_LOG_LEVEL: 'warn',
    BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL: String(watchers + 10),
    BLOCKYARD_EVENT_POLL_SECONDS: '1',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${path.join(ROOT, 'scripts', 'memory-probe.mjs')}`.trim(),
  };
  const child = spawn(process.execPath, blockyardArgs(['serve'], ['--expose-gc']), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const samples: MemorySample[] = [];
  let url: string | undefined;
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      if (line.startsWith('blockyard-memory ')) {
        const sample = JSON.parse(line.slice('blockyard-memory '.length)) as MemorySample;
        samples.push({ at: sample.at, rss: sample.rss, heapUsed: sample.heapUsed });
        return;
      }
      if (output.length < 20_000) output += `${line}\n`;
      url ??= /listening on (https:\/\/localhost:\d+)/.exec(line)?.[1];
    });
  }
  const streams: SseStream[] = [];
  try {
    for (let i = 0; i < 600 && url === undefined; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
      await sleep(100);
    }
    if (url === undefined) throw new Error(`the server did not start: ${output}`);
    const ca = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const client = new ApiClient(url, ca, { authorization: AUTH });
    for (let i = 0; i < watchers; i++) {
      const stream = await openStream(url, ca, '/api/meshobjects/mesheventlogs?title=Workspace%20Created', {
        authorization: AUTH,
        keep: false,
      });
      if (stream.status !== 200) throw new Error(`watcher ${i}: ${stream.status} ${stream.text}`);
      streams.push(stream);
    }
    log(
      `${dialect}: ${watchers} watchers open; writing ${rate} events/s for ${seconds} s, ${batch} per ${via === 'store' ? 'transaction' : 'import'}`,
    );
    const writer = via === 'store' ? await openDatabase(loadConfig(env), pino({ level: 'warn' })) : undefined;
    const recorder = writer ? new EventRecorder(writer.db, writer.dialect) : undefined;
    const started = Date.now();
    const sampleFrom = samples.length;
    let events = 0;
    let sent = 0;
    let inFlight = 0;
    let failures = 0;
    const interval = (batch / rate) * 1000;
    const pending: Promise<void>[] = [];
    let lastReport = started;
    for (let tick = 0; Date.now() - started < seconds * 1000; tick++) {
      const at = started + tick * interval;
      if (at > Date.now()) await sleep(at - Date.now());
      if (Date.now() - lastReport >= 5000) {
        lastReport = Date.now();
        const last = samples.at(-1);
        log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${events} events acknowledged, server rss ${last ? (last.rss / MB).toFixed(0) : '?'} MB, heap ${last ? (last.heapUsed / MB).toFixed(0) : '?'} MB`,
        );
      }
      if (inFlight >= 8) continue; // the writes are behind: the next request catches up (below)
      // What the rate asks for by now, in requests of at most 4 batches: a late tick does not lower the rate.
      const due = Math.min(Math.floor((rate * (Date.now() - started)) / 1000) - sent, 4 * batch);
      if (due <= 0) continue;
      inFlight++;
      const first = sent;
      sent += due;
      if (recorder) {
        pending.push(
          recorder
            .change(SYSTEM, async (_trx, drafts) => {
              for (let i = first; i < first + due; i++) {
                const name = `load-${i}`;
                drafts.push({
                  title: 'Workspace Created',
                  eventType: 'Created',
                  description: `meshWorkspace ${name} was created`,
                  workspace: name,
                  content: {
                    name,
                    document: { metadata: { name }, spec: { displayName: `Load ${i}` } },
                    createdOn: new Date().toISOString(),
                  },
                });
              }
            })
            .then(() => void (events += due))
            .catch(() => void failures++)
            .finally(() => void inFlight--),
        );
        continue;
      }
      const body = JSON.stringify(
        Array.from({ length: due }, (_, i) => ({
          apiVersion: 'v2',
          kind: 'meshWorkspace',
          metadata: { name: `load-${first + i}` },
          spec: { displayName: `Load ${first + i}` },
        })),
      );
      pending.push(
        client
          .put('/api/meshobjects', body, { headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON } })
          .then((response) => {
            if (response.status !== 200) failures++;
            else events += (response.json as { status: string }[]).filter((result) => result.status === 'SUCCESS').length;
          })
          .catch(() => void failures++)
          .finally(() => void inFlight--),
      );
    }
    await Promise.all(pending);
    await writer?.close();
    const elapsed = (Date.now() - started) / 1000;
    const sampleTo = samples.length;
    // Every watcher gets every event (within 60 s).
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && streams.some((stream) => stream.count < events && !stream.ended)) await sleep(100);
    const counts = streams.map((stream) => stream.count);
    // The heap once every watcher has everything: what is still held then is retained, not a backlog.
    // Under CPU contention the watchers fall behind and the streams' buffers fill (up to 1 MB each),
    // which lifts the floor of the run's second half by tens of MB with no leak; once delivered, a
    // leak (one small object per delivery: +30 MB) stays and a backlog is gone. Five samples, at least
    // one right after a full collection (memory-probe.mjs).
    const drainedFrom = samples.length;
    await sleep(2600);
    const drained = samples.slice(drainedFrom);
    if (failures > 0) log(`  ${failures} import requests failed`);
    const run = samples.slice(sampleFrom, sampleTo);
    const warm = run.slice(Math.floor(run.length / 5));
    const half = Math.floor(warm.length / 2);
    const stat = (pick: (sample: MemorySample) => number) => {
      const first = Math.min(...warm.slice(0, half).map(pick)) / MB;
      const second = Math.min(...warm.slice(half).map(pick)) / MB;
      return {
        first: Math.round(first),
        second: Math.round(second),
        growth: Math.round(second - first),
        max: Math.round(Math.max(0, ...run.map(pick)) / MB),
      };
    };
    return {
      options: { dialect, seconds, rate, watchers, batch, via },
      events,
      achievedRate: Math.round(events / elapsed),
      deliveredMin: Math.min(...counts),
      deliveredMax: Math.max(...counts),
      watchersLost: streams.filter((stream) => stream.ended).length,
      rss: stat((sample) => sample.rss),
      heap: retained(
        stat((sample) => sample.heapUsed),
        drained,
      ),
      samples: run,
    };
  } finally {
    for (const stream of streams) stream.close();
    child.kill('SIGKILL');
    await exited;
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatEventLoad(result: EventLoadResult): string {
  const { options: o } = result;
  return [
    `event stream load [${o.dialect}]: ${o.watchers} watchers, ${o.rate} events/s asked for ${o.seconds} s (${o.batch} per ${o.via === 'import' ? 'import' : 'transaction'})`,
    `  events: ${result.events} acknowledged, ${result.achievedRate}/s achieved; delivered to each watcher: ${result.deliveredMin}–${result.deliveredMax}; watchers lost: ${result.watchersLost}`,
    `  server RSS (MB, floor of the 1st / 2nd half after warm-up): ${result.rss.first} / ${result.rss.second} (growth ${result.rss.growth}, peak ${result.rss.max})`,
    `  server heap used (MB, floor of the 1st half / once delivered): ${result.heap.first} / ${result.heap.second} (growth ${result.heap.growth}, peak ${result.heap.max})`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      rate: { type: 'string' },
      watchers: { type: 'string' },
      batch: { type: 'string' },
      via: { type: 'string' },
      postgres: { type: 'boolean' },
    },
  });
  const result = await runEventLoad({
    dialect: values.postgres ? 'postgres' : 'sqlite',
    seconds: Number(values.seconds ?? 30),
    rate: Number(values.rate ?? 1000),
    watchers: Number(values.watchers ?? 50),
    batch: Number(values.batch ?? 50),
    via: values.via === 'import' ? 'import' : 'store',
    log: (line) => console.log(line),
  });
  console.log(formatEventLoad(result));
}
