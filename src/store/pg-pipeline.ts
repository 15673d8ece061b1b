import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';

/** Statements whose answer their caller does not read (`unanswered`). */
const UNANSWERED = new WeakSet<CompiledQuery>();

/**
 * Marks `query` as one whose answer its caller does not read (it is answered an empty result at
 * once): inside a PostgreSQL transaction it is sent together with the transaction's next statement —
 * its commit, usually — in one round trip, and its failure fails that statement (or the commit) with
 * its own error, so nothing is acknowledged that was not stored. Elsewhere (SQLite, no transaction)
 * it runs as any statement.
 */
export function unanswered<Q extends CompiledQuery>(query: Q): Q {
  UNANSWERED.add(query);
  return query;
}

/**
 * The PostgreSQL dialect over a pool of pipelining clients (`pg.Pool({ pipeline: true })`): a
 * transaction's BEGIN goes with its first statement and its unanswered statements with the next one
 * or the COMMIT, each group written at once and answered together. A write's cost is mostly its
 * number of round trips (each a system call to send and a wake-up to read, on both sides): a status
 * report's five become two.
 */
export function pipelinedPostgresDialect(pool: pg.Pool): Dialect {
  const dialect = new PostgresDialect({ pool });
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new PipelinedDriver(pool),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

class PipelinedDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PipelinedConnection>();
  private destroyed = false;

  constructor(private readonly pool: pg.Pool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    if (this.destroyed) {
      client.release();
      throw new Error('the database is closed');
    }
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new PipelinedConnection(client)));
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode)
      text = ['start transaction', settings.isolationLevel && `isolation level ${settings.isolationLevel}`, settings.accessMode]
        .filter(Boolean)
        .join(' ');
    (connection as PipelinedConnection).begin(text);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).end('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).client.release();
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.pool.end();
  }
}

const COMMANDS_WITH_ROW_COUNT = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * One pooled client. `owed` holds what was asked for but not sent yet: a transaction's BEGIN and its
 * unanswered statements, sent in order before the next statement, in one write with it.
 */
class PipelinedConnection implements DatabaseConnection {
  private owed: CompiledQuery[] = [];
  /** Inside a transaction: whether its BEGIN has gone to the server. */
  private transaction: 'none' | 'owed' | 'sent' = 'none';

  constructor(readonly client: pg.PoolClient) {}

  begin(text: string): void {
    this.owed = [CompiledQuery.raw(text)];
    this.transaction = 'owed';
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    const sent = this.transaction === 'sent';
    this.transaction = 'none';
    // Nothing was sent since BEGIN (a transaction that wrote nothing, or whose work failed before
    // its first statement): there is nothing to commit or roll back on the server.
    if (!sent && (command === 'rollback' || this.owed.length === 1)) {
      this.owed = [];
      return;
    }
    // A rollback drops what was never sent: the server would undo it anyway.
    if (command === 'rollback') this.owed = [];
    const answer = await this.send(CompiledQuery.raw(command));
    // PostgreSQL answers the COMMIT of a transaction a failed statement ended with ROLLBACK, not an error.
    if (command === 'commit' && answer.command !== 'COMMIT') throw new Error(`the transaction was rolled back (${answer.command})`);
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.transaction !== 'none' && UNANSWERED.has(query)) {
      this.owed.push(query);
      return Promise.resolve({ rows: [] });
    }
    return this.send(query).then(toResult<R>);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not used on PostgreSQL');
  }

  private async send(query: CompiledQuery): Promise<pg.QueryResult> {
    if (this.owed.length === 0) return this.client.query(query.sql, [...query.parameters]);
    const owed = this.owed;
    this.owed = [];
    if (this.transaction === 'owed') this.transaction = 'sent';
    // One write for all of them (pg writes each query on its own otherwise); the pool's clients
    // pipeline, so none waits for the answer of the one before.
    const stream = this.client.connection.stream;
    stream.cork();
    const answers = [...owed, query].map((each) => this.client.query(each.sql, [...each.parameters]));
    stream.uncork();
    const settled = await Promise.allSettled(answers);
    // The first failure is the cause: after it PostgreSQL refuses the rest of the transaction.
    const failed = settled.find((answer) => answer.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return (settled.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value;
  }
}

function toResult<R>({ command, rowCount, rows }: pg.QueryResult): QueryResult<R> {
  return {
    numAffectedRows: COMMANDS_WITH_ROW_COUNT.has(command) ? BigInt(rowCount ?? 0) : undefined,
    rows: (rows ?? []) as R[],
  };
}
