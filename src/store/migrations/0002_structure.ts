import { sql, type Kysely } from 'kysely';

/**
 * Platform structure: workspaces, projects, locations, platforms, tenants. Each row keeps the object
 * as sent (`document`, JSON) beside the columns the service filters and joins on; foreign keys make a
 * dangling reference impossible even under concurrent deletes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workspaces_order').on('workspaces').columns(['created_on', 'name']).execute();

  await db.schema
    .createTable('projects')
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('payment_method', 'varchar(255)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('projects_pk', ['workspace', 'name'])
    .execute();
  await db.schema.createIndex('projects_workspace_order').on('projects').columns(['workspace', 'created_on', 'name']).execute();
  await db.schema.createIndex('projects_order').on('projects').columns(['created_on', 'workspace', 'name']).execute();
  await db.schema.createIndex('projects_payment').on('projects').columns(['payment_method', 'created_on']).execute();

  await db.schema
    .createTable('locations')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.references('workspaces.name'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('locations_order').on('locations').columns(['created_on', 'name']).execute();
  await db.schema.createIndex('locations_display_name').on('locations').columns(['display_name', 'created_on']).execute();

  await db.schema
    .createTable('platforms')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('location', 'varchar(255)', (c) => c.notNull().references('locations.name'))
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('platform_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('platforms_identifier', ['name', 'location'])
    .execute();
  await db.schema.createIndex('platforms_order').on('platforms').columns(['created_on', 'uuid']).execute();
  await db.schema.createIndex('platforms_location').on('platforms').columns(['location', 'created_on']).execute();
  await db.schema.createIndex('platforms_workspace').on('platforms').columns(['owned_by_workspace', 'created_on']).execute();
  await db.schema.createIndex('platforms_type').on('platforms').columns(['platform_type', 'created_on']).execute();

  await db.schema
    .createTable('tenants')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('project', 'varchar(255)', (c) => c.notNull())
    .addColumn('platform_uuid', 'varchar(36)', (c) => c.notNull().references('platforms.uuid'))
    .addColumn('platform_tenant_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_on', 'varchar(32)')
    .addForeignKeyConstraint('tenants_project', ['workspace', 'project'], 'projects', ['workspace', 'name'])
    .execute();
  // One live tenant per project and platform; deleted ones stay as records until purged.
  await sql`create unique index tenants_live_identity on tenants (workspace, project, platform_uuid) where deleted_on is null`.execute(db);
  await db.schema.createIndex('tenants_order').on('tenants').columns(['created_on', 'uuid']).execute();
  await db.schema.createIndex('tenants_project').on('tenants').columns(['workspace', 'project', 'created_on']).execute();
  await db.schema.createIndex('tenants_platform').on('tenants').columns(['platform_uuid', 'created_on']).execute();

  // The workspace the bootstrap admin keys belong to (auth/bootstrap.ts ADMIN_WORKSPACE).
  const now = new Date().toISOString();
  const admin = { metadata: { name: 'admin', tags: {} }, spec: { displayName: 'Administration' } };
  await sql`insert into workspaces (name, document, created_on) values ('admin', ${JSON.stringify(admin)}, ${now})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tenants', 'platforms', 'locations', 'projects', 'workspaces']) await db.schema.dropTable(table).execute();
}
