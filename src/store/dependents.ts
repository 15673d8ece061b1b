import { sql, type Kysely } from 'kysely';
import type { Tables } from './schema.js';

/**
 * "Still referenced by …": the rows of other kinds that point at an object and keep it from being
 * deleted (409). Each kind lists its dependents declaratively; later kinds add rows here.
 */
export interface Dependent {
  /** Plural kind name used in the message, e.g. `meshProjects`. */
  kind: string;
  table: keyof Tables;
  /** Columns that together hold the reference, in the order of the referenced key's values. */
  columns: readonly string[];
  /** Soft-deleted rows (this column set) do not count. */
  unlessSet?: string;
}

/** `["2 meshProjects", "1 meshPlatforms"]` for the dependents that exist, or `[]`. */
export async function findDependents(db: Kysely<Tables>, dependents: readonly Dependent[], key: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dependent of dependents) {
    const conditions = dependent.columns.map((column, index) => sql`${sql.ref(column)} = ${key[index]}`);
    if (dependent.unlessSet) conditions.push(sql`${sql.ref(dependent.unlessSet)} is null`);
    const { rows } = await sql<{ total: number | string }>`select count(*) as total from ${sql.table(dependent.table)} where ${sql.join(conditions, sql` and `)}`.execute(db);
    const total = Number(rows[0]?.total ?? 0);
    if (total > 0) found.push(`${total} ${dependent.kind}`);
  }
  return found;
}
