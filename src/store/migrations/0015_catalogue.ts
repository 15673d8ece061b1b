import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * The platform catalogue: payment methods (soft-deleted: `deleted_on`), tag definitions,
 * and the projects' substitute payment method as a column (the dependents check and the
 * `activePaymentMethod` link read it). Every list filter has an index that also serves the order.
 * Payment methods name their workspace without a foreign key: a soft-deleted method must not keep
 * its workspace from being deleted; live ones do (store/dependents.ts).
 */
/** The built-in platform types: the platform configs' types the OpenAPI documents, and CUSTOM (platforms without a config). */
export const BUILT_IN_PLATFORM_TYPES: readonly { name: string; category: string; displayName: string }[] = [
  { name: 'AWS', category: 'AWS', displayName: 'Amazon Web Services' },
  { name: 'AZURE', category: 'AZURE', displayName: 'Microsoft Azure' },
  { name: 'AZURERG', category: 'AZURE_RESOURCE_GROUP', displayName: 'Azure Resource Group' },
  { name: 'AKS', category: 'AZURE_KUBERNETES_SERVICE', displayName: 'Azure Kubernetes Service' },
  { name: 'GCP', category: 'GCP', displayName: 'Google Cloud Platform' },
  { name: 'KUBERNETES', category: 'KUBERNETES', displayName: 'Kubernetes' },
  { name: 'OPENSHIFT', category: 'OPENSHIFT', displayName: 'OpenShift' },
  { name: 'CUSTOM', category: 'CUSTOM', displayName: 'Custom' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_methods')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('expiration_date', 'varchar(10)')
    .addColumn('deleted_on', 'varchar(40)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_methods_order').on('payment_methods').columns(['created_on', 'name']).execute();
  await db.schema
    .createIndex('payment_methods_workspace')
    .on('payment_methods')
    .columns(['owned_by_workspace', 'created_on', 'name'])
    .execute();

  await db.schema.alterTable('projects').addColumn('substitute_payment_method', 'varchar(255)').execute();
  await db.schema.createIndex('projects_substitute_payment').on('projects').columns(['substitute_payment_method']).execute();
  const rows = await sql<{ workspace: string; name: string; document: string }>`select workspace, name, document from projects`.execute(db);
  for (const row of rows.rows) {
    const spec = (JSON.parse(row.document) as { spec?: { substitutePaymentMethodIdentifier?: unknown } }).spec ?? {};
    const substitute = spec.substitutePaymentMethodIdentifier;
    if (typeof substitute === 'string' && substitute !== '')
      await sql`update projects set substitute_payment_method = ${substitute} where workspace = ${row.workspace} and name = ${row.name}`.execute(
        db,
      );
  }

  await db.schema
    .createTable('tag_definitions')
    .addColumn('name', 'varchar(600)', (c) => c.primaryKey())
    .addColumn('target_kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('tag_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_definitions_order').on('tag_definitions').columns(['created_on', 'name']).execute();
  await db.schema.createIndex('tag_definitions_target').on('tag_definitions').columns(['target_kind', 'tag_key']).execute();

  // Platform types: `type_key` is the upper-cased name, as platforms name their type (`AZURE`).
  await db.schema
    .createTable('platform_types')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('type_key', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('category', 'varchar(64)', (c) => c.notNull())
    .addColumn('lifecycle_state', 'varchar(32)', (c) => c.notNull())
    .addColumn('built_in', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('platform_types_order').on('platform_types').columns(['created_on', 'name']).execute();
  await db.schema.createIndex('platform_types_category').on('platform_types').columns(['category', 'created_on', 'name']).execute();
  await db.schema.createIndex('platform_types_state').on('platform_types').columns(['lifecycle_state', 'created_on', 'name']).execute();
  // Landing zones: on one platform (no foreign key: a disabled zone must not keep its platform from
  // being deleted; enabled ones do, store/dependents.ts), owned by the platform's workspace.
  await db.schema
    .createTable('landing_zones')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('platform_uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('restricted', 'integer', (c) => c.notNull())
    .addColumn('disabled_on', 'varchar(40)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('landing_zones_order').on('landing_zones').columns(['created_on', 'name']).execute();
  await db.schema.createIndex('landing_zones_platform').on('landing_zones').columns(['platform_uuid', 'created_on', 'name']).execute();
  await db.schema
    .createIndex('landing_zones_workspace')
    .on('landing_zones')
    .columns(['owned_by_workspace', 'created_on', 'name'])
    .execute();
  await db.schema.createIndex('landing_zones_display_name').on('landing_zones').columns(['display_name', 'created_on', 'name']).execute();
  await db.schema.createIndex('landing_zones_restricted').on('landing_zones').columns(['restricted', 'created_on', 'name']).execute();
  await db.schema.createIndex('landing_zones_disabled').on('landing_zones').columns(['disabled_on', 'created_on', 'name']).execute();

  // Integrations: the built-in replicator and metering ones (fixed uuids, owned by admin, read-only).
  await db.schema
    .createTable('integrations')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('owned_by_workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('integration_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('built_in', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrations_order').on('integrations').columns(['created_on', 'uuid']).execute();
  await db.schema.createIndex('integrations_workspace').on('integrations').columns(['owned_by_workspace', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('integrations_display_name').on('integrations').columns(['display_name', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('integrations_type').on('integrations').columns(['integration_type', 'created_on', 'uuid']).execute();
  await db.schema.createIndex('integrations_built_in').on('integrations').columns(['built_in', 'created_on', 'uuid']).execute();

  const seeded = '2025-01-01T00:00:00.000Z';
  for (const [type, uuid, displayName] of [
    ['replicator', 'c8f4e7d2-3b1a-4c9e-8d5f-6a2b7c8d9e0f', 'meshStack Replicator (Built-in)'],
    ['metering', 'a1b2c3d4-5e6f-7a8b-9c0d-1e2f3a4b5c6d', 'meshStack Metering (Built-in)'],
  ] as const) {
    const document = JSON.stringify({ metadata: { ownedByWorkspace: 'admin' }, spec: { displayName, config: { type } } });
    await sql`insert into integrations (uuid, owned_by_workspace, display_name, integration_type, built_in, document, created_on) values (${uuid}, 'admin', ${displayName}, ${type.toUpperCase()}, 1, ${document}, ${seeded})`.execute(
      db,
    );
  }
  for (const type of BUILT_IN_PLATFORM_TYPES) {
    const document = JSON.stringify({
      metadata: { name: type.name },
      spec: { displayName: type.displayName, category: type.category, icon: BUILT_IN_ICON },
    });
    await sql`insert into platform_types (name, type_key, uuid, category, lifecycle_state, built_in, document, created_on) values (${type.name}, ${type.name}, ${randomUUID()}, ${type.category}, 'ACTIVE', 1, ${document}, ${seeded})`.execute(
      db,
    );
  }
}

/** The icon the built-in types answer with (the OpenAPI requires one). */
const BUILT_IN_ICON = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('integrations').execute();
  await db.schema.dropTable('landing_zones').execute();
  await db.schema.dropTable('platform_types').execute();
  await db.schema.dropTable('tag_definitions').execute();
  await db.schema.dropIndex('projects_substitute_payment').execute();
  await db.schema.alterTable('projects').dropColumn('substitute_payment_method').execute();
  await db.schema.dropTable('payment_methods').execute();
}
