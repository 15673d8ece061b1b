import type { Kysely } from 'kysely';

/**
 * The run timeout's index without the column every status report writes. `runs_active` held
 * `(status, updated_on)`, so each report changed an index entry: on SQLite its delete and insert, on
 * PostgreSQL a new entry in every index of `runs`, since an update that changes any indexed column
 * cannot be a heap-only (HOT) update. `runs_silent` holds `(status, created_on)`: a run silent since
 * a moment was created before it too, so the sweep (`RunStore.silentSince`) reads the runs going on
 * that are older than the timeout and checks each one's last report, and a report that keeps its
 * run's status writes no index entry at all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('runs_active').execute();
  await db.schema.createIndex('runs_silent').on('runs').columns(['status', 'created_on']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('runs_silent').execute();
  await db.schema.createIndex('runs_active').on('runs').columns(['status', 'updated_on']).execute();
}
