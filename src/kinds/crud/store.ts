import { sql, type AliasedExpression, type Kysely } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { Db } from '../../store/transaction.js';

/** A row as the generic store reads and writes it: column → value. */
export type Row = Record<string, unknown>;

/** One kind's table as the generic store sees it: its key and how an object is a row. */
export interface CrudTable<T> {
  readonly table: string;
  /** The key column (the object's identifier in paths and bodies). */
  readonly key: string;
  /** The column of the creation time: lists are in creation order, then by key. */
  readonly createdOn: string;
  /** Columns computed in the same query as the row (no per-row lookups for a list). */
  readonly computed?: readonly AliasedExpression<unknown, string>[];
  idOf(object: T): string;
  /** The stored columns (not the computed ones). */
  toRow(object: T): Row;
  fromRow(row: Row): T;
}

/** Equality conditions on columns, e.g. `{ owned_by_workspace: 'dev' }`; undefined values are no condition. */
export type ColumnFilter = Readonly<Record<string, string | undefined>>;

/**
 * The storage of a CRUD-shaped kind: one table, one key. The kind's table type is declared in its
 * folder; this store reaches it by name, so it is untyped here and typed at the kind's row codec.
 */
export class CrudStore<T> {
  private readonly db: Kysely<Record<string, Row>>;

  constructor(
    db: Db,
    private readonly shape: CrudTable<T>,
  ) {
    this.db = db as unknown as Kysely<Record<string, Row>>;
  }

  private rows() {
    const query = this.db.selectFrom(this.shape.table).selectAll(this.shape.table);
    return this.shape.computed ? query.select(this.shape.computed) : query;
  }

  async find(id: string): Promise<T | undefined> {
    const row = await this.rows().where(sql.ref(this.shape.key), '=', id).executeTakeFirst();
    return row ? this.shape.fromRow(row) : undefined;
  }

  async list(filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    let query = this.db.selectFrom(this.shape.table);
    for (const [column, value] of Object.entries(filter)) if (value !== undefined) query = query.where(sql.ref(column), '=', value);
    const { rows, total } = await fetchPage(
      query,
      (q) => {
        const rows = q.selectAll(this.shape.table);
        return (this.shape.computed ? rows.select(this.shape.computed) : rows)
          .orderBy(sql.ref(this.shape.createdOn))
          .orderBy(sql.ref(this.shape.key));
      },
      page,
    );
    return { items: rows.map((row) => this.shape.fromRow(row)), total };
  }

  async insert(object: T): Promise<void> {
    await this.db.insertInto(this.shape.table).values(this.shape.toRow(object)).execute();
  }

  async update(object: T): Promise<void> {
    const { [this.shape.key]: _key, [this.shape.createdOn]: _created, ...changed } = this.shape.toRow(object);
    await this.db.updateTable(this.shape.table).set(changed).where(sql.ref(this.shape.key), '=', this.shape.idOf(object)).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom(this.shape.table).where(sql.ref(this.shape.key), '=', id).execute();
  }
}
