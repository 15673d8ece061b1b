import type { Kysely } from 'kysely';

/**
 * Building blocks, the parent links between them, and their runs with status sources and steps.
 * Every list filter of the block API has an index that also serves the list order (creation, uuid).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('building_blocks')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('project', 'varchar(255)')
    .addColumn('tenant_uuid', 'varchar(36)', (c) => c.references('tenants.uuid'))
    .addColumn('platform_identifier', 'varchar(511)')
    .addColumn('target_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('definition_uuid', 'varchar(36)', (c) => c.notNull().references('definitions.uuid'))
    .addColumn('definition_owner', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_uuid', 'varchar(36)', (c) => c.notNull().references('definition_versions.uuid'))
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    // The definition's uuid when its version applies once per tenant, else null (unique with the tenant).
    .addColumn('once_per_tenant', 'varchar(36)')
    .addColumn('force_purge', 'integer', (c) => c.notNull())
    .addColumn('marked_for_deletion_on', 'varchar(32)')
    .addColumn('marked_for_deletion_by', 'varchar(255)')
    .addColumn('latest_run_uuid', 'varchar(36)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)', (c) => c.notNull())
    .execute();
  const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('building_blocks').columns(columns).execute();
  await index('building_blocks_order', ['created_on', 'uuid']);
  await index('building_blocks_workspace', ['workspace', 'created_on', 'uuid']);
  await index('building_blocks_workspace_status', ['workspace', 'status', 'created_on', 'uuid']);
  await index('building_blocks_status', ['status', 'created_on', 'uuid']);
  await index('building_blocks_project', ['workspace', 'project', 'created_on', 'uuid']);
  await index('building_blocks_tenant', ['tenant_uuid', 'created_on', 'uuid']);
  await index('building_blocks_platform', ['platform_identifier', 'created_on', 'uuid']);
  await index('building_blocks_definition', ['definition_uuid', 'created_on', 'uuid']);
  await index('building_blocks_version', ['version_uuid', 'created_on', 'uuid']);
  await index('building_blocks_definition_owner', ['definition_owner', 'created_on', 'uuid']);
  await index('building_blocks_name', ['display_name', 'created_on', 'uuid']);
  await index('building_blocks_target_kind', ['target_kind', 'created_on', 'uuid']);
  await db.schema
    .createIndex('building_blocks_once_per_tenant')
    .on('building_blocks')
    .columns(['once_per_tenant', 'tenant_uuid'])
    .unique()
    .execute();

  await db.schema
    .createTable('building_block_parents')
    .addColumn('block_uuid', 'varchar(36)', (c) => c.notNull().references('building_blocks.uuid'))
    .addColumn('parent_uuid', 'varchar(36)', (c) => c.notNull().references('building_blocks.uuid'))
    .addPrimaryKeyConstraint('building_block_parents_pk', ['block_uuid', 'parent_uuid'])
    .execute();
  await db.schema.createIndex('building_block_parents_parent').on('building_block_parents').columns(['parent_uuid']).execute();

  await db.schema
    .createTable('runs')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('block_uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('run_number', 'integer', (c) => c.notNull())
    .addColumn('behavior', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('runner_uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('definition_uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('definition_owner', 'varchar(255)', (c) => c.notNull())
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('node_id', 'varchar(255)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_on', 'varchar(32)')
    .addColumn('ended_on', 'varchar(32)')
    .addColumn('updated_on', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('runs_block_number', ['block_uuid', 'run_number'])
    .execute();
  // The claim's "oldest waiting run of this runner" is the first entry of this index: no sort, however many wait.
  await db.schema.createIndex('runs_claim').on('runs').columns(['runner_uuid', 'status', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('runs_node').on('runs').columns(['node_id', 'created_on']).execute();
  await db.schema.createIndex('runs_definition_owner').on('runs').columns(['definition_owner', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('runs_active').on('runs').columns(['status', 'updated_on']).execute();

  await db.schema
    .createTable('run_sources')
    .addColumn('run_uuid', 'varchar(36)', (c) => c.notNull().references('runs.uuid'))
    .addColumn('source_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_sources_pk', ['run_uuid', 'source_id'])
    .execute();

  await db.schema
    .createTable('run_steps')
    .addColumn('run_uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('source_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('step_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_message', 'text')
    .addColumn('system_message', 'text')
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_steps_pk', ['run_uuid', 'source_id', 'step_id'])
    .addForeignKeyConstraint('run_steps_source', ['run_uuid', 'source_id'], 'run_sources', ['run_uuid', 'source_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['run_steps', 'run_sources', 'runs', 'building_block_parents', 'building_blocks'])
    await db.schema.dropTable(table).execute();
}
