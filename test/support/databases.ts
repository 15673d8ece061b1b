import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/** Admin connection used only to create and drop the test databases (and their templates). */
export const POSTGRES_ADMIN_URL = process.env.BLOCKYARD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUIRED = process.env.BLOCKYARD_TEST_REQUIRE_POSTGRES === '1';

const ALL_DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];
/**
 * The databases this run tests on: both, unless BLOCKYARD_TEST_DATABASES names some (comma-separated).
 * The quick lane (`npm run test:quick`) sets `sqlite`: every per-database loop then declares only the
 * SQLite suites, and PostgreSQL is neither probed nor needed.
 */
function selectedDialects(): readonly Dialect[] {
  const named = process.env.BLOCKYARD_TEST_DATABASES?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (!named || named.length === 0) return ALL_DIALECTS;
  const unknown = named.filter((name) => !ALL_DIALECTS.includes(name as Dialect));
  if (unknown.length > 0) throw new Error(`BLOCKYARD_TEST_DATABASES names ${unknown.join(', ')}; known: ${ALL_DIALECTS.join(', ')}`);
  return ALL_DIALECTS.filter((dialect) => named.includes(dialect));
}
/** Every suite or per-database loop iterates these (never its own list of dialects). */
export const DIALECTS: readonly Dialect[] = selectedDialects();

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
    if (REQUIRED)
      throw new Error(
        `BLOCKYARD_TEST_REQUIRE_POSTGRES=1 but PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: ${(error as Error).message}`,
      );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const postgresAvailable = DIALECTS.includes('postgres') && (await probe());

/**
 * Why suites on `dialect` do not run here, or false when they do: `{ skip: skipUnless('postgres') }`
 * for a PostgreSQL-only suite, `{ skip: skipUnless(dialect) }` inside a loop over DIALECTS.
 */
export function skipUnless(dialect: Dialect): string | false {
  if (!DIALECTS.includes(dialect)) return `${dialect} is not selected (BLOCKYARD_TEST_DATABASES=${process.env.BLOCKYARD_TEST_DATABASES})`;
  if (dialect === 'postgres' && !postgresAvailable) return 'PostgreSQL is not reachable';
  return false;
}

export async function withAdminConnection<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The address of database `name` on the test server, as its administrator. */
export function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh PostgreSQL database of its own, so parallel suites never see each other's data: empty, or
 * a copy of `template` (`migratedTemplate`, service-database.ts).
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `blockyard_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminConnection((c) => c.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: postgresUrl(name),
    drop: () => withAdminConnection((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
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
