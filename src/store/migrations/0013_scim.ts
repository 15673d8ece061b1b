import type { Kysely } from 'kysely';

/**
 * SCIM 2.0 provisioning: the SCIM bearer credentials (hashed; one existing means
 * SCIM is enabled), and what SCIM keeps of users and groups beyond the meshObjects' fields: a user's
 * `active` flag, the SCIM attributes meshUser has no field for (JSON), and when each user and group
 * was last modified (SCIM's `meta.lastModified`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('users').addColumn('scim_attributes', 'text').execute();
  await db.schema.alterTable('users').addColumn('updated_on', 'varchar(32)').execute();
  await db.schema.alterTable('user_groups').addColumn('updated_on', 'varchar(32)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_groups').dropColumn('updated_on').execute();
  for (const column of ['updated_on', 'scim_attributes', 'active']) await db.schema.alterTable('users').dropColumn(column).execute();
  await db.schema.dropTable('scim_tokens').execute();
}
