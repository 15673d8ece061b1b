import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * The event log. `seq` is the order in which events committed, so a reader that has seen
 * `seq = n` can never later find a committed event below n — which is what resuming a stream relies
 * on. PostgreSQL: every writing transaction takes its numbers from the one `event_sequence` row as its
 * last step, and the row lock orders them. SQLite (one writer: every transaction's turn is its commit
 * order): `seq` is an `integer primary key`, the rowid itself, numbered by SQLite in the insert (the
 * highest number + 1; pruning never deletes the newest event, so no number is used twice); the table
 * is stored in `seq` order and needs no separate key index.
 * The two indexes (time, workspace) end in `seq`, the list order. Every change writes here, so the
 * table has no more indexes than visibility and time windows need: title, event type and author are
 * filtered while reading (the write-throughput target: a page of each index per event written
 * was much of the event log's cost). Event uuids are time-ordered (v7) and carry the millisecond of
 * `created_at`: an event is found by uuid through the time index (`created_at = <the uuid's instant>
 * and uuid = ?`), so the uuids need no index of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('events')
    .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('workspace', 'varchar(255)')
    .addColumn('author_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('author_identifier', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('previous_content', 'text')
    .execute();
  await db.schema.createIndex('events_created_at').on('events').columns(['created_at', 'seq']).execute();
  await db.schema.createIndex('events_workspace').on('events').columns(['workspace', 'seq']).execute();
  await db.schema
    .createTable('event_sequence')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into event_sequence (id, last) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_sequence').execute();
  await db.schema.dropTable('events').execute();
}
