import {
  SelectQueryNode,
  type Compilable,
  type CompiledQuery,
  type DialectAdapter,
  type Insertable,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { unanswered } from './pg-pipeline.js';
import type { Tables } from './schema.js';
import { inUnitOfWork } from './transaction.js';

/** What a query's parameters may be: the values the stores bind. */
export type QueryArgument = string | number | null;

interface Entry {
  compiled: CompiledQuery;
  /** For each parameter of the compiled query, the index of the argument it takes. */
  slots: number[];
}

/**
 * The shapes compiled so far, per database and store. Keyed by the database's adapter, which its
 * transactions share: the stores of a unit of work are made per transaction, and would otherwise
 * compile every shape again each time.
 */
const compiledByDatabase = new WeakMap<DialectAdapter, Map<string, Map<string, Entry | null>>>();

/** A database's synchronous read of a compiled SELECT outside any transaction. */
export type DirectRead = (query: CompiledQuery) => QueryResult<unknown>;

/** The direct reads of the databases that have one (SQLite's reader), keyed as the compiled shapes. */
const directReads = new WeakMap<DialectAdapter, DirectRead>();

/**
 * Reads that `db`'s driver would answer at once on a connection of their own (SQLite's reader, outside
 * any transaction) are asked of `read` directly. Kysely's way there (its connection provider, the
 * unit-of-work driver, a session object per read, each an `await`) is a few percent of a GET block
 * (docs/benchmarks.md).
 */
export function readDirectly(db: Kysely<Tables>, read: DirectRead): void {
  directReads.set(db.getExecutor().adapter, read);
}

/**
 * Builds and compiles each query shape once. Kysely builds an operation tree and compiles it to SQL
 * on every call; on hot paths (a block by uuid, a list page, a status report) that costs more than
 * SQLite's own work. A shape is compiled with sentinel arguments, so the positions of the arguments
 * among the compiled parameters are known and later calls only swap the values in.
 */
export class CompiledQueries {
  private readonly cache: Map<string, Entry | null>;
  private readonly directRead: DirectRead | undefined;

  /** `store` names the store the shapes belong to: a shape's name is unique within it. */
  constructor(
    private readonly db: Kysely<Tables>,
    store: string,
  ) {
    const adapter = db.getExecutor().adapter;
    let stores = compiledByDatabase.get(adapter);
    if (!stores) compiledByDatabase.set(adapter, (stores = new Map()));
    let cache = stores.get(store);
    if (!cache) stores.set(store, (cache = new Map()));
    this.cache = cache;
    this.directRead = directReads.get(adapter);
  }

  async execute<R, A extends readonly QueryArgument[]>(shape: string, args: A, build: (...args: A) => Compilable<R>): Promise<R[]> {
    const compiled = this.compiled(shape, args, build);
    // A transaction's reads, and a unit of work's, must see its own writes: its connection answers them.
    if (this.directRead && !this.db.isTransaction && SelectQueryNode.is(compiled.query) && !inUnitOfWork())
      return this.directRead(compiled).rows as R[];
    return (await this.db.executeQuery(compiled)).rows;
  }

  /**
   * Like `execute`, for a write whose answer is not read: inside a PostgreSQL transaction it goes with
   * the next statement (store/pg-pipeline.ts), whose failure it becomes if it fails.
   */
  async send<A extends readonly QueryArgument[]>(shape: string, args: A, build: (...args: A) => Compilable<unknown>): Promise<void> {
    await this.db.executeQuery(unanswered(this.compiled(shape, args, build)));
  }

  private compiled<R, A extends readonly QueryArgument[]>(shape: string, args: A, build: (...args: A) => Compilable<R>): CompiledQuery<R> {
    let entry = this.cache.get(shape);
    if (entry === undefined) {
      // A null argument gets a string sentinel: a bound parameter either way.
      const sentinels = args.map((arg, index) => (typeof arg === 'number' ? 987_654_321 + index : `\u0000arg${index}\u0000`));
      const compiled = build(...(sentinels as unknown as A)).compile();
      // By a map, not indexOf: a multi-row insert has thousands of parameters.
      const positions = new Map<unknown, number>(sentinels.map((sentinel, index) => [sentinel, index]));
      const slots = compiled.parameters.map((parameter) => positions.get(parameter) ?? -1);
      // A parameter that is no argument (a constant in the query): this shape is not cacheable.
      entry = slots.every((slot) => slot >= 0) ? { compiled, slots } : null;
      if (this.cache.size >= 500) this.cache.clear();
      this.cache.set(shape, entry);
    }
    if (entry === null) return build(...args).compile();
    const { compiled, slots } = entry;
    return { ...compiled, parameters: slots.map((slot) => args[slot]) } as CompiledQuery<R>;
  }

  /**
   * Inserts rows into `table` in one statement, compiled once per number of rows (a create inserts
   * one; an import saves runs of up to 250, and building such an insert with Kysely cost more than
   * SQLite's work on it). The shape fixes the columns: every row has the first row's. Its answer is
   * not read (`send`).
   */
  async insertRows<T extends keyof Tables & string>(
    shape: string,
    table: T,
    rows: readonly { [C in keyof Insertable<Tables[T]>]: QueryArgument }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!) as (keyof (typeof rows)[number])[];
    const args = rows.flatMap((row) => columns.map((column) => row[column]));
    await this.send(`${shape}:${rows.length}`, args, (...values) =>
      this.db
        .insertInto(table)
        .values(
          rows.map(
            (_, index) =>
              Object.fromEntries(columns.map((column, offset) => [column, values[index * columns.length + offset]])) as Insertable<
                Tables[T]
              >,
          ),
        ),
    );
  }
}
