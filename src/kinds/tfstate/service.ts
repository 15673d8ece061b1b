import type { SecretBox } from '../../crypto/secret-box.js';
import { inTransaction, type Db } from '../../store/transaction.js';
import { TerraformStateStore, type StateRow } from './store.js';

/** Terraform's lock info (its HTTP backend sends and expects it as JSON); `ID` names the lock. */
export type LockInfo = Record<string, unknown> & { ID?: unknown };

/** What a write that needs the lock got: done, or the lock someone else holds. */
export type Locked = { held: LockInfo };

const lockOf = (row: StateRow | undefined): LockInfo | undefined => (row?.lock_info ? (JSON.parse(row.lock_info) as LockInfo) : undefined);

/**
 * A building block's Terraform state, as Terraform's HTTP backend reads, writes and locks it: the
 * state sealed at rest (its outputs and attributes hold secrets), the lock a second `terraform apply`
 * waits on. Who may do this is AuthorizedTerraformStateService's; here is only the protocol. Writes
 * carry no event: a state is the runner's working data, never content for the event log.
 */
export class TerraformStateService {
  private readonly store: TerraformStateStore;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.store = new TerraformStateStore(db);
  }

  /** The state as it was written, or undefined when there is none. */
  async read(blockUuid: string): Promise<string | undefined> {
    const row = await this.store.find(blockUuid);
    return row?.state ? this.secrets.decrypt(row.state) : undefined;
  }

  /** Writes the state; while a lock is held, only with its id (`?ID=` of Terraform's POST). */
  write(blockUuid: string, state: string, lockId: string | undefined): Promise<Locked | undefined> {
    return this.underLock(blockUuid, lockId, (row) => ({
      ...row,
      state: this.secrets.encrypt(state),
      state_bytes: Buffer.byteLength(state),
    }));
  }

  /** Removes the state (Terraform's DELETE: `terraform workspace delete`); a held lock stays as it is. */
  remove(blockUuid: string, lockId: string | undefined): Promise<Locked | undefined> {
    return this.underLock(blockUuid, lockId, (row) => ({ ...row, state: null, state_bytes: 0 }));
  }

  /** Takes the lock, or answers who holds it. */
  lock(blockUuid: string, info: LockInfo): Promise<Locked | undefined> {
    return this.withRow(blockUuid, (row, held) =>
      held ? { held } : { ...row, lock_id: String(info.ID ?? ''), lock_info: JSON.stringify(info) },
    );
  }

  /** Releases the lock with its id; unlocked already is fine; another id answers who holds it. */
  unlock(blockUuid: string, info: LockInfo): Promise<Locked | undefined> {
    return this.withRow(blockUuid, (row, held) => {
      if (!held) return undefined;
      if (info.ID !== undefined && String(info.ID) !== row.lock_id) return { held };
      return { ...row, lock_id: null, lock_info: null };
    });
  }

  /** A change of the state, refused while another client holds the lock. */
  private underLock(blockUuid: string, lockId: string | undefined, change: (row: StateRow) => StateRow): Promise<Locked | undefined> {
    return this.withRow(blockUuid, (row, held) => (held && lockId !== row.lock_id ? { held } : change(row)));
  }

  /**
   * One turn on the block's row in its own transaction: `decide` answers the new row, who holds the
   * lock (nothing is written), or nothing to do.
   */
  private withRow(
    blockUuid: string,
    decide: (row: StateRow, held: LockInfo | undefined) => StateRow | Locked | undefined,
  ): Promise<Locked | undefined> {
    return inTransaction(this.db, async (trx) => {
      const store = new TerraformStateStore(trx);
      const now = new Date().toISOString();
      const row = await store.claim(blockUuid, now);
      const decided = decide(row, lockOf(row));
      if (decided === undefined || 'held' in decided) return decided;
      await store.update({ ...decided, updated_on: now });
      return undefined;
    });
  }
}
