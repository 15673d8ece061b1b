import { sql, type Kysely } from 'kysely';

/** A run's stored message bytes (a run's log is bounded), kept with every step change. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('runs')
    .addColumn('log_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Runs stored before: their messages' lengths (characters; close enough for the bound, exact for ASCII).
  await sql`update runs set log_bytes = coalesce((select sum(coalesce(length(user_message), 0) + coalesce(length(system_message), 0)) from run_steps where run_steps.run_uuid = runs.uuid), 0)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('log_bytes').execute();
}
