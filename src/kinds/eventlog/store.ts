import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { dialectOf, type DialectName } from '../../store/database.js';
import { fetchPage } from '../../store/paged.js';
import { unanswered } from '../../store/pg-pipeline.js';
import type { EventTable, Tables } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { EVENT_APPENDERS_LOCK } from '../../store/migrations/0018_event_numbers.js';
import { filterConditions } from './filter.js';
import type { Author, AuthorType, EventDraft, EventFilter, EventRecord, EventType } from './model.js';

const toModel = (row: Selectable<EventTable>): EventRecord => ({
  seq: Number(row.seq),
  uuid: row.uuid,
  createdAt: row.created_at,
  title: row.title,
  eventType: row.event_type as EventType,
  description: row.description,
  ...(row.workspace !== null ? { workspace: row.workspace } : {}),
  author: { authorType: row.author_type as AuthorType, identifier: row.author_identifier },
  content: JSON.parse(row.content) as unknown,
  ...(row.previous_content !== null ? { previousContent: JSON.parse(row.previous_content) as unknown } : {}),
});

/**
 * A version 7 UUID (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered, so the
 * unique index on event uuids is appended to at its end (one page for a burst of events) rather than
 * written at a random page per event.
 */
export function uuidV7(now = Date.now()): string {
  // A v4 from Node's pooled entropy (a small randomBytes call per event costs more than the event's
  // SQL), its first 48 bits replaced by the time and its version digit by 7; the variant bits stay.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}

/** The `created_at` an event uuid (v7, lower case) was made with; undefined for anything else. */
export function instantOf(uuid: string): string | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid)) return undefined;
  const ms = Number.parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const COLUMNS = 'created_at, author_type, author_identifier, uuid, title, event_type, description, workspace, content, previous_content';
const appendSqlCache = new Map<string, string>();

/**
 * The INSERT of n events, each row (created_at, author_type, author_identifier, uuid, title,
 * event_type, description, workspace, content, previous_content), returning `seq, uuid`. SQLite
 * numbers the rows itself (the highest rowid + 1: its single writer makes that the commit order);
 * PostgreSQL takes them from `next_event_number()` (migration 0018: a sequence, after the appenders'
 * shared lock), or, `numbered`, from a first number reserved for them (`$1`, the rows' values after it).
 */
function appendSql(dialect: DialectName, n: number, numbered: boolean): string {
  const key = `${dialect}:${n}:${numbered}`;
  let text = appendSqlCache.get(key);
  if (text === undefined) {
    const first = numbered ? 2 : 1;
    const rows = Array.from({ length: n }, (_, i) => {
      const values = Array.from({ length: 10 }, (_, k) => (dialect === 'sqlite' ? '?' : `$${i * 10 + k + first}::text`));
      return `(${numbered ? `${i}, ` : ''}${values.join(', ')})`;
    }).join(', ');
    text =
      dialect === 'sqlite'
        ? `insert into events (${COLUMNS}) values ${rows} returning seq, uuid`
        : numbered
          ? `insert into events (seq, ${COLUMNS}) select $1::bigint + v.n, ${COLUMNS.replace(/(\w+)/g, 'v.$1')} from (values ${rows}) as v (n, ${COLUMNS}) returning seq, uuid`
          : `insert into events (seq, ${COLUMNS}) select next_event_number(), v.* from (values ${rows}) as v (${COLUMNS}) returning seq, uuid`;
    if (appendSqlCache.size < 100) appendSqlCache.set(key, text);
  }
  return text;
}

/** The PostgreSQL transactions holding the appenders' lock now (their virtual transaction ids). */
const APPENDERS_SQL = `select virtualtransaction from pg_locks where locktype = 'advisory' and granted and classid = ${EVENT_APPENDERS_LOCK[0]} and objid = ${EVENT_APPENDERS_LOCK[1]} and objsubid = 2
  and database = (select oid from pg_database where datname = current_database())`;

/** The `events` table. */
export class EventStore {
  /** Whether numbers are handed out in commit order (SQLite's single writer), so the log never has a gap that may still fill. */
  readonly numberedInCommitOrder: boolean;
  private readonly dialect: DialectName;

  constructor(private readonly db: Db) {
    this.dialect = dialectOf(db);
    this.numberedInCommitOrder = this.dialect === 'sqlite';
  }

  /**
   * Appends the drafts in the caller's transaction and answers them with their numbers. Every change
   * goes through here or `appendUnanswered`, so the SQL is written once per row count, not built by
   * Kysely per call. `firstSeq`: the first of numbers this transaction reserved for them
   * (`reserveRun`), the drafts numbered from it in order.
   */
  async append(
    drafts: readonly EventDraft[],
    author: Author,
    createdAt = new Date().toISOString(),
    firstSeq?: number,
  ): Promise<EventRecord[]> {
    if (drafts.length === 0) return [];
    const { records, query } = this.insertOf(drafts, author, createdAt, firstSeq);
    const { rows } = await this.db.executeQuery<{ seq: number | string; uuid: string }>(query);
    const seqOf = new Map(rows.map((row) => [row.uuid, Number(row.seq)]));
    for (const record of records) record.seq = seqOf.get(record.uuid)!;
    return records;
  }

