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
    return this.underLock(blockUuid, lockId, (row, now) => ({ ...row, state: this.secrets.encrypt(state), state_bytes: Buffer.byteLength(state), updated_on: now }));
  }

  /** Removes the state (Terraform's DELETE: `terraform workspace delete`); a held lock stays as it is. */
  remove(blockUuid: string, lockId: string | undefined): Promise<Locked | undefined> {
    return this.underLock(blockUuid, lockId, (row, now) => ({ ...row, state: null, state_bytes: 0, updated_on: now }));
  }

  /** Takes the lock, or answers who holds it. */
  lock(blockUuid: string, info: LockInfo): Promise<Locked | undefined> {
    return inTransaction(this.db, async (trx) => {
      const store = new TerraformStateStore(trx);
      const now = new Date().toISOString();
      const row = await store.claim(blockUuid, now);
      const held = lockOf(row);
      if (held) return { held };
      await store.update({ ...row, lock_id: String(info.ID ?? ''), lock_info: JSON.stringify(info), updated_on: now });
      return undefined;
    });
  }

  /** Releases the lock with its id; unlocked already is fine; another id answers who holds it. */
  unlock(blockUuid: string, info: LockInfo): Promise<Locked | undefined> {
    return inTransaction(this.db, async (trx) => {
      const store = new TerraformStateStore(trx);
      const now = new Date().toISOString();
      const row = await store.claim(blockUuid, now);
      const held = lockOf(row);
      if (!held) return undefined;
      if (info.ID !== undefined && String(info.ID) !== row.lock_id) return { held };
      await store.update({ ...row, lock_id: null, lock_info: null, updated_on: now });
      return undefined;
    });
  }

  private underLock(blockUuid: string, lockId: string | undefined, change: (row: StateRow, now: string) => StateRow): Promise<Locked | undefined> {
    return inTransaction(this.db, async (trx) => {
      const store = new TerraformStateStore(trx);
      const now = new Date().toISOString();
      const row = await store.claim(blockUuid, now);
      const held = lockOf(row);
      if (held && lockId !== row.lock_id) return { held };
      await store.update(change(row, now));
      return undefined;
    });
  }
}
