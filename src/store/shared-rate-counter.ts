import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { RateCount, RateCounter } from '../lib/rate-counter.js';
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
 * Rate limits across the instances of one PostgreSQL database (issue 9): each instance counts
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
      const row = await this.db.selectFrom('rate_limit_windows').select('count').where('key', '=', key).where('window_start', '=', start).executeTakeFirst();
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
        .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limit_windows.count', '+', eb.ref('excluded.count')) })))
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
