import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { FailureExchange, RateCount, RateCounter, SharedFailure } from '../lib/rate-counter.js';
import type { Tables } from './schema.js';

interface Window {
  start: number;
  /** The count all instances reported for this key and window at the last flush. */
  global: number;
  /** Requests counted here and being written now (not in `global` until the database answers). */
  inFlight: number;
  /** Requests counted here since the last flush began. */
  pending: number;
}

/** How often an instance adds its counts to the shared ones and reads theirs back. */
const FLUSH_MS = 250;

/**
 * Rate limits across the instances of one PostgreSQL database: each instance counts
 * locally and, every 250 ms, adds its counts per credential and fixed window to the database in one
 * statement and reads back the sums. A request is judged by the last known sum plus every request
 * counted here since (those being written included), so the limit holds exactly on one instance and
 * across instances up to what the others admitted in the last quarter second, without a database
 * round trip per request.
 */
export class SharedRateCounter implements RateCounter {
  private readonly windows = new Map<string, Window>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly windowMs: number,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Counts a request. The first request of a key in a window reads the shared count once (other
   * instances may have counted it already); later ones are judged locally.
   */
  hit(key: string, now = Date.now()): RateCount | Promise<RateCount> {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    const window = this.windows.get(key);
    if (window && window.start === start) return this.count(window, start, now);
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.load(key, start).finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading.then((loaded) => this.count(loaded, start, now));
  }

  private count(window: Window, start: number, now: number): RateCount {
    window.pending++;
    return { current: window.global + window.inFlight + window.pending, ttl: start + this.windowMs - now };
  }

  private readonly loading = new Map<string, Promise<Window>>();

  private async load(key: string, start: number): Promise<Window> {
    let global = 0;
    try {
      const row = await this.db
        .selectFrom('rate_limit_windows')
        .select('count')
        .where('key', '=', key)
        .where('window_start', '=', start)
        .executeTakeFirst();
      global = Number(row?.count ?? 0);
    } catch (error) {
      this.log.warn({ err: error }, 'reading the shared rate-limit count failed');
    }
    const current = this.windows.get(key);
    if (current && current.start === start) return current;
    const window = { start, global, inFlight: 0, pending: 0 };
    this.windows.set(key, window);
    return window;
  }

  flush(): Promise<void> {
    return (this.flushing ??= this.write().finally(() => (this.flushing = undefined)));
  }

