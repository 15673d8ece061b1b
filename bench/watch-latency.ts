import { openStream, type SseStream } from '../test/support/sse.js';

export interface WatchLatency {
  events: number;
  /** Delivery latency in ms: from the event's `createdAt` (set in its transaction) to its arrival here. */
  p50: number;
  p99: number;
  max: number;
  /** The stream ended before it was stopped. */
  lost: boolean;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

/**
 * One watcher of the event stream during the bench's scenarios (issue 18: a watcher's delivery latency
 * p99 is reported). Every event it receives is timed from its `createdAt` (the server's clock, the same
 * machine's) to its arrival: commit, wake-up, the feed's read, fan-out, TLS and this process's own
 * turn, under whatever load the scenario of the moment puts on the server.
 */
export async function startWatcher(url: string, ca: string, authorization: string): Promise<{ stop(): WatchLatency }> {
  const latencies: number[] = [];
  let stream: SseStream | undefined;
  stream = await openStream(url, ca, '/api/meshobjects/mesheventlogs', {
    authorization,
    keep: false,
    onEvent: (event) => {
      const createdAt = /"createdAt":"([^"]+)"/.exec(event.data)?.[1];
      if (createdAt !== undefined) latencies.push(Date.now() - Date.parse(createdAt));
    },
  });
  if (stream.status !== 200) throw new Error(`the watcher's stream answered ${stream.status}: ${stream.text}`);
  return {
    stop() {
      const lost = stream!.ended;
      stream!.close();
      stream = undefined;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { events: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0, lost };
    },
  };
}
