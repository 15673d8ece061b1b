import type { Kysely } from 'kysely';

/**
 * The Terraform state backend: one state per building block, sealed, with the lock Terraform's HTTP
 * backend takes. It goes with its block (purged, or deleted after its destroy run).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('terraform_states')
    .addColumn('block_uuid', 'varchar(36)', (c) => c.primaryKey().references('building_blocks.uuid').onDelete('cascade'))
    .addColumn('state', 'text')
    .addColumn('state_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lock_id', 'varchar(255)')
    .addColumn('lock_info', 'text')
    .addColumn('updated_on', 'varchar(40)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('terraform_states').execute();
}