  /**
   * Appends like `append` without reading the numbers back: on PostgreSQL the insert travels with the
   * transaction's next statement, its commit usually, in one round trip (store/pg-pipeline.ts).
   */
  async appendUnanswered(drafts: readonly EventDraft[], author: Author, firstSeq?: number): Promise<void> {
    if (drafts.length === 0) return;
    await this.db.executeQuery(unanswered(this.insertOf(drafts, author, new Date().toISOString(), firstSeq).query));
  }

  private insertOf(
    drafts: readonly EventDraft[],
    author: Author,
    createdAt: string,
    firstSeq: number | undefined,
  ): { records: EventRecord[]; query: CompiledQuery } {
    const now = Date.parse(createdAt);
    // Records of one shape and one flat array of values, without spreads or an array per row: a unit
    // of work (an import) appends a thousand events while it holds its transaction.
    const records: EventRecord[] = [];
    const values: (string | null)[] = [];
    for (const draft of drafts) {
      const { title, eventType, description, workspace, content, previousContent } = draft;
      const record: EventRecord = { title, eventType, description, content, seq: 0, uuid: uuidV7(now), createdAt, author };
      if (workspace !== undefined) record.workspace = workspace;
      if (previousContent !== undefined) record.previousContent = previousContent;
      records.push(record);
      values.push(
        createdAt,
        author.authorType,
        author.identifier,
        record.uuid,
        title,
        eventType,
        description,
        workspace ?? null,
        JSON.stringify(content ?? {}),
        previousContent === undefined ? null : JSON.stringify(previousContent),
      );
    }
    const numbered = firstSeq !== undefined && this.dialect === 'postgres';
    const query = CompiledQuery.raw(appendSql(this.dialect, records.length, numbered), numbered ? [firstSeq, ...values] : values);
    return { records, query };
  }

  async find(uuid: string): Promise<EventRecord | undefined> {
    const createdAt = instantOf(uuid);
    if (createdAt === undefined) return undefined;
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('created_at', '=', createdAt)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /**
   * One page of the events an `EventFilter` admits, newest first (by position): the filter's SQL
   * reading (`filter.ts`), whose in-memory reading is the stream's.
   */
  async list(filter: EventFilter, page: PageRequest): Promise<Page<EventRecord>> {
    const conditions = filterConditions(filter);
    if (conditions === 'none') return { items: [], total: 0 };
    let query = this.db.selectFrom('events');
    for (const condition of conditions) query = query.where(condition);
    const { rows, total } = await fetchPage<Tables, 'events', Selectable<EventTable>>(
      query,
      (q) => q.selectAll().orderBy('seq', 'desc'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  /** The position of an event (a stream resumes after it). */
  async seqOf(uuid: string): Promise<number | undefined> {
    const createdAt = instantOf(uuid);
    if (createdAt === undefined) return undefined;
    const row = await this.db
      .selectFrom('events')
      .select('seq')
      .where('created_at', '=', createdAt)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    return row ? Number(row.seq) : undefined;
  }

  /** The highest committed position (what is settled below it: `SettledLog.head`). */
  async lastSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('events')
      .select(sql<number | string | null>`max(seq)`.as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Committed events after `seq`, in position order, at most `limit` (a stream reads them through `SettledLog`). */
  async after(seq: number, limit: number): Promise<EventRecord[]> {
    const rows = await this.db.selectFrom('events').selectAll().where('seq', '>', seq).orderBy('seq').limit(limit).execute();
    return rows.map(toModel);
  }

  /**
   * Reserves `count` consecutive numbers for this transaction's events and answers the first, for
   * `append`'s `firstSeq`: a unit of work whose events must be one unbroken run in the log
   * (PostgreSQL, `reserve_event_numbers`, migration 0027: other appenders wait only while the numbers
   * are taken, not until this transaction ends). SQLite answers undefined: its single writer numbers
   * one transaction's events consecutively anyway.
   */
  async reserveRun(count: number): Promise<number | undefined> {
    if (this.dialect !== 'postgres' || count === 0) return undefined;
    const { rows } = await this.db.executeQuery<{ first: number | string }>(
      CompiledQuery.raw('select reserve_event_numbers($1) as first', [count]),
    );
    return Number(rows[0]!.first);
  }

  /** PostgreSQL: the transactions that may hold event numbers not yet committed (virtual transaction ids). */
  async appenders(): Promise<string[]> {
    const { rows } = await this.db.executeQuery<{ virtualtransaction: string }>(CompiledQuery.raw(APPENDERS_SQL));
    return rows.map((row) => row.virtualtransaction);
  }

  /** PostgreSQL: whether any of these transactions (from `appenders`) is still in flight. */
  async anyAppending(transactions: readonly string[]): Promise<boolean> {
    const { rows } = await this.db.executeQuery(
      CompiledQuery.raw(`${APPENDERS_SQL} and virtualtransaction = any($1::text[]) limit 1`, [transactions]),
    );
    return rows.length > 0;
  }

  /**
   * Deletes at most `limit` of the oldest events created before `before`; answers how many went. The
   * newest event always stays: on SQLite the next number is the highest one + 1, which must never go
   * back (a stream resumes by number).
   */
  async prune(before: string, limit: number): Promise<number> {
    const newest = this.db.selectFrom('events').select(sql<number>`max(seq)`.as('newest'));
    const doomed = this.db
      .selectFrom('events')
      .select('seq')
      .where('created_at', '<', before)
      .where('seq', '<', newest)
      .orderBy('seq')
      .limit(limit);
    const result = await this.db.deleteFrom('events').where('seq', 'in', doomed).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
