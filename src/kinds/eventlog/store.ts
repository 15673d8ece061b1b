import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { EventTable, Tables } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
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

/** A case-insensitive "contains" pattern for LIKE (`\\` escapes the wildcards the text holds). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The `events` table. */
export class EventStore {
  constructor(private readonly db: Db) {}

  /**
   * Appends the drafts in the caller's transaction. Call it as the transaction's last statement: the
   * numbers come from the `event_sequence` row, whose lock is then held only until the commit.
   */
  async append(drafts: readonly EventDraft[], author: Author, createdAt = new Date().toISOString()): Promise<EventRecord[]> {
    if (drafts.length === 0) return [];
    const { last } = await this.db
      .updateTable('event_sequence')
      .set({ last: sql`last + ${drafts.length}` })
      .where('id', '=', 1)
      .returning('last')
      .executeTakeFirstOrThrow();
    const first = Number(last) - drafts.length + 1;
    const records = drafts.map((draft, index): EventRecord => ({ ...draft, seq: first + index, uuid: randomUUID(), createdAt, author }));
    await this.db
      .insertInto('events')
      .values(
        records.map((record) => ({
          seq: record.seq,
          uuid: record.uuid,
          created_at: record.createdAt,
          title: record.title,
          event_type: record.eventType,
          description: record.description,
          workspace: record.workspace ?? null,
          author_type: record.author.authorType,
          author_identifier: record.author.identifier,
          content: JSON.stringify(record.content ?? {}),
          previous_content: record.previousContent === undefined ? null : JSON.stringify(record.previousContent),
        })),
      )
      .execute();
    return records;
  }

  async find(uuid: string): Promise<EventRecord | undefined> {
    const row = await this.db.selectFrom('events').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /**
   * One page of the events an `EventFilter` admits, newest first (by commit order). The SQL twin of
   * the stream's in-memory `matchesFilter`: both must admit the same events.
   */
  async list(filter: EventFilter, page: PageRequest): Promise<Page<EventRecord>> {
    let query = this.db.selectFrom('events');
    if (filter.workspaces !== undefined) {
      if (filter.workspaces.length === 0) return { items: [], total: 0 };
      query = query.where('workspace', 'in', [...filter.workspaces]);
    }
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.until !== undefined) query = query.where('created_at', '<', filter.until);
    if (filter.title !== undefined) query = query.where(sql<boolean>`lower(title) like lower(${containing(filter.title)}) escape '\\'`);
    if (filter.description !== undefined) query = query.where(sql<boolean>`lower(description) like lower(${containing(filter.description)}) escape '\\'`);
    if (filter.authorType !== undefined) query = query.where('author_type', '=', filter.authorType);
    if (filter.authorIdentifier !== undefined) query = query.where('author_identifier', '=', filter.authorIdentifier);
    if (filter.eventType !== undefined) query = query.where('event_type', '=', filter.eventType);
    if (filter.excludeTitles !== undefined && filter.excludeTitles.length > 0) query = query.where('title', 'not in', [...filter.excludeTitles]);
    const { rows, total } = await fetchPage<Tables, 'events', Selectable<EventTable>>(query, (q) => q.selectAll().orderBy('seq', 'desc'), page);
    return { items: rows.map(toModel), total };
  }

  /** The position of an event in the commit order (a stream resumes after it). */
  async seqOf(uuid: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('events').select('seq').where('uuid', '=', uuid).executeTakeFirst();
    return row ? Number(row.seq) : undefined;
  }

  /** The highest committed position (where a new stream without `Last-Event-ID` starts). */
  async lastSeq(): Promise<number> {
    const row = await this.db.selectFrom('events').select(sql<number | string | null>`max(seq)`.as('last')).executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Events committed after `seq`, in commit order, at most `limit`: what a stream delivers next. */
  async after(seq: number, limit: number): Promise<EventRecord[]> {
    const rows = await this.db.selectFrom('events').selectAll().where('seq', '>', seq).orderBy('seq').limit(limit).execute();
    return rows.map(toModel);
  }

  /** Deletes at most `limit` of the oldest events created before `before`; answers how many went. */
  async prune(before: string, limit: number): Promise<number> {
    const doomed = this.db.selectFrom('events').select('seq').where('created_at', '<', before).orderBy('seq').limit(limit);
    const result = await this.db.deleteFrom('events').where('seq', 'in', doomed).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
