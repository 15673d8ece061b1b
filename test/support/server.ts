import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import type { ScryptCost } from '../../src/auth/passwords.js';
import type { KindManifest } from '../../src/kinds/manifest.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { ApiClient } from './client.js';
import { ServedOpenApi } from './served-openapi.js';
import { secretsAtRest } from './secrets.js';
import { createPostgresDatabase, type Dialect, DIALECTS, skipUnless } from './databases.js';
import { migratedTemplate } from './service-database.js';

/** Credentials of the API user every test server is bootstrapped with (admin-equivalent, Basic). */
export const TEST_ADMIN = { username: 'test-admin', password: 'test-admin-password-1' };
export const TEST_LOG_DIR = path.join(tmpdir(), 'blockyard-test-logs');
/**
 * For suites that send wrong credentials by the hundred on purpose (the access matrix, hostile
 * input) from one address, with the bootstrap user's name: the failed-attempt limits would close
 * that name and address for the window. The limits themselves are tested in abuse.test.ts.
 */
export const UNLIMITED_AUTH_FAILURES = { BLOCKYARD_AUTH_FAILURES_PER_ADDRESS: '1000000', BLOCKYARD_AUTH_FAILURES_PER_IDENTITY: '1000000' };
/**
 * The API users' scrypt cost in test servers: real scrypt, at a cost that makes a wrong password
 * (sent on every route by the access matrix, identity and hostile-input suites) take under a
 * millisecond instead of a third of a second. Suites about hashing itself (abuse.test.ts: the
 * failed-attempt limits answer without hashing, unknown users cost what known ones do) ask for the
 * production cost with `productionPasswordCost`.
 */
const TEST_PASSWORD_COST: ScryptCost = { N: 16, r: 8, p: 1 };
export const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

export interface TestServer {
  dialect: Dialect;
  url: string;
  /** A client sending the bootstrap API user's Basic credentials by default. */
  client: ApiClient;
  server: RunningServer;
  dataDir: string;
  logFile: string;
  env: Record<string, string>;
  /** Stops the server (keeping its data) and starts it again on the same database. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the real server in this process: TLS on a free port, a real database of its own (a fresh
 * SQLite directory or a fresh PostgreSQL database: under the test runner a copy of its migrated
 * template), logs in a file for later inspection.
 */
export interface TestServerOptions {
  env?: Record<string, string>;
  /** Share another server's database (and data directory, for TLS and keys): a second instance. */
  shared?: { databaseUrl: string; dataDir: string };
  /** Receives one-time messages such as generated credentials. */
  print?: (line: string) => void;
  /** Hash API user passwords as a deployment does (PASSWORD_COST) instead of TEST_PASSWORD_COST. */
  productionPasswordCost?: boolean;
  /** The kinds served instead of the registry's (the registry's and one of the test's own). */
  kinds?: readonly KindManifest[];
}

/** One checker per served document in this process: its validators compile once, whichever server serves it. */
const checkers = new Map<string, ServedOpenApi>();

export async function startTestServer(dialect: Dialect, options: TestServerOptions = {}): Promise<TestServer> {
  const { env: extraEnv = {}, shared, print, productionPasswordCost = false, kinds } = options;
  const dataDir = shared?.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'blockyard-test-')));
  const pgDatabase = dialect === 'postgres' && !shared ? await createPostgresDatabase(await migratedTemplate()) : undefined;
  const databaseUrl = shared?.databaseUrl ?? pgDatabase?.url;
  const env: Record<string, string> = {
    BLOCKYARD_PORT: '0',
    BLOCKYARD_HOST: '127.0.0.1',
    BLOCKYARD_DATA_DIR: dataDir,
    BLOCKYARD_LOG_LEVEL: 'info',
    BLOCKYARD_ADMIN_USERNAME: TEST_ADMIN.username,
    BLOCKYARD_ADMIN_PASSWORD: TEST_ADMIN.password,
    BLOCKYARD_MASTER_KEY: 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=',
    ...(databaseUrl ? { BLOCKYARD_DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  };
  // Logs outlive the server (and its data directory) so suites can inspect them afterwards.
  const logFile = path.join(TEST_LOG_DIR, `${dialect}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  const start = async () =>
    startServer(loadConfig(env), {
      logDestination: pino.destination({ dest: logFile, sync: true, mkdir: true }),
      print: print ?? (() => undefined),
      ...(productionPasswordCost ? {} : { passwordCost: TEST_PASSWORD_COST }),
      ...(kinds ? { kinds } : {}),
    });
  let server = await start();
  const ca = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
  const authorization = basic(TEST_ADMIN.username, TEST_ADMIN.password);
  const client = new ApiClient(server.url, ca, { authorization });
  // Every answer the client receives is checked against the document this server serves.
  const document = (await client.get('/api/openapi.json', { anonymous: true })).text;
  client.openapi = checkers.get(document) ?? new ServedOpenApi(JSON.parse(document));
  checkers.set(document, client.openapi);
  const test: TestServer = {
    dialect,
    url: server.url,
    client,
    server,
    dataDir,
    logFile,
    env,
    async restart() {
      await server.close();
      env.BLOCKYARD_PORT = new URL(test.url).port;
      server = await start();
      test.server = server;
    },
    async stop() {
      await test.client.close();
      // No secret the tests saw is in this server's log or database in plaintext.
      const leaked = await secretsAtRest(logFile, dataDir, server.database);
      await server.close();
      if (pgDatabase) await pgDatabase.drop();
      if (!shared) await rm(dataDir, { recursive: true, force: true });
      if (leaked.length > 0)
        throw new Error(`secrets in plaintext at rest (log ${logFile} or database): ${leaked.map((s) => `${s.slice(0, 4)}…`).join(', ')}`);
    },
  };
  return test;
}

/**
 * Declares the same suite once per database of the run (SQLite and PostgreSQL, or those
 * BLOCKYARD_TEST_DATABASES names), each with its own server. PostgreSQL suites are skipped only when
 * it is unreachable and BLOCKYARD_TEST_REQUIRE_POSTGRES is unset.
 */
export function describeEachDatabase(
  title: string,
  body: (ctx: { readonly server: TestServer; readonly client: ApiClient }) => void,
  env: Record<string, string> = {},
  options: Pick<TestServerOptions, 'productionPasswordCost' | 'kinds'> = {},
): void {
  for (const dialect of DIALECTS) {
    const skip = skipUnless(dialect);
    describe(`${title} [${dialect}]`, { skip }, () => {
      let server: TestServer | undefined;
      before(async () => {
        server = await startTestServer(dialect, { ...options, env });
      });
      after(async () => {
        await server?.stop();
      });
      body({
        get server() {
          return server!;
        },
        get client() {
          return server!.client;
        },
      });
    });
  }
}

/** Another instance of `first`'s PostgreSQL deployment: the same database and data directory. */
export function startInstanceOf(first: TestServer, options: Omit<TestServerOptions, 'shared'> = {}): Promise<TestServer> {
  return startTestServer('postgres', { ...options, shared: { databaseUrl: first.env.BLOCKYARD_DATABASE_URL!, dataDir: first.dataDir } });
}
