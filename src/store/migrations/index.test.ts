import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql, type Kysely, type Migration } from 'kysely';
import pino from 'pino';
import { describeEachServiceDatabase } from '../../../test/support/service-database.js';
import { openDatabase } from '../database.js';

const silent = pino({ level: 'silent' });
const createTable = (name: string): Migration => ({
  up: async (db: Kysely<unknown>) => {
    await db.schema.createTable(name).addColumn('id', 'integer').execute();
  },
});

describeEachServiceDatabase("a start's migrations", (ctx) => {
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
    await assert.rejects(openDatabase(ctx.config, silent, { kindMigrations: failing }), /9001_probe_second/);

    const database = await openDatabase(ctx.config, silent);
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
    const fixed = await openDatabase(ctx.config, silent, {
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
