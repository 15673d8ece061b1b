import { sql } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import type { DialectName } from '../../store/database.js';
import { afterCommit, inTransaction, type Db } from '../../store/transaction.js';
import { authorOf, type EventDraft } from './model.js';
import { EventStore } from './store.js';

/** The PostgreSQL channel on which a commit with events wakes every instance's streams. */
export const EVENTS_CHANNEL = 'blockyard_events';

/**
 * The unit of work of every change: `change` runs the work in one transaction together with the
 * events it declares, so there is no change without its event and no event without its change. The
 * events are appended last (their numbers' lock is held only until the commit; on PostgreSQL the
 * `NOTIFY` goes before it, so the lock is held for two statements and the commit). After the commit
 * this process's streams are woken; on PostgreSQL `NOTIFY` (delivered at commit) wakes the others.
 * Inside a `UnitOfWork` (store/transaction.ts) each change is a savepoint of the unit's transaction.
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
    let appended = 0;
    const result = await inTransaction(db, async (trx) => {
      const events: EventDraft[] = [];
      const value = await work(trx, events);
      // NOTIFY is delivered at the commit wherever it stands in the transaction: sent before the
      // append, it is not one more round trip under the lock of the event numbers.
      if (events.length > 0 && this.dialect === 'postgres') await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
      appended = (await new EventStore(trx).append(events, authorOf(ctx))).length;
      return value;
    });
    // Inside a unit of work (the import into a collection) the events are readable only after its commit.
    if (appended > 0) afterCommit(() => this.listeners.forEach((listener) => listener()));
    return result;
  }
}
