import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { openServiceDatabase } from '../../src/services.js';
import type { Database } from '../../src/store/database.js';
import { createPostgresDatabase, DIALECTS, skipUnless, type Dialect } from './databases.js';
import { migratedTemplate } from './database-templates.js';
import { TEST_MASTER_KEY } from './keys.js';

/**
 * Declares the same suite once per database of the run (`DIALECTS`), each on the service's database
 * opened as the server opens it (`openServiceDatabase`: migrated, no server) in a data directory of
 * its own and, on PostgreSQL, a database of its own, all removed after its tests: the stores'
 * counterpart of `describeEachDatabase` (server.ts).
 */
export function describeEachServiceDatabase(
  title: string,
  body: (ctx: { readonly database: Database; readonly dialect: Dialect }) => void,
): void {
  for (const dialect of DIALECTS)
    describe(`${title} [${dialect}]`, { skip: skipUnless(dialect) }, () => {
      let database: Database | undefined;
      let postgres: { drop(): Promise<void> } | undefined;
      let dataDir: string | undefined;
      before(async () => {
        dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-store-'));
        const created = dialect === 'postgres' ? await createPostgresDatabase(await migratedTemplate()) : undefined;
        postgres = created;
        const env = {
          BLOCKYARD_DATA_DIR: dataDir,
          ...(created ? { BLOCKYARD_DATABASE_URL: created.url, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY } : {}),
        };
        database = await openServiceDatabase(loadConfig(env), pino({ level: 'silent' }));
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
        dialect,
      });
    });
}
