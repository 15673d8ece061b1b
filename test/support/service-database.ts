import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { openServiceDatabase } from '../../src/services.js';
import type { Database } from '../../src/store/database.js';
import { createPostgresDatabase, DIALECTS, postgresUrl, skipUnless, withAdminConnection, type Dialect } from './databases.js';
import { TEST_MASTER_KEY } from './keys.js';

/** The configuration of a service database: SQLite in `dataDir`, or PostgreSQL at `postgres`. */
const configOf = (dataDir: string, postgres?: string): Config =>
  loadConfig({
    BLOCKYARD_DATA_DIR: dataDir,
    ...(postgres ? { BLOCKYARD_DATABASE_URL: postgres, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY } : {}),
  });

const silent = pino({ level: 'silent' });

/**
 * Declares the same suite once per database of the run (`DIALECTS`), each on the service's database
 * opened as the server opens it (`openServiceDatabase`: migrated, no server) in a data directory of
 * its own and, on PostgreSQL, a database of its own, all removed after its tests: the stores'
 * counterpart of `describeEachDatabase` (server.ts). `config` opens the same database again.
 */
export function describeEachServiceDatabase(
  title: string,
  body: (ctx: { readonly database: Database; readonly config: Config; readonly dialect: Dialect }) => void,
): void {
  for (const dialect of DIALECTS)
    describe(`${title} [${dialect}]`, { skip: skipUnless(dialect) }, () => {
      let database: Database | undefined;
      let config: Config | undefined;
      let postgres: { drop(): Promise<void> } | undefined;
      let dataDir: string | undefined;
      before(async () => {
        dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-store-'));
        const created = dialect === 'postgres' ? await createPostgresDatabase(await migratedTemplate()) : undefined;
        postgres = created;
        config = configOf(dataDir, created?.url);
        database = await openServiceDatabase(config, silent);
      });
      after(async () => {
        await database?.close();
        await postgres?.drop();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      });
      body({
        get database() {
          return database!;
        },
        get config() {
          return config!;
        },
        dialect,
      });
    });
}

/**
 * The PostgreSQL database the test servers of this run copy (`CREATE DATABASE … TEMPLATE`), migrated
 * once, or undefined outside the test runner. Migrating an empty database was most of a PostgreSQL
 * test server's start (docs/testing.md, "Where the time goes", has the pairs). The servers still run
 * the migrator at start and find nothing to do, as on a deployment's every restart; the migrations
 * themselves are tested from empty and from older schemas (src/store/migrations).
 *
 * scripts/run-tests.mjs names the template of its run in BLOCKYARD_TEST_POSTGRES_TEMPLATE and drops
 * it at its end. The first process of the run that asks builds it, under an advisory lock the others
 * wait on; the migrations commit in one transaction, so a builder that dies leaves a template without
 * them, whose copies the servers migrate as they would an empty database.
 */
export function migratedTemplate(): Promise<string | undefined> {
  const name = process.env.BLOCKYARD_TEST_POSTGRES_TEMPLATE;
  if (!name) return Promise.resolve(undefined);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`BLOCKYARD_TEST_POSTGRES_TEMPLATE: a database name of [a-z0-9_], got "${name}"`);
  return (template ??= buildTemplate(name));
}

let template: Promise<string> | undefined;

function buildTemplate(name: string): Promise<string> {
  return withAdminConnection(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        await client.query(`create database ${name}`);
        const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-template-'));
        try {
          await (await openServiceDatabase(configOf(dataDir, postgresUrl(name)), silent)).close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
      return name;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}
