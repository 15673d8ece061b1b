import { isExpression, sql, type AliasedExpression, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { Db } from '../../store/transaction.js';

/** A row as the generic store reads and writes it: column → value. */
export type Row = Record<string, unknown>;

/** One condition of a filter: the column equals the value (`null`: the column is unset), or a SQL condition (its key only names it). */
export type Condition = string | number | null | undefined | Expression<SqlBool>;

/** Conditions that all hold, e.g. `{ owned_by_workspace: 'dev', deleted_on: null }`; undefined values are no condition. */
export type ColumnFilter = Readonly<Record<string, Condition>>;

/** What every CRUD kind's object carries: its creation time (column `created_on`; lists are in creation order, then by key). */
export interface Created {
  readonly createdOn: string;
}

/** A kind's row as its `toRow` writes it: every column of its table but `created_on`, which the store writes. */
export type StoredRow<Table> = Omit<Selectable<Table>, 'created_on'>;

/** One kind's table as the generic store sees it: its key and how an object is a row. */
export interface CrudTable<T extends Created> {
  readonly table: string;
  /** The key column, named as the object's identifier field (`name`, `uuid`): paths and bodies name the object by it. */
  readonly key: keyof T & string;
  /** Columns computed in the same query as the row (no per-row lookups for a list). */
  readonly computed?: readonly AliasedExpression<unknown, string>[];
  /** Conditions every list carries: rows outside them (soft-deleted ones) are still read by key. */
  readonly listed?: ColumnFilter;
  /** The stored columns but `created_on` (not the computed ones). */
  toRow(object: T): Row;
  /** The object of a row, but its `createdOn`. */
  fromRow(row: Row): Omit<T, 'createdOn'>;
}

/** The object's identifier: its key field. */
export const idOf = <T extends Created>(table: CrudTable<T>, object: T): string => String(object[table.key]);

/**
 * The storage of a CRUD-shaped kind: one table, one key. The kind's table type is declared in its
 * folder; this store reaches it by name, so it is untyped here and typed at the kind's row codec.
 */
export class CrudStore<T extends Created> {
  private readonly db: Kysely<Record<string, Row>>;

  constructor(
    db: Db,
    private readonly shape: CrudTable<T>,
  ) {
    this.db = db as unknown as Kysely<Record<string, Row>>;
  }

  private where(filter: ColumnFilter) {
    let query = this.db.selectFrom(this.shape.table);
    for (const [column, condition] of Object.entries(filter)) {
      if (condition === undefined) continue;
      if (condition === null) query = query.where(sql.ref(column), 'is', null);
      else if (isExpression(condition)) query = query.where(condition);
      else query = query.where(sql.ref(column), '=', condition);
    }
    return query;
  }

  private columns(query: ReturnType<CrudStore<T>['where']>) {
    const rows = query.selectAll(this.shape.table);
    return this.shape.computed ? rows.select(this.shape.computed) : rows;
  }

  private objectOf(row: Row): T {
    return { ...this.shape.fromRow(row), createdOn: String(row.created_on) } as unknown as T;
  }

  private rowOf(object: T): Row {
    return { ...this.shape.toRow(object), created_on: object.createdOn };
  }

  find(id: string): Promise<T | undefined> {
    return this.findBy({ [this.shape.key]: id });
  }

  /** The row meeting the filter (by another unique column than the key). */
  async findBy(filter: ColumnFilter): Promise<T | undefined> {
    const row = await this.columns(this.where(filter)).executeTakeFirst();
    return row ? this.objectOf(row) : undefined;
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.where({ [this.shape.key]: id })
      .select(sql<number>`1`.as('one'))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every row meeting the filter, unpaged, in this order (for the few rows one lookup needs). */
  async select(filter: ColumnFilter, orderBy: readonly string[] = ['created_on', this.shape.key]): Promise<T[]> {
    let query = this.columns(this.where(filter));
    for (const column of orderBy) query = query.orderBy(sql.ref(column));
    return (await query.execute()).map((row) => this.objectOf(row));
  }

  /** One page of the rows meeting the filter and the table's `listed` conditions, in creation order, then by key. */
  async list(filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    const { rows, total } = await fetchPage(
      this.where({ ...this.shape.listed, ...filter }),
      (query) => this.columns(query).orderBy(sql.ref('created_on')).orderBy(sql.ref(this.shape.key)),
      page,
    );
    return { items: rows.map((row) => this.objectOf(row)), total };
  }

  async insert(object: T): Promise<void> {
    await this.db.insertInto(this.shape.table).values(this.rowOf(object)).execute();
  }

  /** Writes every stored column but the key and the creation time. */
  async update(object: T): Promise<void> {
    const { [this.shape.key]: _key, ...changed } = this.shape.toRow(object);
    await this.db.updateTable(this.shape.table).set(changed).where(sql.ref(this.shape.key), '=', idOf(this.shape, object)).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom(this.shape.table).where(sql.ref(this.shape.key), '=', id).execute();
  }
}
