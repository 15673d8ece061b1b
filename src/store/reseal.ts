import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { Tables } from './schema.js';
import { inTransaction, type Db } from './transaction.js';

/**
 * Every column that holds values sealed under the master key: `sealed` columns hold one sealed value,
 * `json` columns JSON documents with sealed secrets `{hash, ciphertext}` anywhere inside. A new place
 * that seals must be added here, or a master-key rotation leaves it behind (test/master-key.test.ts
 * scans the whole database for values the rotation missed).
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'keyring', key: ['name'], column: 'value_encrypted', holds: 'sealed' },
  { table: 'signing_keys', key: ['kid'], column: 'private_jwk_encrypted', holds: 'sealed' },
  { table: 'platforms', key: ['uuid'], column: 'document', holds: 'json' },
  { table: 'definition_versions', key: ['uuid'], column: 'document', holds: 'json' },
  { table: 'building_blocks', key: ['uuid'], column: 'document', holds: 'json' },
  { table: 'building_blocks', key: ['uuid'], column: 'outputs', holds: 'json' },
  { table: 'runs', key: ['uuid'], column: 'document', holds: 'json' },
  { table: 'runs', key: ['uuid'], column: 'outputs', holds: 'json' },
  { table: 'run_steps', key: ['run_uuid', 'source_id', 'step_id'], column: 'outputs', holds: 'json' },
  { table: 'integrations', key: ['uuid'], column: 'document', holds: 'json' },
  { table: 'terraform_states', key: ['block_uuid'], column: 'state', holds: 'sealed' },
];

export interface SealedColumn {
  table: keyof Tables;
  /** The primary key, in order (batches are pages of it). */
  key: readonly string[];
  column: string;
  holds: 'sealed' | 'json';
}

/** What a transformation did to one stored text. */
export interface Resealing {
  /** The new text; undefined when nothing changed. */
  text: string | undefined;
  resealed: number;
  unreadable: number;
}

export interface ResealReport {
  /** Rows written. */
  rows: number;
  /** Sealed values re-encrypted. */
  values: number;
  /** Rows holding values no configured master key opens (left as they are): `table column key…`. */
  unreadable: string[];
}

/**
 * Applies `reseal` to every stored value of SEALED_COLUMNS, in pages of `batchSize` rows by primary
 * key, each page read (locked, on PostgreSQL) and written in one transaction, so it runs beside
 * serving instances; rows that `reseal` leaves alone are not written. Safe to run again: a second run
 * finds nothing to do.
 */
export async function resealColumns(
  db: Db,
  dialect: DialectName,
  reseal: (text: string, holds: SealedColumn['holds']) => Resealing,
  batchSize: number,
  progress?: (column: SealedColumn, report: ResealReport) => void,
): Promise<ResealReport> {
  const total: ResealReport = { rows: 0, values: 0, unreadable: [] };
  for (const column of SEALED_COLUMNS) {
    const report: ResealReport = { rows: 0, values: 0, unreadable: [] };
    let after: unknown[] | undefined;
    for (;;) {
      const page = await inTransaction(db, async (trx) => {
        const { rows } = await selectPage(column, after, batchSize, dialect).execute(trx);
        for (const row of rows) {
          const text = row.value as string | null;
          // A nullable column (a Terraform state row that holds only a lock) has nothing to reseal.
          if (text === null) continue;
          const result = reseal(text, column.holds);
          const key = column.key.map((name) => row[name]);
          if (result.unreadable > 0) report.unreadable.push(`${column.table} ${column.column} ${key.join(' ')}`);
          if (result.text === undefined || result.text === text) continue;
          const where = sql.join(
            column.key.map((name, i) => sql`${sql.ref(name)} = ${key[i]}`),
            sql` and `,
          );
          await sql`update ${sql.table(column.table)} set ${sql.ref(column.column)} = ${result.text} where ${where}`.execute(trx);
          report.rows++;
          report.values += result.resealed;
        }
        return rows;
      });
      if (page.length === 0) break;
      const last = page[page.length - 1]!;
      after = column.key.map((name) => last[name]);
      if (page.length < batchSize) break;
    }
    progress?.(column, report);
    total.rows += report.rows;
    total.values += report.values;
    total.unreadable.push(...report.unreadable);
  }
  return total;
}

function selectPage(
  column: SealedColumn,
  after: unknown[] | undefined,
  batchSize: number,
  dialect: DialectName,
): RawBuilder<Record<string, unknown>> {
  const key = sql.join(column.key.map((name) => sql.ref(name)));
  const conditions = [
    ...(after ? [sql`(${key}) > (${sql.join(after)})`] : []),
    // Only documents that can hold a sealed secret at all.
    ...(column.holds === 'json' ? [sql`${sql.ref(column.column)} like ${'%"ciphertext"%'}`] : []),
  ];
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const lock = dialect === 'postgres' ? sql`for update` : sql``;
  return sql<
    Record<string, unknown>
  >`select ${key}, ${sql.ref(column.column)} as value from ${sql.table(column.table)} ${where} order by ${key} limit ${batchSize} ${lock}`;
}
