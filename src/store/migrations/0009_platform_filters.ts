import { sql, type Kysely } from 'kysely';

/**
 * The platform list's filters the OpenAPI documents: `displayName`, `restriction`,
 * `publicationState` as columns, `contributingWorkspace` (repeatable) as a table of its own; each
 * with an index that also serves the list order. Existing rows are filled from their documents.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('platforms')
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('platforms')
    .addColumn('restriction', 'varchar(32)', (c) => c.notNull().defaultTo('PRIVATE'))
    .execute();
  await db.schema
    .alterTable('platforms')
    .addColumn('publication_state', 'varchar(32)', (c) => c.notNull().defaultTo('UNPUBLISHED'))
    .execute();
  await db.schema
    .createTable('platform_contributors')
    .addColumn('platform_uuid', 'varchar(36)', (c) => c.notNull().references('platforms.uuid'))
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_contributors_pk', ['platform_uuid', 'workspace'])
    .execute();
  await db.schema
    .createIndex('platform_contributors_workspace')
    .on('platform_contributors')
    .columns(['workspace', 'platform_uuid'])
    .execute();
  await db.schema.createIndex('platforms_display_name').on('platforms').columns(['display_name', 'created_on']).execute();
  await db.schema.createIndex('platforms_restriction').on('platforms').columns(['restriction', 'created_on']).execute();
  await db.schema.createIndex('platforms_publication').on('platforms').columns(['publication_state', 'created_on']).execute();

  const rows = await sql<{ uuid: string; document: string }>`select uuid, document from platforms`.execute(db);
  for (const row of rows.rows) {
    const spec = (JSON.parse(row.document) as { spec?: Record<string, unknown> }).spec ?? {};
    const availability = (spec.availability ?? {}) as Record<string, unknown>;
    const text = (value: unknown, fallback: string) => (typeof value === 'string' && value !== '' ? value : fallback);
    const displayName = text(spec.displayName, '');
    const restriction = text(availability.restriction, 'PRIVATE');
    const publication = text(availability.publicationState ?? availability.marketplaceStatus, 'UNPUBLISHED');
    await sql`update platforms set display_name = ${displayName}, restriction = ${restriction}, publication_state = ${publication} where uuid = ${row.uuid}`.execute(
      db,
    );
    const contributors = Array.isArray(spec.contributingWorkspaces)
      ? [...new Set(spec.contributingWorkspaces.filter((w): w is string => typeof w === 'string'))]
      : [];
    for (const workspace of contributors)
      await sql`insert into platform_contributors (platform_uuid, workspace) values (${row.uuid}, ${workspace})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('platform_contributors').execute();
  for (const index of ['platforms_display_name', 'platforms_restriction', 'platforms_publication'])
    await db.schema.dropIndex(index).execute();
  for (const column of ['display_name', 'restriction', 'publication_state'])
    await db.schema.alterTable('platforms').dropColumn(column).execute();
}
