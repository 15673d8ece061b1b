import { sql, type Kysely } from 'kysely';

/**
 * Revocation that takes effect and master-key rotation:
 * - `api_keys.revision`: bumped at every secret rotation; a key's tokens carry it, older ones are refused.
 * - `signing_keys.retired_on`: a retired key signs nothing and is trusted only until its tokens
 *   expired. Keys a newer one replaced before this migration were retired when that one was made.
 * - `keyring`: the service's own keys, encrypted under the master key (the secret-hash key, which
 *   must not change with the master key; it is stored at the first start, see crypto/keyring.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('signing_keys').addColumn('retired_on', 'varchar(32)').execute();
  const { rows } = await sql<{
    kid: string;
    created_on: string;
  }>`select kid, created_on from signing_keys order by created_on, kid`.execute(db);
  for (let i = 0; i < rows.length - 1; i++)
    await sql`update signing_keys set retired_on = ${rows[i + 1]!.created_on} where kid = ${rows[i]!.kid}`.execute(db);
  await db.schema
    .createTable('keyring')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('keyring').execute();
  await db.schema.alterTable('signing_keys').dropColumn('retired_on').execute();
  await db.schema.alterTable('api_keys').dropColumn('revision').execute();
}
