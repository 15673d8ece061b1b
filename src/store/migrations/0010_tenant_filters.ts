import { sql, type Kysely } from 'kysely';

/**
 * The tenant list's filters the OpenAPI documents: `landingZoneIdentifier` as a column,
 * and indexes for it, `platformTenantId` and the states (`deleted_on`), each also serving the list
 * order (`platformTypeIdentifier` uses the platforms' type index). Existing rows get their landing
 * zone from their documents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('landing_zone', 'varchar(255)').execute();
  await db.schema.createIndex('tenants_landing_zone').on('tenants').columns(['landing_zone', 'created_on']).execute();
  await db.schema.createIndex('tenants_platform_tenant_id').on('tenants').columns(['platform_tenant_id', 'created_on']).execute();
  await db.schema.createIndex('tenants_deleted').on('tenants').columns(['deleted_on', 'created_on']).execute();

  const rows = await sql<{ uuid: string; document: string }>`select uuid, document from tenants`.execute(db);
  for (const row of rows.rows) {
    const spec =
      (JSON.parse(row.document) as { spec?: { landingZoneIdentifier?: unknown; landingZoneRef?: { name?: unknown } } }).spec ?? {};
    const landingZone = spec.landingZoneRef?.name ?? spec.landingZoneIdentifier;
    if (typeof landingZone === 'string' && landingZone !== '')
      await sql`update tenants set landing_zone = ${landingZone} where uuid = ${row.uuid}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['tenants_landing_zone', 'tenants_platform_tenant_id', 'tenants_deleted']) await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('tenants').dropColumn('landing_zone').execute();
}
