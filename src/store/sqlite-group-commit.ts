import type SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { ConnectionUsage } from './connection-usage.js';
import type { WalCheckpointer } from './sqlite-checkpointer.js';
import type { WalSync } from './sqlite-wal-sync.js';
import {
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * SQLite with group commit, for Kysely.
 *
 * Every commit must reach the disk before it is acknowledged, and a commit is worth an fsync of the
 * WAL (about a millisecond here). Writes from concurrent requests therefore share one outer
 * transaction: each Kysely transaction (and each write outside one) runs inside a savepoint of the
 * open group, and the group commits once the requests that arrived together have had their turn
 * (`setImmediate`). Each request's transaction returns only after its group is on disk; if the commit
 * fails, every transaction of the group fails with it. Every member schedules the group's end as it
 * leaves, however it leaves (committed, rolled back, failed): the group holds the database's write
 * lock, which a refusal must not keep from other processes (`blockyard admin`) until the next
 * successful write.
 *
 * Without `walSync` the writer's `synchronous=FULL` makes SQLite fsync inside the commit, and the
 * event loop waits with it. With a `WalSync` (the writer at `synchronous=NORMAL`) the commit only
 * writes the WAL and the fsync runs on the thread pool: the group is acknowledged once it is done,
 * and meanwhile the event loop goes on serving — and committing the next group.
 *
 * Reads outside a transaction go to a second, read-only connection: in WAL mode it sees only
 * committed data, so no one reads what a not-yet-committed group wrote, and reads never wait for
 * the writer. (With `walSync` a read may see a group in the millisecond between its commit and its
 * fsync; nothing is acknowledged to its writer before the fsync.)
 *
 * With a `checkpoints` thread the writer's automatic checkpoints are off (the caller sets
 * `wal_autocheckpoint=0`): see `WalCheckpoints`.
 */
export function groupCommitDialect(
  writer: SQLite.Database,
  reader: SQLite.Database,
  options: GroupCommitOptions = {},
): Dialect & { usage(): ConnectionUsage; read(query: CompiledQuery): QueryResult<unknown> } {
  let driver: GroupCommitDriver | undefined;
  const readerStatements = new StatementCache(reader);
  return {
    // The writer's turn: held by one transaction (or a group's commit), waited for by the others.
    usage: () => ({ max: 1, open: 1, inUse: driver?.writerHeld ? 1 : 0, waiting: driver?.writerWaiting ?? 0 }),
    // A read outside any transaction, on the reader, as the driver does it (`readDirectly`, compiled-queries.ts).
    read: (query) => readerStatements.run(query),
    createAdapter: () => new TransactionalDdlAdapter(),
    createDriver: () => (driver = new GroupCommitDriver(writer, reader, readerStatements, options)),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  };
}

/**
 * SQLite's schema changes are transactional; Kysely's adapter says otherwise because a pragma such as
 * `foreign_keys` is ignored inside a transaction, and no migration of ours sets one. So the migrator
 * runs a start's pending migrations in one transaction, as on PostgreSQL: a start that fails or is
 * killed midway leaves the schema as it was (not a migration half-applied and unrecorded, which the
 * next start would fail to apply again), and the migrations commit once instead of once per statement.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * better-sqlite3 compiles a statement per `prepare`, Kysely prepares per query: keep them by SQL text.
 * Rows are fetched as arrays and turned into objects by a function compiled once per statement: an
 * object literal of fixed shape is built several times faster than better-sqlite3 sets properties
 * one by one (a page of 50 blocks: ~0.3 ms less).
 */
class StatementCache {
  private readonly statements = new Map<string, { statement: SQLite.Statement; toRow?: (values: unknown[]) => unknown }>();

  constructor(private readonly sqlite: SQLite.Database) {}

  private get(sql: string) {
    let entry = this.statements.get(sql);
    if (!entry) {
      const statement = this.sqlite.prepare(sql);
      entry = {
        statement,
        ...(statement.reader
          ? {
              toRow: rowBuilder(
                statement
                  .raw(true)
                  .columns()
                  .map((column) => column.name),
              ),
            }
          : {}),
      };
      // The service issues a bounded set of query shapes; the bound only guards against a leak.
      if (this.statements.size >= 2000) this.statements.clear();
      this.statements.set(sql, entry);
    }
    return entry;
  }

