// Preloaded into a server by scripts/event-load.ts (NODE_OPTIONS=--import=<this file>, the server run
// with --expose-gc): reports the process's memory twice a second on stderr, one JSON line each, for
// the load script to sample. Every fourth sample follows a full collection, so the floor of the
// samples is what the process retains: without it the floor depended on when V8 last ran a full
// collection (old-space garbage counted as growth, up to 35 MB in a loaded CI run, with no leak).
let tick = 0;
const timer = setInterval(() => {
  if (tick++ % 4 === 0) globalThis.gc?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`blockyard-memory ${JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external, arrayBuffers })}\n`);
}, 500);
timer.unref();
