import type { Kysely } from 'kysely';

/** Request counts per credential and fixed window, shared by the instances on one PostgreSQL database. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key', 'varchar(300)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limit_windows_start').on('rate_limit_windows').columns(['window_start']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_windows').execute();
}