  run(query: CompiledQuery): QueryResult<unknown> {
    const { statement, toRow } = this.get(query.sql);
    const parameters = query.parameters as unknown[];
    if (toRow) return { rows: (statement.all(parameters) as unknown[][]).map(toRow) };
    const { changes } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), rows: [] };
  }
}

/** `(values) => ({ "a": values[0], "b": values[1] })`; a repeated name keeps the last value, as object rows do. */
function rowBuilder(names: readonly string[]): (values: unknown[]) => unknown {
  // The names come from SQLite's column list and are quoted as JSON strings.
  return new Function('values', `return { ${names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(', ')} };`) as (
    values: unknown[],
  ) => unknown;
}

/**
 * When the WAL is copied into the database file, off the event loop: a PASSIVE checkpoint on the
 * `checkpointer`'s thread every `intervalMs` after a commit, alongside the writes. A passive
 * checkpoint does not restart the WAL while writes go on, so once it holds `restartFrames` frames the
 * writer waits (its mutex, asynchronously: the event loop keeps serving) while the thread copies the
 * rest and restarts it: the WAL file stays about that size.
 */
export interface WalCheckpoints {
  checkpointer: WalCheckpointer;
  intervalMs: number;
  restartFrames: number;
  /** A failed checkpoint loses nothing (the WAL holds every commit) but lets the WAL grow: report it. */
  onError(error: unknown): void;
}

export interface GroupCommitOptions {
  checkpoints?: WalCheckpoints;
  walSync?: WalSync;
}

/** First come, first served: the group's commit queues behind the transactions already waiting. */
class Mutex {
  private locked = false;
  private readonly waiting: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }

  get held(): boolean {
    return this.locked;
  }

  get queued(): number {
    return this.waiting.length;
  }
}

/** The open outer transaction and the promise its members wait on. */
interface Group {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function openGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  committed.catch(() => undefined); // a group whose members all rolled back has no one waiting
  return { committed, resolve, reject };
}

const SAVEPOINT = 'request';

/** What one acquired connection is doing: reading, or holding the writer for a transaction. */
class Session implements DatabaseConnection {
  inTransaction = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return Promise.resolve(this.driver.write(query) as QueryResult<R>);
    if (SelectQueryNode.is(query.query)) return Promise.resolve(this.driver.read(query) as QueryResult<R>);
    return this.driver.writeAlone(query) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield -- the interface asks for a generator; the service never streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported');
  }
}

class GroupCommitDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly writerStatements: StatementCache;
  private group: Group | undefined;
  private flushScheduled = false;
  private committedSinceCheckpoint = false;
  private checkpointing: Promise<void> | undefined;
  private readonly checkpointTimer: NodeJS.Timeout | undefined;
  private readonly checkpoints: WalCheckpoints | undefined;
  private readonly walSync: WalSync | undefined;

  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: SQLite.Database,
    private readonly readerStatements: StatementCache,
    { checkpoints, walSync }: GroupCommitOptions,
  ) {
    this.checkpoints = checkpoints;
    this.walSync = walSync;
    this.writerStatements = new StatementCache(writer);
    if (checkpoints) {
      this.checkpointTimer = setInterval(() => {
        if (this.committedSinceCheckpoint && !this.checkpointing)
          this.checkpointing = this.checkpointWal(checkpoints).finally(() => (this.checkpointing = undefined));
      }, checkpoints.intervalMs).unref();
    }
  }

  async init(): Promise<void> {}

  get writerHeld(): boolean {
    return this.mutex.held;
  }

  get writerWaiting(): number {
    return this.mutex.queued;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this);
  }

  async releaseConnection(): Promise<void> {}

  read(query: CompiledQuery): QueryResult<unknown> {
    return this.readerStatements.run(query);
  }

  /** A statement of the transaction that holds the writer. */
  write(query: CompiledQuery): QueryResult<unknown> {
    // After SQLite rolled the group back, a statement would run on its own, outside any transaction.
    if (!this.writer.inTransaction) throw new Error('the group this transaction belonged to was rolled back');
    try {
      return this.writerStatements.run(query);
    } catch (error) {
      this.noticeLostGroup(error);
      throw error;
    }
  }

  /** A write outside a transaction: one statement in the group, acknowledged with it. */
  async writeAlone(query: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.mutex.lock();
    let group: Group;
    let result: QueryResult<unknown>;
    try {
      group = this.joinGroup();
      result = this.write(query);
    } finally {
      this.leaveGroup();
    }
    await group.committed;
    return result;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.mutex.lock();
    try {
      this.joinGroup();
      this.writer.exec(`savepoint ${SAVEPOINT}`);
    } catch (error) {
      this.noticeLostGroup(error);
      this.leaveGroup();
      throw error;
    }
    (connection as Session).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const group = this.group;
    try {
      if (!group || !this.writer.inTransaction) throw new Error('the group this transaction belonged to was rolled back');
      this.writer.exec(`release ${SAVEPOINT}`);
    } catch (error) {
      this.noticeLostGroup(error);
      throw error; // Kysely rolls back next, which releases the writer
    }
    (connection as Session).inTransaction = false;
    this.leaveGroup();
    await group.committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const session = connection as Session;
    if (!session.inTransaction) return; // the commit itself failed: the writer is released already
    session.inTransaction = false;
    try {
      // An I/O error or a full disk may have rolled the whole group back already.
      if (this.writer.inTransaction) this.writer.exec(`rollback to ${SAVEPOINT}; release ${SAVEPOINT}`);
    } catch (error) {
      // What the savepoint wrote may still be in the group: it must not commit with the others.
      this.abandonGroup(error);
      throw error;
    } finally {
      this.leaveGroup();
    }
  }

  async destroy(): Promise<void> {
    clearInterval(this.checkpointTimer);
    await this.commitGroup();
    await this.walSync?.close();
    await this.checkpointing;
    if (this.checkpoints) await this.checkpoints.checkpointer.close().catch((error: unknown) => this.checkpoints!.onError(error));
    this.reader.close();
    this.writer.close();
  }

  private async checkpointWal({ checkpointer, restartFrames, onError }: WalCheckpoints): Promise<void> {
    this.committedSinceCheckpoint = false;
    try {
      const { log } = await checkpointer.checkpoint('PASSIVE');
      if (log < restartFrames) return;
      await this.mutex.lock();
      try {
        this.commitOpenGroup(); // an open write transaction would keep the WAL from restarting
        await checkpointer.checkpoint('RESTART');
      } finally {
        this.mutex.unlock();
      }
    } catch (error) {
      onError(error);
    }
  }

  private joinGroup(): Group {
    if (!this.group) {
      this.writer.exec('begin immediate');
      this.group = openGroup();
    }
    return this.group;
  }

  /** A member is done with the writer: the next waits its turn, and the group ends once they had theirs. */
  private leaveGroup(): void {
    this.mutex.unlock();
    this.scheduleCommit();
  }

  /** SQLite rolls the whole transaction back on some errors (SQLITE_FULL, SQLITE_IOERR, ...): the group is lost. */
  private noticeLostGroup(error: unknown): void {
    if (this.group && !this.writer.inTransaction) {
      this.group.reject(error);
      this.group = undefined;
    }
  }

  private scheduleCommit(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => void this.commitGroup());
  }

  private async commitGroup(): Promise<void> {
    this.flushScheduled = false;
    await this.mutex.lock();
    try {
      this.commitOpenGroup();
    } finally {
      this.mutex.unlock();
    }
  }

  /** Holding the mutex. */
  private commitOpenGroup(): void {
    const group = this.group;
    if (!group) return;
    try {
      this.writer.exec('commit');
    } catch (error) {
      this.abandonGroup(error);
      return;
    }
    this.group = undefined;
    this.committedSinceCheckpoint = true;
    if (this.walSync) this.walSync.synced().then(group.resolve, group.reject);
    else group.resolve();
  }

  /** Holding the mutex: the open group fails whole (its members are told), and SQLite's transaction ends. */
  private abandonGroup(error: unknown): void {
    this.group?.reject(error);
    this.group = undefined;
    try {
      if (this.writer.inTransaction) this.writer.exec('rollback');
    } catch {
      // Its members have their error already; thrown from here (a timer's turn) it would end the
      // process. Should SQLite still hold the transaction, the next write's `begin` says so to its caller.
    }
  }
}
