/**
 * What one statement's round trip to PostgreSQL costs on this machine, apart from any work the
 * statement does: node-pg (the driver the service uses, prepared statements as the service prepares
 * them) sends `select $1::int` and waits for the answer, one at a time, over TCP and over the Unix
 * socket. Reported per round trip: wall time, this process's CPU time (user and system: the driver,
 * the event loop, the socket's system calls) and the backend's CPU time (from /proc). A request that
 * needs n statements in sequence pays at least n times this, whatever each statement does.
 *
 *   node --import tsx bench/pg-round-trip.ts [--count 20000] [--socket /var/run/postgresql]
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuMs } from './processes.js';

const { values: args } = parseArgs({
  options: { count: { type: 'string', default: '20000' }, socket: { type: 'string', default: '/var/run/postgresql' } },
});
const count = Number(args.count);
const tcp = process.env.BLOCKYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const socketUrl = new URL(tcp);
socketUrl.searchParams.set('host', args.socket);

async function measure(name: string, connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const roundTrip = (i: number) => client.query({ name: 'round-trip', text: 'select $1::int as x', values: [i] });
    for (let i = 0; i < 2000; i++) await roundTrip(i);
    const cpu = process.cpuUsage();
    const backendCpu = cpuMs(backend);
    const started = performance.now();
    for (let i = 0; i < count; i++) await roundTrip(i);
    const wall = ((performance.now() - started) * 1000) / count;
    const own = process.cpuUsage(cpu);
    const per = (micros: number) => (micros / count).toFixed(1);
    process.stdout.write(
      `${name}: ${wall.toFixed(1)} µs per round trip; this process's CPU ${per(own.user + own.system)} µs (user ${per(own.user)}, system ${per(own.system)}), the backend's ${per((cpuMs(backend) - backendCpu) * 1000)} µs\n`,
    );
  } finally {
    await client.end();
  }
}

await measure('TCP', tcp);
if (existsSync(`${args.socket}/.s.PGSQL.${socketUrl.port || 5432}`)) await measure('Unix socket', socketUrl.toString());
