import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely, type Migration } from 'kysely';
import pino from 'pino';
import { createPostgresDatabase, DIALECTS, skipUnless } from '../../../test/support/databases.js';
import { TEST_MASTER_KEY } from '../../../test/support/keys.js';
import { loadConfig, type Config } from '../../config.js';
import { openDatabase } from '../database.js';

const silent = pino({ level: 'silent' });
const createTable = (name: string): Migration => ({
  up: async (db: Kysely<unknown>) => {
    await db.schema.createTable(name).addColumn('id', 'integer').execute();
  },
});

for (const dialect of DIALECTS)
  describe(`a start's migrations [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    let config: Config;
    let dataDir: string;
    let postgres: { url: string; drop(): Promise<void> } | undefined;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-migrations-'));
      postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      const url = postgres?.url;
      config = loadConfig({
        BLOCKYARD_DATA_DIR: dataDir,
        ...(url ? { BLOCKYARD_DATABASE_URL: url, BLOCKYARD_MASTER_KEY: TEST_MASTER_KEY } : {}),
      });
      await (await openDatabase(config, silent)).close();
    });

    after(async () => {
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('apply all together or none: one failing leaves the schema and the migration history as they were', async () => {
      const failing: Record<string, Migration> = {
        '9000_probe_first': createTable('migration_probe_first'),
        '9001_probe_second': {
          up: async (db: Kysely<unknown>) => {
            await createTable('migration_probe_second').up(db);
            await sql`select * from migration_probe_missing`.execute(db);
          },
        },
      };
      await assert.rejects(openDatabase(config, silent, { kindMigrations: failing }), /9001_probe_second/);

      const database = await openDatabase(config, silent);
      try {
        const tables = (await database.db.introspection.getTables()).map((table) => table.name);
        assert.ok(tables.includes('building_blocks'), 'the schema is there');
        assert.deepEqual(
          tables.filter((name) => name.startsWith('migration_probe')),
          [],
          'nothing of the failed start stays: not even the migration before the failing one',
        );
        const history = await sql<{ name: string }>`select name from blockyard_migrations where name like '9%'`.execute(database.db);
        assert.deepEqual(history.rows, []);
      } finally {
        await database.close();
      }
      // With the failing one fixed, both apply.
      const fixed = await openDatabase(config, silent, {
        kindMigrations: { '9000_probe_first': failing['9000_probe_first']!, '9001_probe_second': createTable('migration_probe_second') },
      });
      try {
        const tables = (await fixed.db.introspection.getTables()).map((table) => table.name);
        assert.deepEqual(tables.filter((name) => name.startsWith('migration_probe')).sort(), [
          'migration_probe_first',
          'migration_probe_second',
        ]);
      } finally {
        await fixed.close();
      }
    });
  });
