import { sql, type Kysely } from 'kysely';

/**
 * Publication review: a released version of a non-admin workspace reaches other
 * workspaces' marketplace only once an admin approves it. Versions released before this migration
 * were in the marketplace already: they count as approved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('definition_versions').addColumn('review_state', 'varchar(16)').execute();
  await db.schema.alterTable('definition_versions').addColumn('review', 'text').execute();
  await db.schema
    .alterTable('definitions')
    .addColumn('latest_published_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update definition_versions set review_state = 'APPROVED' where state = 'RELEASED'`.execute(db);
  await sql`update definitions set latest_published_version = latest_released_version`.execute(db);
  await db.schema.createIndex('definitions_published').on('definitions').columns(['latest_published_version', 'created_on']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('definitions_published').execute();
  await db.schema.alterTable('definitions').dropColumn('latest_published_version').execute();
  await db.schema.alterTable('definition_versions').dropColumn('review').execute();
  await db.schema.alterTable('definition_versions').dropColumn('review_state').execute();
}
