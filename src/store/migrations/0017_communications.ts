import type { Kysely } from 'kysely';

/**
 * Communication definitions and communications. A definition keeps its counters as
 * columns, moved by `UPDATE … SET x = x ± 1` in the transaction that changes a communication, so
 * they are exact without counting per read. A communication names its workspace (the target's) and
 * copies its definition's type (the `communicationType` filter; the type cannot change while
 * communications exist). One communication per definition and target.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('communication_definitions')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('communication_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('communications_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('communications_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('communications_resolved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('communication_definitions_order').on('communication_definitions').columns(['created_on', 'uuid']).execute();
  await db.schema
    .createIndex('communication_definitions_type')
    .on('communication_definitions')
    .columns(['communication_type', 'created_on', 'uuid'])
    .execute();

  await db.schema
    .createTable('communications')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('definition_uuid', 'varchar(36)', (c) => c.notNull().references('communication_definitions.uuid'))
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('target_kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('communication_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('resolution_status', 'varchar(16)')
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .addUniqueConstraint('communications_target', ['definition_uuid', 'target_kind', 'target_name'])
    .execute();
  await db.schema.createIndex('communications_order').on('communications').columns(['created_on', 'uuid']).execute();
  await db.schema
    .createIndex('communications_definition')
    .on('communications')
    .columns(['definition_uuid', 'created_on', 'uuid'])
    .execute();
  await db.schema.createIndex('communications_workspace').on('communications').columns(['workspace', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('communications_status').on('communications').columns(['resolution_status', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('communications_type').on('communications').columns(['communication_type', 'created_on', 'uuid']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('communications').execute();
  await db.schema.dropTable('communication_definitions').execute();
}
