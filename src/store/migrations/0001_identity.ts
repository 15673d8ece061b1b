import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(64)')
    .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['owned_by_workspace', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('api_keys_order').on('api_keys').columns(['created_on', 'uuid']).execute();

  await db.schema
    .createTable('api_users')
    .addColumn('username', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();

  // Token signing keys: every instance verifies with every published key; the newest one signs.
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
  await db.schema.dropTable('api_users').execute();
  await db.schema.dropTable('api_keys').execute();
}
