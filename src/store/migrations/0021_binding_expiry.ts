import type { Kysely } from 'kysely';

/** A role binding's `expiryDate` (`YYYY-MM-DD`, as the Terraform provider sends it): none means it never expires. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('role_bindings').addColumn('expiry_date', 'varchar(10)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('role_bindings').dropColumn('expiry_date').execute();
}
