import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type TransactionSettings } from 'kysely';
import { unanswered } from './pg-pipeline.js';
import type { Tables } from './schema.js';

/** The query layer, bound to the database or to one transaction. */
export type Db = Kysely<Tables>;

/**
 * Told how long each transaction waited before it began: for a pooled connection (PostgreSQL), or
 * for the one writer (SQLite's group commit), up to its BEGIN. The metrics implement it; the store
 * knows nothing of them.
 */
export interface TransactionWaits {
  waited(seconds: number): void;
}

const RETRIED = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

/** A deadlock or serialization failure: the database failed this transaction to let another go on; running it again may succeed. */
export function isRetriedConflict(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code !== undefined && RETRIED.has(code);
}

/** Runs `attempt` up to ATTEMPTS times while it fails with a deadlock or serialization failure. */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetriedConflict(error) || count >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * count));
    }
  }
}

/** What `keepUntilCommit` keeps: an item and the function that writes it with the others kept for it. */
interface Kept {
  flush: (trx: Db, items: unknown[]) => Promise<void>;
  item: unknown;
}

/**
 * One unit of work (see `UnitOfWork`): the connection holding its transaction once it began, how many
 * savepoints are open on it (and how much was kept when each began), what is kept to be written just
 * before its commit, and what waits for its commit.
 */
interface Unit {
  connection: DatabaseConnection | undefined;
  savepoints: number;
  done: boolean;
  kept: Kept[];
  marks: number[];
  afterCommit: (() => void)[];
}

/** The unit of work of the running async flow, if any: every query of that flow goes to its transaction. */
const units = new AsyncLocalStorage<Unit>();

const openUnit = (): Unit | undefined => {
  const unit = units.getStore();
  return unit && !unit.done ? unit : undefined;
};

/** Whether the running async flow is inside a unit of work (whose transaction takes its every query). */
export const inUnitOfWork = (): boolean => openUnit() !== undefined;

/**
 * The one transaction helper: runs `work` in a transaction, or inside the caller's when `db` is one
 * already (a unit of work calling another joins it). Inside a `UnitOfWork` the transaction is a
 * savepoint of the unit's (a failure undoes only this work; the unit commits or rolls back the whole).
 * On PostgreSQL two transactions can lock the same rows in opposite orders (a claim takes the run
 * first, a delete the block); the database breaks the deadlock by failing one, which is retried
 * here, as are serialization failures (inside a unit of work, the unit retries whole). `work` must be
 * safe to run again: it starts from what it reads inside the transaction.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  if (openUnit()) return db.transaction().execute((trx) => work(trx));
  return retried(() => db.transaction().execute((trx) => work(trx)));
}

/**
 * `after` runs once what was just written is committed: at once outside a unit of work (the caller's
 * transaction ended), after the unit's commit inside one (never if it rolls back).
 */
export function afterCommit(after: () => void): void {
  const unit = openUnit();
  if (unit) unit.afterCommit.push(after);
  else after();
}

/**
 * Inside a unit of work: keeps `item` to be written by `flush`, together with every item kept for the
 * same `flush` (in order), on the unit's transaction just before it commits — or never, if the
 * savepoint it was kept in rolls back — and answers true. Outside one it answers false: the caller
 * writes the item now. For writes that should come last in a transaction because others wait for
 * them until it ends (the event log's numbers: a stream waits at a number still in flight).
 */
export function keepUntilCommit<T>(flush: (trx: Db, items: T[]) => Promise<void>, item: T): boolean {
  const unit = openUnit();
  if (!unit) return false;
  unit.kept.push({ flush: flush as Kept['flush'], item });
  return true;
}

/** Writes what the unit kept, each `flush` once with its items in order. */
async function flushKept(unit: Unit, trx: Db): Promise<void> {
  const byFlush = new Map<Kept['flush'], unknown[]>();
  for (const { flush, item } of unit.kept) {
    const items = byFlush.get(flush);
    if (items) items.push(item);
    else byFlush.set(flush, [item]);
  }
  for (const [flush, items] of byFlush) await flush(trx, items);
}

/**
 * A unit of work spanning many service calls (the declarative import into a collection): `run` opens
 * one transaction, and every query of its async flow joins it, whichever `Db` the service holds: the
 * database's driver (`unitOfWorkDialect`) hands the flow the unit's connection, and a transaction
 * begun there becomes a savepoint. So the services stay as they are (each write its own
 * `EventRecorder.change`), reads see the unit's earlier writes, and the unit commits once.
 */
