import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { createPostgresDatabase, DIALECTS, skipUnless, type Dialect } from './databases.js';
import { TEST_MASTER_KEY } from './keys.js';

/**
 * The service's database on `dialect`, migrated and opened as the server opens it, without a server:
 * for the store's own tests. Each has a data directory of its own and, on PostgreSQL, a database of
 * its own; `remove` closes it and deletes both.
 */
export async function openServiceDatabase(dialect: Dialect): Promise<{ database: Database; remove(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-store-'));
  const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
  const env = {
    BLOCKYARD_DATA_DIR: dataDir,
    ...(postgres ? { BLOCKYARD_DATABASE_URL: postgres.url, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY } : {}),
  };
  const database = await openDatabase(loadConfig(env), pino({ level: 'silent' }));
  return {
    database,
    async remove() {
      await database.close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Declares the same suite once per database of the run (`DIALECTS`), each on a service database of
 * its own (`openServiceDatabase`, no server), opened before its tests and removed after them: the
 * stores' counterpart of `describeEachDatabase` (server.ts).
 */
export function describeEachServiceDatabase(
  title: string,
  body: (ctx: { readonly database: Database; readonly dialect: Dialect }) => void,
): void {
  for (const dialect of DIALECTS)
    describe(`${title} [${dialect}]`, { skip: skipUnless(dialect) }, () => {
      let opened: Awaited<ReturnType<typeof openServiceDatabase>> | undefined;
      before(async () => {
        opened = await openServiceDatabase(dialect);
      });
      after(() => opened?.remove());
      body({
        get database() {
          return opened!.database;
        },
        dialect,
      });
    });
}
