import type { Kysely } from 'kysely';

/**
 * Failed authentications shared by the instances on one PostgreSQL database (store/shared-rate-counter.ts,
 * SharedFailureLog): a row per failure and the key it counts against (a client address, or the digest of
 * a presented identity), kept for one window. Unused on SQLite, whose one process counts in memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_failures')
    .addColumn('origin', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(300)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('recorded_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('auth_failures_pk', ['origin', 'seq'])
    .execute();
  await db.schema.createIndex('auth_failures_recorded').on('auth_failures').columns(['recorded_ms']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auth_failures').execute();
}
