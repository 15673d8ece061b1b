// `npm run chaos [-- --cycles N] [--sqlite-only | --postgres-only] [--instances N] [--cold-start]`: the
// long variant of test/crash-*.test.ts and test/instances-kill.test.ts (item 2). The
// real server is killed with SIGKILL N times (default 200) under a steady mix of block creates,
// deletes, run claims and status reports, on SQLite and on PostgreSQL (when reachable); then, on
// PostgreSQL, `--instances` instances (default 3; 1 skips this run) share the database, each request
// goes to one at random, and one is killed per cycle while the load goes on on the survivors. What each
// cycle touched is checked after it, everything acknowledged at the end. Prints the counts; exits 1 on
// any loss, half-written object or unexpected answer. `--cold-start` restarts with a fresh
// `node --import tsx src/main.ts serve` instead of a process that loaded the code in advance (slower;
// the same start on the database).
import { parseArgs } from 'node:util';
import { describeChaosFailure, formatChaosTable, runChaos, type ChaosResult } from '../test/support/chaos.js';
import { POSTGRES_ADMIN_URL, postgresAvailable, type Dialect } from '../test/support/databases.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '200' },
    'sqlite-only': { type: 'boolean', default: false },
    'postgres-only': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '6' },
    instances: { type: 'string', default: '3' },
    'cold-start': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

const cycles = Number(values.cycles);
const concurrency = Number(values.concurrency);
const instances = Number(values.instances);
if (!Number.isInteger(cycles) || cycles < 1) {
  console.error(`--cycles: a positive integer, got "${values.cycles}"`);
  process.exit(2);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency: a positive integer, got "${values.concurrency}"`);
  process.exit(2);
}
if (!Number.isInteger(instances) || instances < 1 || instances > 8) {
  console.error(`--instances: an integer from 1 to 8, got "${values.instances}"`);
  process.exit(2);
}

const plan: { dialect: Dialect; instances: number }[] = [];
if (!values['postgres-only']) plan.push({ dialect: 'sqlite', instances: 1 });
if (!values['sqlite-only']) {
  if (postgresAvailable) {
    plan.push({ dialect: 'postgres', instances: 1 });
    if (instances > 1) plan.push({ dialect: 'postgres', instances });
  } else console.warn(`PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: SQLite only`);
}

const results: ChaosResult[] = [];
let failed = false;
for (const { dialect, instances } of plan) {
  const result = await runChaos({
    dialect,
    instances,
    cycles,
    concurrency,
    warmStart: !values['cold-start'],
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
  const label = `${result.dialect}${result.instances > 1 ? ` ×${result.instances}` : ''}`;
  const down = result.instances > 1 ? `; ${result.acknowledgedWhileDown} acknowledged by the survivors while an instance was dead` : '';
  console.log(
    `${label}: acknowledged/sent by operation: ${ops}; ${result.connectionErrors} requests failed to connect to a killed instance${down}; ${result.blocksAtEnd} blocks and ${result.runsAtEnd} runs at the end; ${result.unacknowledgedClaims} runs claimed without the claim reaching the client; server log ${result.serverLog}`,
  );
}
process.exit(failed ? 1 : 0);
