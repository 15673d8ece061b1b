import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { EVENT_APPENDERS_LOCK } from './0018_event_numbers.js';

const KEY = EVENT_APPENDERS_LOCK.join(', ');

/**
 * PostgreSQL: `reserve_event_numbers(n)` takes n consecutive event numbers for the calling
 * transaction and answers the first, so that a unit of work's events (an import into a collection)
 * are one unbroken run in the log. It holds back the other appenders only while it takes them: the
 * appenders' lock exclusively, at session level (it waits for the transactions appending now to end
 * and keeps new ones from taking a number), then shared to the transaction's end (as every appender
 * holds it: `SettledLog` waits for the transaction before delivering past its numbers), the n numbers
 * in one step of the sequence, and the exclusive lock released. Before, the unit held the lock
 * exclusively until its commit, and every other write that records an event waited through the
 * unit's appends and commit. The lock is released on any error too: a session-level lock outlives
 * the transaction, and one left held would stop every other connection's appenders until its own
 * connection closed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql
    .raw(
      `create function reserve_event_numbers(n bigint) returns bigint language plpgsql volatile as $$
      declare
        last bigint;
      begin
        perform pg_advisory_lock(${KEY});
        begin
          perform pg_advisory_xact_lock_shared(${KEY});
          last := setval('event_numbers', nextval('event_numbers') + n - 1);
        exception when others or query_canceled then
          perform pg_advisory_unlock(${KEY});
          raise;
        end;
        perform pg_advisory_unlock(${KEY});
        return last - n + 1;
      end
      $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`drop function reserve_event_numbers(bigint)`.execute(db);
}
