import type { Db } from '../../store/transaction.js';
import { matchesFilter, type CaseFolding } from './filter.js';
import type { EventFilter, EventRecord } from './model.js';
import { SettledLog } from './settled-log.js';
import { EventStore } from './store.js';

/** What a stream gives the feed: its filter, and where matching events go. */
export interface Subscriber {
  readonly filter: EventFilter;
  /**
   * Matching events in position order, each once. `catchUp`: read from the table for this subscriber
   * alone (it resumed behind the live position); the feed waits for `ready` before the next batch.
   */
  deliver(records: readonly EventRecord[], catchUp: boolean): void;
  /** Resolves when the subscriber can take another catch-up batch (its buffer has drained). */
  ready(): Promise<void>;
  /** Catching up failed (the database): the stream ends, the client resumes. */
  fail(error: unknown): void;
}

export interface Subscription {
  /** The last position delivered (or skipped as not matching). */
  readonly cursor: number;
  /**
   * The subscriber could not take what was delivered after `position` (its buffer is full) and
   * dropped it: it reads on from the table after `position`, at its own pace (after `ready`), and
   * joins the fan-out again once it has caught up. Nothing is missed or repeated.
   */
  fallBehind(position: number): void;
  close(): void;
}

export interface FeedOptions {
  /**
   * Events read at once by the fan-out (default 100). Writing a batch to every stream is one
   * uninterrupted piece of work (each stream's TLS included); after a full batch the feed lets the
   * event loop serve other requests before it reads on, so a commit of 1 000 events (an import)
   * reaches the streams in slices instead of stalling the server while it does.
   */
  batch?: number;
  /** Events read at once for one subscriber catching up (default 100: what one stream may hold). */
  catchUpBatch?: number;
  /** The safety-net poll (ms) beside the wake-ups (default 5000). */
  pollMs?: number;
  /**
   * The least time (ms) between two reads of the fan-out (default 20): commits wake the feed hundreds
   * of times a second under load, and each read writes to every stream; reads at most this often
   * bundle the events of several commits into one write per stream, for at most this much latency.
   */
  minIntervalMs?: number;
  /**
   * Resolves once every commit made so far is on disk (`Database.durable`): what the feed read is
   * passed on only then, so no stream shows an event a power loss could still take back.
   */
  durable?: () => Promise<void>;
  log?: { warn(obj: object, msg: string): void };
  /** As the list's SQL folds case (SQLite's `lower()`: ASCII only). Default unicode. */
  folding?: CaseFolding;
  /** The first subscriber came (true) or the last one left (false): other instances' commits matter now, or no longer. */
  onWatching?: (watching: boolean) => void;
}

interface Entry extends Subscription {
  subscriber: Subscriber;
  cursor: number;
  live: boolean;
  catchingUp: boolean;
  closed: boolean;
}

/**
 * The one reader of new events in a process. Woken after local commits (the recorder), by PostgreSQL
 * notifications (other instances), and by a slow poll, it reads what was committed after its position
 * once and fans it out to every live subscriber, each filtering in memory (`matchesFilter`): the
 * number of watchers adds no query. The table is the source of truth: positions are `seq`, read only
 * as far as they are settled (`SettledLog`: a reader that has seen n never later finds a committed
 * event below n), so a subscriber that resumes at position c reads `after(c)` on its own until it
 * reaches the live position, then switches to the fan-out without a gap or a repeat. With no
 * subscriber the feed reads nothing.
 */