  private async write(): Promise<void> {
    const now = Date.now();
    const batch = [...this.windows.entries()].filter(([, window]) => window.pending > 0);
    for (const [key, window] of this.windows) if (window.start + this.windowMs <= now) this.windows.delete(key);
    if (batch.length === 0) return;
    const sent = batch.map(([key, window]) => ({ key, window_start: window.start, count: window.pending }));
    // Counted until the database answers: a request judged meanwhile sees them (exact on one instance).
    for (const [, window] of batch) {
      window.inFlight += window.pending;
      window.pending = 0;
    }
    let rows: { key: string; window_start: number | string; count: number }[];
    try {
      rows = await this.db
        .insertInto('rate_limit_windows')
        .values(sent)
        .onConflict((oc) =>
          oc
            .columns(['key', 'window_start'])
            .doUpdateSet((eb) => ({ count: eb('rate_limit_windows.count', '+', eb.ref('excluded.count')) })),
        )
        .returning(['key', 'window_start', 'count'])
        .execute();
    } catch (error) {
      // Counts stay local until the database answers again (the limit then holds per instance).
      for (const [index, [, window]] of batch.entries()) {
        window.inFlight -= sent[index]!.count;
        window.pending += sent[index]!.count;
      }
      this.log.warn({ err: error }, 'sharing rate-limit counts failed');
      return;
    }
    for (const [index, [, window]] of batch.entries()) window.inFlight -= sent[index]!.count;
    for (const row of rows) {
      const window = this.windows.get(row.key);
      if (window && window.start === Number(row.window_start)) window.global = Number(row.count);
    }
    await this.db
      .deleteFrom('rate_limit_windows')
      .where('window_start', '<', now - 2 * this.windowMs)
      .execute()
      .catch((error: unknown) => this.log.warn({ err: error }, 'forgetting old rate-limit windows failed'));
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** `auth_failures` (migration 0024): the failed authentications of every instance, for one window. */
interface AuthFailureTable {
  /** The instance (a random id per process) and its running number: a row's identity. */
  origin: string;
  seq: number;
  key: string;
  /** When it failed, by its instance's clock (ms since the epoch). */
  at: number | string;
  /** When it was written, by the database's clock (ms since the epoch): the order rows are read in. */
  recorded_ms: number | string;
}

const DATABASE_NOW_MS = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
/** A read reaches this far back before the newest row it saw: rows become visible in commit order, not in clock order. */
const COMMIT_SLACK_MS = 2_000;
const PRUNE_EVERY_MS = 30_000;
const WRITE_BATCH = 500;

/**
 * The failed authentications of the instances of one PostgreSQL database (auth/failed-attempts.ts):
 * each instance writes its failures as they happen (one statement at a time, the rest batched behind
 * it) and reads the others' rows written since its last read, so every instance judges a client
 * address by the deployment's failures. Rows written more than a window ago are deleted.
 */
export class SharedFailureLog implements FailureExchange {
  private readonly db: Kysely<Tables & { auth_failures: AuthFailureTable }>;
  private readonly origin = randomUUID();
  private seq = 0;
  private readonly outbox: Omit<AuthFailureTable, 'recorded_ms'>[] = [];
  private writing = false;
  private prunedAt = 0;
  /** Rows are read from this database time on. */
  private since: number;
  /** Rows read whose time is not before `since`, by origin and number: a read overlapping the last skips them. */
  private readonly seen = new Map<string, number>();

  constructor(
    db: Kysely<Tables>,
    private readonly windowMs: number,
    private readonly log: Logger,
  ) {
    this.db = db.withTables<{ auth_failures: AuthFailureTable }>();
    this.since = Date.now() - windowMs;
  }

  publish(failures: readonly SharedFailure[]): void {
    for (const { key, at } of failures) this.outbox.push({ origin: this.origin, seq: ++this.seq, key, at });
    if (!this.writing) void this.write();
  }

  private async write(): Promise<void> {
    this.writing = true;
    try {
      while (this.outbox.length > 0) {
        const batch = this.outbox.splice(0, WRITE_BATCH).map((row) => ({ ...row, recorded_ms: DATABASE_NOW_MS }));
        // Lost rows stay counted here; the other instances do not see them.
        await this.db
          .insertInto('auth_failures')
          .values(batch)
          .execute()
          .catch((error: unknown) => this.log.warn({ err: error }, 'sharing failed authentications failed'));
      }
      if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = Date.now();
        await this.db
          .deleteFrom('auth_failures')
          .where('recorded_ms', '<', sql<number>`${DATABASE_NOW_MS} - ${this.windowMs + COMMIT_SLACK_MS}`)
          .execute()
          .catch((error: unknown) => this.log.warn({ err: error }, 'forgetting old failed authentications failed'));
      }
    } finally {
      this.writing = false;
    }
  }

  async collect(): Promise<SharedFailure[]> {
    let rows: AuthFailureTable[];
    try {
      rows = await this.db
        .selectFrom('auth_failures')
        .selectAll()
        .where('recorded_ms', '>=', this.since)
        .where('origin', '<>', this.origin)
        .execute();
    } catch (error) {
      this.log.warn({ err: error }, 'reading the shared failed authentications failed');
      return [];
    }
    const fresh: SharedFailure[] = [];
    let newest = this.since;
    for (const row of rows) {
      const id = `${row.origin}:${row.seq}`;
      const recorded = Number(row.recorded_ms);
      if (recorded > newest) newest = recorded;
      if (this.seen.has(id)) continue;
      this.seen.set(id, recorded);
      fresh.push({ key: row.key, at: Number(row.at) });
    }
    this.since = Math.max(this.since, newest - COMMIT_SLACK_MS);
    for (const [id, recorded] of this.seen) if (recorded < this.since) this.seen.delete(id);
    return fresh;
  }
}
