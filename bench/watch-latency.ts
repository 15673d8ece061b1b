import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { openStream, type SseStream } from '../test/support/sse.js';

export interface WatchLatency {
  watchers: number;
  /** Events received, over all watchers. */
  events: number;
  /** The fewest events one watcher received. */
  fewest: number;
  /** Delivery latency in ms over all watchers: from the event's `createdAt` (set in its transaction) to its arrival. */
  p50: number;
  p99: number;
  max: number;
  /** A stream ended before it was stopped. */
  lost: boolean;
  /** The watchers' process: CPU time (user + system) and bytes of events received while watching, and for how long. */
  cpuSeconds: number;
  bytes: number;
  seconds: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Watchers of the event stream (`Accept: text/event-stream`, no filter) in a child process of their
 * own, so that reading and timing every event of every stream neither competes with the load
 * generator's event loop nor is delayed by it. Every event is timed from its `createdAt` (the server's
 * clock, the same machine's) to its arrival: commit, wake-up, the feed's read, fan-out to every
 * stream, TLS and the watcher process's own turn.
 */
export async function startWatchers(
  url: string,
  caFile: string,
  authorization: string,
  count: number,
): Promise<{ stop(): Promise<WatchLatency> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, url, caFile, String(count)], {
    env: { ...process.env, BENCH_AUTHORIZATION: authorization },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the watchers' process exited (${code})`));
      child.once('exit', onExit);
      lines.once('line', (line) => {
        child.off('exit', onExit);
        resolve(line);
      });
    });
  const ready = await next();
  if (!ready.startsWith('watching')) throw new Error(`the watchers did not open: ${ready}`);
  return {
    async stop() {
      const answer = next();
      child.stdin!.end('stop\n');
      const line = await answer;
      return JSON.parse(line) as WatchLatency;
    },
  };
}

/** The child: `watch-latency.ts <url> <ca file> <count>`, the Authorization header in BENCH_AUTHORIZATION. */
async function watch(url: string, caFile: string, count: number): Promise<void> {
  const ca = readFileSync(caFile, 'utf8');
  const latencies: number[] = [];
  const received = new Array<number>(count).fill(0);
  const streams: SseStream[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const stream = await openStream(url, ca, '/api/meshobjects/mesheventlogs', {
      authorization: process.env.BENCH_AUTHORIZATION!,
      keep: false,
      onEvent: (event) => {
        bytes += event.data.length;
        const createdAt = /"createdAt":"([^"]+)"/.exec(event.data)?.[1];
        if (createdAt === undefined) return;
        latencies.push(Date.now() - Date.parse(createdAt));
        received[i]!++;
      },
    });
    if (stream.status !== 200) throw new Error(`watcher ${i}: the stream answered ${stream.status}: ${stream.text}`);
    streams.push(stream);
  }
  process.stdout.write(`watching ${count}\n`);
  const [cpu0, started] = [process.cpuUsage(), performance.now()];
  for await (const line of createInterface({ input: process.stdin })) if (line === 'stop') break;
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - started) / 1000;
  const lost = streams.some((stream) => stream.ended);
  for (const stream of streams) stream.close();
  const sorted = latencies.sort((a, b) => a - b);
  const result: WatchLatency = {
    watchers: count,
    events: sorted.length,
    fewest: Math.min(...received),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    lost,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100,
    bytes,
    seconds: Math.round(seconds * 100) / 100,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [url, caFile, count] = process.argv.slice(2) as [string, string, string];
  await watch(url, caFile, Number(count));
}
