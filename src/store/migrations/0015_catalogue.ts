import { sql, type Kysely } from 'kysely';

/**
 * The platform catalogue (issue 20): payment methods (soft-deleted: `deleted_on`), tag definitions,
 * and the projects' substitute payment method as a column (the dependents check and the
 * `activePaymentMethod` link read it). Every list filter has an index that also serves the order.
 * Payment methods name their workspace without a foreign key: a soft-deleted method must not keep
 * its workspace from being deleted; live ones do (store/dependents.ts).
 */
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
  await db.schema.createIndex('payment_methods_workspace').on('payment_methods').columns(['owned_by_workspace', 'created_on', 'name']).execute();

  await db.schema.alterTable('projects').addColumn('substitute_payment_method', 'varchar(255)').execute();
  await db.schema.createIndex('projects_substitute_payment').on('projects').columns(['substitute_payment_method']).execute();
  const rows = await sql<{ workspace: string; name: string; document: string }>`select workspace, name, document from projects`.execute(db);
  for (const row of rows.rows) {
    const spec = (JSON.parse(row.document) as { spec?: { substitutePaymentMethodIdentifier?: unknown } }).spec ?? {};
    const substitute = spec.substitutePaymentMethodIdentifier;
    if (typeof substitute === 'string' && substitute !== '') await sql`update projects set substitute_payment_method = ${substitute} where workspace = ${row.workspace} and name = ${row.name}`.execute(db);
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tag_definitions').execute();
  await db.schema.dropIndex('projects_substitute_payment').execute();
  await db.schema.alterTable('projects').dropColumn('substitute_payment_method').execute();
  await db.schema.dropTable('payment_methods').execute();
}
