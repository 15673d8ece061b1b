import type { Kysely } from 'kysely';
import type { Tables } from './schema.js';

/** The query layer, bound to the database or to one transaction. */
export type Db = Kysely<Tables>;

const RETRIED = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

/**
 * The one transaction helper: runs `work` in a transaction, or inside the caller's when `db` is one
 * already (a unit of work calling another joins it). On PostgreSQL two transactions can lock the same
 * rows in opposite orders (a claim takes the run first, a delete the block); the database breaks the
 * deadlock by failing one, which is retried here, as are serialization failures. `work` must be safe
 * to run again: it starts from what it reads inside the transaction.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute((trx) => work(trx));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === undefined || !RETRIED.has(code) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
