import type { EventRecord } from './model.js';
import type { EventStore } from './store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The log as far as it is settled: events after a position, in position order, never one that a
 * number still in flight could precede. That is what lets a stream remember only a position: once it
 * has delivered n it never later finds a committed event below n.
 *
 * SQLite numbers events in commit order (one writer), so whatever it shows is settled. PostgreSQL
 * takes them from a sequence (migration 0018), so writes do not queue on one row, but a transaction
 * may commit number 8 while number 7 is still in flight. A read delivers up to its first gap; the gap
 * is settled once the transactions that held the appenders' lock when it was met have ended
 * (committed: the next read finds their events; rolled back: the number stays missing, like a
 * pruned one). Every transaction takes that lock before its first number, so none that holds a
 * number can be missed — but one that appends events and stays open holds back delivery (never
 * loses it) until it ends.
 *
 * One per process (the feed's): what it learnt settled holds for every reader.
 */
export class SettledLog {
  /** Every position up to here holds what it will ever hold. */
  private settled = 0;
  /** A gap met below `through`, waiting for the transactions that appended when it was met. */
  private pending: { through: number; appenders: readonly string[] } | undefined;

  constructor(private readonly store: EventStore) {}

  /** Settled events after `position`, in position order, at most `limit`. */
  async after(position: number, limit: number): Promise<EventRecord[]> {
    if (this.store.numberedInCommitOrder) return this.store.after(position, limit);
    // Checked before the read: a transaction seen to have ended then is visible to the read after it.
    await this.settlePending();
    const records = await this.store.after(position, limit);
    const ready = this.prefix(position, records);
    if (ready.length === records.length || this.pending !== undefined) return ready;
    // A gap below the highest number read: every number below it was taken before the read.
    const appenders = await this.store.appenders();
    this.pending = { through: records.at(-1)!.seq, appenders };
    if (appenders.length > 0) return ready;
    // Nobody appends now: the gap is final; read again (what ended meanwhile is visible now).
    this.settle(records.at(-1)!.seq);
    return this.prefix(position, await this.store.after(position, limit));
  }

  /**
   * The highest position a new reader starts after, so that it is given every event committed once
   * this resolves: the highest number committed, once every transaction then appending has ended
   * (a number below it still in flight would otherwise commit unseen behind the reader's position).
   */
  async head(): Promise<number> {
    const last = await this.store.lastSeq();
    if (this.store.numberedInCommitOrder) return last;
    const appenders = await this.store.appenders();
    // Appending transactions end in a few milliseconds; one held open holds new streams back until it
    // ends (looked at every 2 ms at first, at most every 100 ms).
    for (let pause = 2; appenders.length > 0 && (await this.store.anyAppending(appenders)); pause = Math.min(pause * 2, 100))
      await sleep(pause);
    this.settle(last);
    return last;
  }

  /** The longest run of `records` (after `position`) with no unsettled number missing before it. */
  private prefix(position: number, records: EventRecord[]): EventRecord[] {
    let previous = position;
    let count = 0;
    for (const record of records) {
      if (record.seq !== previous + 1 && record.seq - 1 > this.settled) break;
      previous = record.seq;
      count++;
    }
    return count === records.length ? records : records.slice(0, count);
  }

  private async settlePending(): Promise<void> {
    const pending = this.pending;
    if (pending === undefined || (pending.appenders.length > 0 && (await this.store.anyAppending(pending.appenders)))) return;
    if (this.pending === pending) this.pending = undefined;
    this.settle(pending.through);
  }

  private settle(through: number): void {
    if (through > this.settled) this.settled = through;
  }
}
