import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pino from 'pino';
import { migratorOf, migrateToLatest } from '../../src/store/migrations/index.js';
import type { Tables } from '../../src/store/schema.js';
import { createPostgresDatabase, DIALECTS, postgresPool, skipUnless } from './databases.js';

/** A database as an older release left it: migrated up to a named migration, with what `upgrade` applies after. */
export interface OlderDatabase {
  db: Kysely<Tables>;
  /** Applies every later migration, as a start of the new release does. */
  upgrade(): Promise<void>;
}

/**
 * A test of an upgrade on each database: `work` fills a fresh database migrated up to `before` as the
 * code of that time would have, upgrades it and checks what the later migrations made of it.
 */
export function describeUpgrade(title: string, before: string, name: string, work: (database: OlderDatabase) => Promise<void>): void {
  for (const dialect of DIALECTS) {
    describe(`${title} [${dialect}]`, { skip: skipUnless(dialect) }, () => {
      it(name, async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-upgrade-'));
        const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
        const db = new Kysely<Tables>({
          dialect: postgres
            ? new PostgresDialect({ pool: postgresPool(postgres.url, 2) })
            : new SqliteDialect({ database: new SQLite(path.join(dir, 'test.db')) }),
        });
        try {
          const { error } = await migratorOf(db).migrateTo(before);
          if (error) throw error;
          await work({ db, upgrade: () => migrateToLatest(db, pino({ level: 'silent' })) });
        } finally {
          await db.destroy();
          await postgres?.drop();
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
}
