import { sql, type Kysely } from 'kysely';

/**
 * The shared runners as this migration seeded them (kinds/runner/shared-runners.ts names the same
 * uuids; a migration keeps its own copy, so it reads the same whatever the code becomes).
 */
const SHARED_RUNNERS = [
  { uuid: '98520496-627d-43e6-82da-ce499179ff3f', implementationType: 'TERRAFORM', displayName: 'Shared Terraform runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a11', implementationType: 'GITHUB_WORKFLOW', displayName: 'Shared GitHub Actions runner' },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a12', implementationType: 'GITLAB_PIPELINE', displayName: 'Shared GitLab pipeline runner' },
  {
    uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a13',
    implementationType: 'AZURE_DEVOPS_PIPELINE',
    displayName: 'Shared Azure DevOps pipeline runner',
  },
  { uuid: 'a3c3c7f2-6b0e-4d8e-9a55-3f1e0b7c2a14', implementationType: 'MANUAL', displayName: 'Shared manual runner' },
];

/**
 * Building block definitions, their versions and the runners versions name. A definition keeps its
 * latest and latest released version numbers beside it (updated in the same transaction as the
 * versions), so the marketplace filter and the status need no per-row lookups.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('runners')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('implementation_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('restriction', 'varchar(16)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen', 'varchar(32)')
    .execute();
  await db.schema.createIndex('runners_workspace').on('runners').columns(['owned_by_workspace', 'created_on']).execute();
  await db.schema.createIndex('runners_order').on('runners').columns(['created_on', 'uuid']).execute();
  const now = new Date().toISOString();
  for (const runner of SHARED_RUNNERS) {
    const document = {
      metadata: {},
      spec: { displayName: runner.displayName, implementationType: runner.implementationType, restriction: 'PUBLIC' },
    };
    await sql`insert into runners (uuid, owned_by_workspace, implementation_type, restriction, document, created_on) values (${runner.uuid}, 'admin', ${runner.implementationType}, 'PUBLIC', ${JSON.stringify(document)}, ${now})`.execute(
      db,
    );
  }

  await db.schema
    .createTable('definitions')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    .addColumn('latest_released_version', 'integer', (c) => c.notNull())
    // Building blocks of the definition, kept with every block insert and delete (status.usageCount, list totals).
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('definitions_order').on('definitions').columns(['created_on', 'uuid']).execute();
  await db.schema.createIndex('definitions_workspace').on('definitions').columns(['owned_by_workspace', 'created_on']).execute();
  await db.schema.createIndex('definitions_released').on('definitions').columns(['latest_released_version', 'created_on']).execute();

  await db.schema
    .createTable('definition_versions')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('definition_uuid', 'varchar(36)', (c) => c.notNull().references('definitions.uuid'))
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('runner_uuid', 'varchar(36)', (c) => c.references('runners.uuid'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('definition_versions_number', ['definition_uuid', 'version_number'])
    .execute();
  // At most one draft per definition, even under concurrent POSTs.
  await sql`create unique index definition_versions_one_draft on definition_versions (definition_uuid) where state = 'DRAFT'`.execute(db);
  await db.schema.createIndex('definition_versions_order').on('definition_versions').columns(['created_on', 'uuid']).execute();
  await db.schema.createIndex('definition_versions_runner').on('definition_versions').columns(['runner_uuid']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['definition_versions', 'definitions', 'runners']) await db.schema.dropTable(table).execute();
}
