import { sql, type Selectable } from 'kysely';
import type { DialectName } from './database.js';
import type { SigningKeyTable } from './schema.js';
import { inTransaction, type Db } from './transaction.js';

export type SigningKeyRow = Selectable<SigningKeyTable>;

/** Any number: the advisory lock of signing-key rotations on PostgreSQL. */
const ROTATION_LOCK = 0x5167_4b31;

/** The `signing_keys` table: the embedded identity provider's token signing keys (auth/tokens.ts). */
export class SigningKeyStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  all(): Promise<SigningKeyRow[]> {
    return this.db.selectFrom('signing_keys').selectAll().orderBy('created_on').orderBy('kid').execute();
  }

  /**
   * Runs `work` with the keys as they are, one rotation at a time across instances (an advisory lock on
   * PostgreSQL; SQLite runs one write transaction at a time), so concurrent rotations see each other.
   */
  exclusively<T>(work: (keys: SigningKeyStore) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${ROTATION_LOCK})`.execute(trx);
      return work(new SigningKeyStore(trx, this.dialect));
    });
  }

  async insert(row: Omit<SigningKeyRow, 'retired_on'>): Promise<void> {
    await this.db
      .insertInto('signing_keys')
      .values({ ...row, retired_on: null })
      .execute();
  }

  /** Retires every key but `kid` that is not retired yet; answers their kids. */
  async retireAllBut(kid: string, at: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('signing_keys')
      .set({ retired_on: at })
      .where('kid', '!=', kid)
      .where('retired_on', 'is', null)
      .returning('kid')
      .execute();
    return rows.map((row) => row.kid);
  }
}
