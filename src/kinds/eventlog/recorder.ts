import { sql } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import type { DialectName } from '../../store/database.js';
import { afterCommit, inTransaction, keepUntilCommit, type Db } from '../../store/transaction.js';
import { authorOf, type Author, type EventDraft } from './model.js';
import { EventStore } from './store.js';

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
 * events are appended last (their numbers' lock is held only until the commit; on PostgreSQL the
 * `NOTIFY` goes before it, so the lock is held for two statements and the commit). After the commit
 * this process's streams are woken; on PostgreSQL `NOTIFY` (delivered at commit) wakes the others.
 * Inside a `UnitOfWork` (store/transaction.ts) each change is a savepoint of the unit's transaction
 * and its events are kept until the unit is about to commit, then appended with the others: the lock
 * of the numbers is held for those last statements, not for the whole unit.
 */
export class EventRecorder {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  /** `listener` runs after each commit in this process that appended events; answers its removal. */
  onCommitted(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` in a transaction (or in the caller's, when `db` already is one); `work` pushes the
   * events of what it changed onto `events`. May run `work` again (see `inTransaction`): the list
   * starts empty each time.
   */
  async change<T>(ctx: RequestContext, work: (trx: Db, events: EventDraft[]) => Promise<T>, db: Db = this.db): Promise<T> {
    let changed = false;
    const result = await inTransaction(db, async (trx) => {
      const events: EventDraft[] = [];
      const value = await work(trx, events);
      changed = events.length > 0;
      const change = { events, author: authorOf(ctx) };
      if (changed && !keepUntilCommit(this.append, change)) await this.append(trx, [change]);
      return value;
    });
    // Inside a unit of work (the import into a collection) the events are readable only after its commit.
    if (changed) afterCommit(() => this.listeners.forEach((listener) => listener()));
    return result;
  }

  /** The changes' events, in order; consecutive ones of one author in one statement, up to APPEND_CHUNK. */
  private readonly append = async (trx: Db, changes: readonly ChangeEvents[]): Promise<void> => {
    // NOTIFY is delivered at the commit wherever it stands in the transaction: sent before the
    // append, it is not one more round trip under the lock of the event numbers.
    if (this.dialect === 'postgres') await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
    const store = new EventStore(trx);
    let pending: EventDraft[] = [];
    let author: Author | undefined;
    for (const change of changes) {
      const sameAuthor = author?.authorType === change.author.authorType && author.identifier === change.author.identifier;
      if (author && (!sameAuthor || pending.length + change.events.length > APPEND_CHUNK)) {
        await store.append(pending, author);
        pending = [];
      }
      author = change.author;
      pending.push(...change.events);
    }
    if (author) await store.append(pending, author);
  };
}
