import type { Kysely } from 'kysely';

/**
 * Service instances: owned by a project (a composite foreign key: the project cannot go
 * while a row names it; its deleting instances are removed with it). A DELETE marks the instance
 * (`marked_for_deletion_on`) and sets the instant it is gone (`gone_on`); reads leave out rows past
 * that instant. Every list filter has an index that also serves the list order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_instances')
    .addColumn('instance_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('project', 'varchar(255)', (c) => c.notNull())
    .addColumn('marketplace', 'varchar(255)', (c) => c.notNull())
    .addColumn('service_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('plan_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('creator', 'varchar(255)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('marked_for_deletion_on', 'varchar(40)')
    .addColumn('gone_on', 'varchar(40)')
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .addForeignKeyConstraint('service_instances_project', ['workspace', 'project'], 'projects', ['workspace', 'name'])
    .execute();
  await db.schema.createIndex('service_instances_order').on('service_instances').columns(['created_on', 'instance_id']).execute();
  await db.schema
    .createIndex('service_instances_project')
    .on('service_instances')
    .columns(['workspace', 'project', 'created_on', 'instance_id'])
    .execute();
  await db.schema
    .createIndex('service_instances_marketplace')
    .on('service_instances')
    .columns(['marketplace', 'created_on', 'instance_id'])
    .execute();
  await db.schema
    .createIndex('service_instances_service')
    .on('service_instances')
    .columns(['service_id', 'plan_id', 'created_on', 'instance_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_instances').execute();
}
