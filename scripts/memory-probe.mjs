// Preloaded into a server by scripts/event-load.ts (NODE_OPTIONS=--import=<this file>): reports the
// process's memory twice a second on stderr, one JSON line each, for the load script to sample.
const timer = setInterval(() => {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`blockyard-memory ${JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external, arrayBuffers })}\n`);
}, 500);
timer.unref();
