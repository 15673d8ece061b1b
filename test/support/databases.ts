import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/** Admin connection used only to create and drop the per-suite test databases. */
export const POSTGRES_ADMIN_URL = process.env.BLOCKYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUIRED = process.env.BLOCKYARD_TEST_REQUIRE_POSTGRES === '1';

/**
 * A server that is down refuses at once; the timeout only guards a host that never answers. It runs
 * while this process is still loading its modules (the timer fires late, or early relative to the
 * connection's progress, when that loading keeps the event loop busy on a loaded machine), so where
 * PostgreSQL is required a slow answer must not count as none.
 */
async function probe(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: REQUIRED ? 60_000 : 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (REQUIRED) throw new Error(`BLOCKYARD_TEST_REQUIRE_POSTGRES=1 but PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: ${(error as Error).message}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const postgresAvailable = await probe();

export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database of its own, so parallel suites never see each other's data. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `blockyard_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * A connection pool of a test's own on `url`. `pool.end()` resolves once its clients are *told* to end,
 * not once they have: the suite's `drop()` (`with (force)`) can then terminate a connection still
 * closing, and a pool without an error listener throws that error out of the process
 * ("terminating connection due to administrator command"). The server's own pool logs such errors.
 */
export function postgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
