// `npm run chaos [-- --cycles N] [--sqlite-only]`: the long variant of test/crash.test.ts (issue 9,
// item 1). The real server is killed with SIGKILL N times (default 200) under a steady mix of block
// creates, deletes, run claims and status reports, on SQLite and on PostgreSQL (when reachable);
// every acknowledged request is checked after each restart. Prints the counts; exits 1 on any loss,
// half-written object or unexpected answer.
import { parseArgs } from 'node:util';
import { describeChaosFailure, formatChaosTable, runChaos, type ChaosResult } from '../test/support/chaos.js';
import { POSTGRES_ADMIN_URL, postgresAvailable, type Dialect } from '../test/support/databases.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '200' },
    'sqlite-only': { type: 'boolean', default: false },
    'postgres-only': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '6' },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

const cycles = Number(values.cycles);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(cycles) || cycles < 1) {
  console.error(`--cycles: a positive integer, got "${values.cycles}"`);
  process.exit(2);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency: a positive integer, got "${values.concurrency}"`);
  process.exit(2);
}

const dialects: Dialect[] = [];
if (!values['postgres-only']) dialects.push('sqlite');
if (!values['sqlite-only']) {
  if (postgresAvailable) dialects.push('postgres');
  else console.warn(`PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: SQLite only`);
}

const results: ChaosResult[] = [];
let failed = false;
for (const dialect of dialects) {
  const result = await runChaos({
    dialect,
    cycles,
    concurrency,
    keep: values.keep,
    log: (line) => {
      if (!values.quiet) console.log(line);
    },
  });
  results.push(result);
  const bad = result.lost > 0 || result.halfWritten.length > 0 || result.unexpected.length > 0;
  failed ||= bad;
  if (bad) console.error(describeChaosFailure(result, 50));
}

console.log('');
console.log(formatChaosTable(results));
for (const result of results) {
  const ops = Object.entries(result.byOperation)
    .map(([kind, c]) => `${kind} ${c.acknowledged}/${c.sent}${c.lost ? ` (${c.lost} lost)` : ''}`)
    .join(', ');
  console.log(`${result.dialect}: acknowledged/sent by operation: ${ops}; ${result.blocksAtEnd} blocks and ${result.runsAtEnd} runs at the end; ${result.unacknowledgedClaims} runs claimed without the claim reaching the client; server log ${result.serverLog}`);
}
process.exit(failed ? 1 : 0);