export class UnitOfWork {
  constructor(private readonly db: Db) {}

  /**
   * Runs `work` as one transaction, committed when it returns; if it or the commit fails, nothing
   * of it is stored and the error is thrown. Retried whole on a deadlock or serialization failure,
   * so `work` must start afresh. Inside another unit, `work` joins that one.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (openUnit()) return work();
    return retried(async () => {
      const unit: Unit = { connection: undefined, savepoints: 0, done: false, kept: [], marks: [], afterCommit: [] };
      const result = await units.run(unit, () =>
        this.db.transaction().execute(async (trx) => {
          const value = await work();
          await flushKept(unit, trx);
          return value;
        }),
      );
      for (const after of unit.afterCommit) after();
      return result;
    });
  }

  /** Inside `run`: `work` in a savepoint, rolled back alone when it throws (the error is thrown on). */
  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    if (!openUnit()) throw new Error('UnitOfWork.savepoint outside UnitOfWork.run');
    return this.db.transaction().execute(() => work());
  }
}

/** The driver under every `Db`: outside a unit of work it is the dialect's own; inside one, see `UnitOfWork`. */
/**
 * When a connection was asked for, stamped on it (a transaction begins on the connection it was just
 * handed). A property rather than a map: SQLite's driver makes a connection object per query, and a
 * WeakMap entry for each would cost the collector more than the measurement is worth.
 */
const ASKED_AT = Symbol('askedAt');
type Stamped = DatabaseConnection & { [ASKED_AT]?: number };

class UnitOfWorkDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly waits?: TransactionWaits,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const unitConnection = openUnit()?.connection;
    if (unitConnection) return unitConnection;
    if (!this.waits) return this.inner.acquireConnection();
    const asked = performance.now();
    const connection: Stamped = await this.inner.acquireConnection();
    connection[ASKED_AT] = asked;
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The unit's connection is released once, by the unit's own transaction after it ended.
    if (openUnit()?.connection !== connection) await this.inner.releaseConnection(connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const unit = openUnit();
    if (!unit) return this.begin(connection, settings);
    if (unit.connection === undefined) {
      await this.begin(connection, settings);
      unit.connection = connection;
      return;
    }
    // Savepoints nest: the unit's work is one flow (the import applies its objects one by one).
    // Its answer is not read: it goes with the next statement (PostgreSQL, pg-pipeline.ts).
    await connection.executeQuery(unanswered(CompiledQuery.raw(`savepoint unit_${unit.savepoints + 1}`)));
    unit.savepoints += 1;
    unit.marks.push(unit.kept.length);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const unit = this.unitHolding(connection);
    if (!unit) return this.inner.commitTransaction(connection);
    if (unit.savepoints > 0) {
      // Answered: a failure of anything left unanswered inside the savepoint fails here, so the
      // savepoint is rolled back (below), not the whole unit at its commit.
      await connection.executeQuery(CompiledQuery.raw(`release savepoint unit_${unit.savepoints}`));
      unit.savepoints -= 1;
      unit.marks.pop();
      return;
    }
    // From here on the flow's queries are its own again (a failed commit is rolled back by the inner driver).
    unit.done = true;
    await this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const unit = this.unitHolding(connection);
    if (!unit) return this.inner.rollbackTransaction(connection);
    if (unit.savepoints > 0) {
      const name = `unit_${unit.savepoints}`;
      unit.savepoints -= 1;
      unit.kept.length = unit.marks.pop()!;
      await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
      return;
    }
    unit.done = true;
    await this.inner.rollbackTransaction(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** An outermost BEGIN, and how long its transaction waited since its connection was asked for. */
  private async begin(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(connection, settings);
    const asked = (connection as Stamped)[ASKED_AT];
    if (asked !== undefined) this.waits?.waited((performance.now() - asked) / 1000);
  }

  private unitHolding(connection: DatabaseConnection): Unit | undefined {
    const unit = openUnit();
    return unit?.connection === connection ? unit : undefined;
  }
}

/**
 * `dialect` with the driver that lets a `UnitOfWork` gather every query of its flow into its
 * transaction; `waits` is told how long each transaction waited to begin.
 */
export function unitOfWorkDialect(dialect: Dialect, waits?: TransactionWaits): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new UnitOfWorkDriver(dialect.createDriver(), waits),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
