import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * The event log's numbers on PostgreSQL from a sequence instead of the one `event_sequence` row
 *. Every writing transaction took that row as its last statement and held its lock through
 * the commit, so all writes that record events passed one at a time — whatever the number of
 * instances. A sequence hands out numbers without a lock, but not in commit order: a transaction can
 * commit number 8 while number 7 is still in flight. Readers therefore deliver only what is settled
 * (`eventlog/settled-log.ts`), and for that every transaction takes, before its first number, a shared
 * transaction-level advisory lock (`EVENT_APPENDERS_LOCK`, held to its end): a reader that meets a
 * gap below a committed number waits until the transactions that held that lock when it looked have
 * ended (`pg_locks`), then reads again — what is still missing then was rolled back (or pruned).
 * SQLite numbers events itself (the rowid, in commit order: one writer); its row was never used.
 */
export const EVENT_APPENDERS_LOCK = [1112297291, 1] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`create sequence event_numbers as bigint`.execute(db);
    await sql`select setval('event_numbers', last) from event_sequence where last > 0`.execute(db);
    await sql
      .raw(
        `create function next_event_number() returns bigint language plpgsql volatile as $$
        begin
          perform pg_advisory_xact_lock_shared(${EVENT_APPENDERS_LOCK.join(', ')});
          return nextval('event_numbers');
        end
        $$`,
      )
      .execute(db);
  }
  await db.schema.dropTable('event_sequence').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_sequence')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last', 'bigint', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`insert into event_sequence (id, last) values (1, 0)`.execute(db);
    return;
  }
  await sql`insert into event_sequence (id, last) select 1, coalesce((select last_value from event_numbers where is_called), 0)`.execute(
    db,
  );
  await sql`drop function next_event_number()`.execute(db);
  await sql`drop sequence event_numbers`.execute(db);
}