export class EventFeed {
  private readonly store: EventStore;
  private readonly settled: SettledLog;
  private readonly batch: number;
  private readonly catchUpBatch: number;
  private readonly folding: CaseFolding;
  private readonly entries = new Set<Entry>();
  /** The last position fanned out; undefined while nobody subscribes. */
  private position: number | undefined;
  /** Bumped whenever `position` is set from outside the pump (a read in flight is then stale). */
  private epoch = 0;
  private pumping = false;
  private again = false;
  /** When the fan-out last read (ms), and whether that read filled a whole batch (then no pause). */
  private lastRead = 0;
  private backlog = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    db: Db,
    private readonly options: FeedOptions = {},
  ) {
    this.store = new EventStore(db);
    this.settled = new SettledLog(this.store);
    this.batch = options.batch ?? 100;
    this.catchUpBatch = options.catchUpBatch ?? 100;
    this.folding = options.folding ?? 'unicode';
    this.timer = setInterval(() => this.wake(), options.pollMs ?? 5000);
    this.timer.unref();
  }

  /** Subscribers in this process (live or catching up). */
  get size(): number {
    return this.entries.size;
  }

  /** Something may have been committed: read it (coalesced: at most one read at a time, then one more). */
  wake(): void {
    if (this.position === undefined) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  /** The position of an event (Last-Event-ID), undefined when it is not (or no longer) in the log. */
  seqOf(uuid: string): Promise<number | undefined> {
    return this.store.seqOf(uuid);
  }

  /**
   * Starts delivering events committed after `after` (undefined: from now on). Resolves once the
   * subscriber is registered: every event committed after that reaches it.
   */
  async subscribe(subscriber: Subscriber, after?: number): Promise<Subscription> {
    const head = await this.settled.head();
    if (this.position === undefined) {
      this.position = head;
      this.epoch++;
    }
    const cursor = after ?? head;
    const entry: Entry = {
      subscriber,
      cursor,
      live: cursor >= this.position,
      catchingUp: false,
      closed: false,
      fallBehind: (position: number) => {
        if (entry.closed) return;
        entry.cursor = position;
        entry.live = false;
        if (!entry.catchingUp) void this.catchUp(entry, true);
      },
      close: () => {
        if (entry.closed) return;
        entry.closed = true;
        this.entries.delete(entry);
        if (this.entries.size === 0) {
          this.position = undefined;
          this.epoch++;
          this.options.onWatching?.(false);
        }
      },
    };
    this.entries.add(entry);
    if (this.entries.size === 1) this.options.onWatching?.(true);
    if (!entry.live) void this.catchUp(entry);
    return entry;
  }

  /**
   * How far the slowest subscriber is behind the log: positions between what it was last handed and
   * the newest event (numbers a rolled-back transaction or the retention left unused count too), and
   * the age of the oldest event it has not been handed yet. Two indexed reads; none without subscribers.
   */
  async lag(now = Date.now()): Promise<{ positions: number; seconds: number }> {
    let slowest: number | undefined;
    for (const entry of this.entries) if (slowest === undefined || entry.cursor < slowest) slowest = entry.cursor;
    if (slowest === undefined) return { positions: 0, seconds: 0 };
    const [next] = await this.store.after(slowest, 1);
    if (!next) return { positions: 0, seconds: 0 };
    const newest = await this.store.lastSeq();
    return { positions: Math.max(0, newest - slowest), seconds: Math.max(0, (now - Date.parse(next.createdAt)) / 1000) };
  }

  close(): void {
    clearInterval(this.timer);
    for (const entry of [...this.entries]) entry.close();
  }

  private async catchUp(entry: Entry, waitFirst = false): Promise<void> {
    entry.catchingUp = true;
    try {
      if (waitFirst) await entry.subscriber.ready();
      while (!entry.closed) {
        const records = await this.read(entry.cursor, this.catchUpBatch);
        if (entry.closed) return;
        const last = records.at(-1);
        if (last) {
          const matching = records.filter((record) => matchesFilter(record, entry.subscriber.filter, this.folding));
          entry.cursor = last.seq;
          if (matching.length > 0) entry.subscriber.deliver(matching, true);
        }
        // Live once nothing is left below the fan-out's position (read again if it moved meanwhile).
        if (records.length < this.catchUpBatch && (this.position === undefined || entry.cursor >= this.position)) {
          if (this.position === undefined) {
            this.position = entry.cursor;
            this.epoch++;
          }
          entry.live = true;
          return;
        }
        await entry.subscriber.ready();
      }
    } catch (error) {
      if (!entry.closed) entry.subscriber.fail(error);
    } finally {
      entry.catchingUp = false;
    }
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        const pause = this.backlog ? 0 : this.lastRead + (this.options.minIntervalMs ?? 20) - Date.now();
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
        else if (this.backlog) await new Promise((resolve) => setImmediate(resolve));
        this.lastRead = Date.now();
        this.backlog = false;
        this.again = false;
        const epoch = this.epoch;
        const from = this.position;
        if (from === undefined) return;
        const records = await this.read(from, this.batch);
        if (epoch !== this.epoch) {
          this.again = true;
          continue;
        }
        const last = records.at(-1);
        if (!last) continue;
        this.position = last.seq;
        this.fanOut(records);
        if (records.length === this.batch) this.again = this.backlog = true;
      } while (this.again);
    } catch (error) {
      // The next wake-up or poll reads again from the same position: nothing is skipped.
      this.options.log?.warn({ err: error }, 'reading new events for the streams failed');
    } finally {
      this.pumping = false;
    }
  }

  /** Settled events after `position`, once they are on disk. */
  private async read(position: number, limit: number): Promise<EventRecord[]> {
    const records = await this.settled.after(position, limit);
    if (records.length > 0 && this.options.durable) await this.options.durable();
    return records;
  }

  private fanOut(records: readonly EventRecord[]): void {
    const last = records.at(-1)!.seq;
    for (const entry of this.entries) {
      if (!entry.live || entry.closed) continue;
      const matching = records.filter(
        (record) => record.seq > entry.cursor && matchesFilter(record, entry.subscriber.filter, this.folding),
      );
      entry.cursor = Math.max(entry.cursor, last);
      if (matching.length === 0) continue;
      try {
        // Every subscriber that takes the whole batch gets the same array: its text is joined once for all (http/event-stream.ts).
        entry.subscriber.deliver(matching.length === records.length ? records : matching, false);
      } catch (error) {
        entry.subscriber.fail(error);
      }
    }
  }
}
