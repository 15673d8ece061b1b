import type { Kysely } from 'kysely';

/**
 * Sign-in sessions of people (single sign-on, auth/sessions.ts): a row per session, named by the SHA-256
 * of the random id the cookie carries (the id itself is never stored), with its meshUser, the workspace
 * it acts in, and its times (ISO 8601): it ends after an idle time since `last_seen_at`, and at
 * `expires_at` at the latest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(255)', (c) => c.notNull())
    .addColumn('workspace', 'varchar(255)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_username').on('sessions').columns(['username']).execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
