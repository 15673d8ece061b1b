import { sql, type Kysely } from 'kysely';

/**
 * A definition's block count in stripes: `definition_usage` holds one row per definition
 * and stripe, the count is their sum. Every block create and delete moved `definitions.usage_count`,
 * so on PostgreSQL the creates of one definition (a popular one: all of them) queued on that row's
 * lock until each commit. Each PostgreSQL connection now adds to its own stripe (its backend pid
 * modulo the stripes): concurrent writers of one definition touch different rows. SQLite (one writer)
 * uses stripe 0. The stripes of a definition are few (one per connection that ever wrote it, at most
 * `USAGE_STRIPES`), summed by its primary key where a count is read.
 */
export const USAGE_STRIPES = 64;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('definition_usage')
    .addColumn('definition_uuid', 'varchar(36)', (c) => c.notNull().references('definitions.uuid'))
    .addColumn('stripe', 'integer', (c) => c.notNull())
    .addColumn('blocks', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('definition_usage_key', ['definition_uuid', 'stripe'])
    .execute();
  await sql`insert into definition_usage (definition_uuid, stripe, blocks) select uuid, 0, usage_count from definitions where usage_count <> 0`.execute(
    db,
  );
  await db.schema.alterTable('definitions').dropColumn('usage_count').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('definitions')
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update definitions set usage_count = coalesce((select sum(blocks) from definition_usage where definition_uuid = definitions.uuid), 0)`.execute(
    db,
  );
  await db.schema.dropTable('definition_usage').execute();
}
