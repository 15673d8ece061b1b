import { sql } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import type { DialectName } from '../../store/database.js';
import { afterCommit, inTransaction, keepUntilCommit, type Db } from '../../store/transaction.js';
import { authorOf, type Author, type EventDraft } from './model.js';
import { turns } from '../../lib/turns.js';
import { EventStore } from './store.js';
import { StreamInterest } from './stream-interest.js';

/** The PostgreSQL channel on which a commit with events wakes every instance's streams. */
export const EVENTS_CHANNEL = 'blockyard_events';

/** The events of one change and who made it. */
interface ChangeEvents {
  events: EventDraft[];
  author: Author;
}

/** Events appended in one statement at most (the changes of a unit of work are appended together). */
const APPEND_CHUNK = 200;

/**
 * The unit of work of every change: `change` runs the work in one transaction together with the
 * events it declares, so there is no change without its event and no event without its change. The
 * events are appended last, so a transaction holds event numbers (which readers wait for: `SettledLog`)
 * only for its last statement and its commit. After the commit this process's streams are woken and,
 * on PostgreSQL, the other instances with streams open are notified (`notifyOthers`, `StreamInterest`).
 * Inside a `UnitOfWork` (store/transaction.ts) each change is a savepoint of the unit's transaction
 * and its events are kept until the unit is about to commit, then appended with the others.
 */
export class EventRecorder {
  private readonly listeners = new Set<() => void>();
  /** A NOTIFY in flight, and whether commits came after it was sent (they get one more). */
  private notifying = false;
  private notifyAgain = false;
  /** PostgreSQL: whether another instance has streams to wake, and this one's word that it has. */
  readonly interest: StreamInterest | undefined;

  constructor(
    private readonly db: Db,
    dialect: DialectName,
  ) {
    this.interest =
      dialect === 'postgres'
        ? new StreamInterest(
            (payload) => void this.say(payload).catch(() => undefined),
            () => this.notifyOthers(),
          )
        : undefined;
  }

  /** `listener` runs after each commit in this process that appended events; answers its removal. */
  onCommitted(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` in a transaction of its own (a savepoint inside a unit of work); `work` pushes the
   * events of what it changed onto `events`. May run `work` again (see `inTransaction`): the list
   * starts empty each time. There is no form taking a caller's transaction: the streams are woken
   * when the events are committed, which only the owner of the transaction knows.
   */
  async change<T>(ctx: RequestContext, work: (trx: Db, events: EventDraft[]) => Promise<T>): Promise<T> {
    let changed = false;
    const result = await inTransaction(this.db, async (trx) => {
      const events: EventDraft[] = [];
      const value = await work(trx, events);
      changed = events.length > 0;
      const change = { events, author: authorOf(ctx) };
      if (changed && !keepUntilCommit(this.appendAsOneRun, change)) await this.append(trx, [change]);
      return value;
    });
    // Inside a unit of work (the import into a collection) the events are readable only after its commit.
    if (changed)
      afterCommit(() => {
        this.listeners.forEach((listener) => listener());
        this.notifyOthers();
      });
    return result;
  }

  /** A payload on the events channel: a commit's (empty) or `StreamInterest`'s words. */
  private async say(payload: string): Promise<void> {
    await sql`select pg_notify(${EVENTS_CHANNEL}, ${payload})`.execute(this.db);
  }

  /**
   * Tells the other instances (their `LISTEN`) that events were committed, while any of them has
   * streams open (`StreamInterest`): one `NOTIFY` at a time, on a connection of its own, after the
   * commits, covering every commit made while the previous one was in flight. Sent inside each
   * writing transaction, it serialised them: PostgreSQL takes one lock on the notification queue at
   * every commit that notifies and holds it through that commit's WAL flush. A notification lost
   * (the process dies first, the database fails it) only delays the others' streams until their next
   * wake-up or slow poll: they read the table, never the notification.
   */
  private notifyOthers(): void {
    if (!this.interest?.othersWatching) return;
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    void (async () => {
      try {
        do {
          this.notifyAgain = false;
          await this.say('');
        } while (this.notifyAgain);
      } catch {
        // Their slow poll reads what this would have woken them for.
      } finally {
        this.notifying = false;
      }
    })();
  }

  /**
   * A unit of work's events, just before its commit: one unbroken run of numbers (no other
   * transaction's event between them), as the log of an import into a collection shows it.
   */
  private readonly appendAsOneRun = async (trx: Db, changes: readonly ChangeEvents[]): Promise<void> => {
    const count = changes.reduce((sum, change) => sum + change.events.length, 0);
    await this.append(trx, changes, await new EventStore(trx).reserveRun(count));
  };

  /**
   * The changes' events, in order; consecutive ones of one author in one statement, up to
   * APPEND_CHUNK. With `firstSeq` (numbers reserved for them) numbered from it.
   */
  private readonly append = async (trx: Db, changes: readonly ChangeEvents[], firstSeq?: number): Promise<void> => {
    const store = new EventStore(trx);
    let next = firstSeq;
    const appendPending = async (pending: EventDraft[], author: Author) => {
      await store.appendUnanswered(pending, author, next);
      if (next !== undefined) next += pending.length;
    };
    // The events of an import (a thousand) take several statements: other requests get turns between them.
    const pause = turns();
    let pending: EventDraft[] = [];
    let author: Author | undefined;
    for (const change of changes) {
      const sameAuthor = author?.authorType === change.author.authorType && author.identifier === change.author.identifier;
      if (author && (!sameAuthor || pending.length + change.events.length > APPEND_CHUNK)) {
        await appendPending(pending, author);
        await pause();
        pending = [];
      }
      author = change.author;
      pending.push(...change.events);
    }
    if (author) await appendPending(pending, author);
  };
}
