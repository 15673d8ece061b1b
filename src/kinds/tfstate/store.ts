import { dialectOf } from '../../store/database.js';
import type { TerraformStateTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';

export type StateRow = TerraformStateTable;

/** The `terraform_states` table: one row per block that has (had) a state or a lock. */
export class TerraformStateStore {
  constructor(private readonly db: Db) {}

  find(blockUuid: string): Promise<StateRow | undefined> {
    return this.db.selectFrom('terraform_states').selectAll().where('block_uuid', '=', blockUuid).executeTakeFirst();
  }

  /**
   * The block's row inside a writing transaction, made first when missing: concurrent first writers
   * (two `terraform apply` taking the lock) then queue on the one row instead of both inserting.
   */
  async claim(blockUuid: string, now: string): Promise<StateRow> {
    await this.db
      .insertInto('terraform_states')
      .values({ block_uuid: blockUuid, state: null, state_bytes: 0, lock_id: null, lock_info: null, updated_on: now })
      .onConflict((conflict) => conflict.column('block_uuid').doNothing())
      .execute();
    const query = this.db.selectFrom('terraform_states').selectAll().where('block_uuid', '=', blockUuid);
    return (dialectOf(this.db) === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
  }

  async update(row: StateRow): Promise<void> {
    const { block_uuid: blockUuid, ...values } = row;
    await this.db.updateTable('terraform_states').set(values).where('block_uuid', '=', blockUuid).execute();
  }
}
