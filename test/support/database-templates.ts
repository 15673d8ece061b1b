import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { openServiceDatabase } from '../../src/services.js';
import { POSTGRES_ADMIN_URL, withAdminConnection } from './databases.js';
import { TEST_MASTER_KEY } from './keys.js';

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
  return (building ??= build(name));
}

let building: Promise<string> | undefined;

function build(name: string): Promise<string> {
  return withAdminConnection(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        await client.query(`create database ${name}`);
        const url = new URL(POSTGRES_ADMIN_URL);
        url.pathname = `/${name}`;
        const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-template-'));
        try {
          const config = loadConfig({
            BLOCKYARD_DATA_DIR: dataDir,
            BLOCKYARD_DATABASE_URL: url.toString(),
            BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY,
          });
          await (await openServiceDatabase(config, pino({ level: 'silent' }))).close();
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
