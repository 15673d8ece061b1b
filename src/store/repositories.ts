import type { Kysely } from 'kysely';
import { BlockStore } from '../kinds/block/store.js';
import { DefinitionStore } from '../kinds/definition/store.js';
import { TenantStore } from '../kinds/tenant/store.js';
import { RunStore } from '../runs/store.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';

/**
 * The stores the building block lifecycle writes together, bound to one connection or transaction:
 * `transaction(work)` runs `work` with stores bound to a transaction, so a block, its runs and its
 * status change commit together or not at all.
 */
export class Repositories {
  readonly blocks: BlockStore;
  readonly runs: RunStore;
  readonly definitions: DefinitionStore;
  readonly tenants: TenantStore;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Database['dialect'],
    private readonly inTransaction = false,
  ) {
    this.blocks = new BlockStore(db, dialect);
    this.runs = new RunStore(db, dialect);
    this.definitions = new DefinitionStore(db);
    this.tenants = new TenantStore(db);
  }

  /**
   * Runs `work` in a transaction. On PostgreSQL two lifecycle transactions can lock the same block and
   * run in opposite orders (a claim takes the run first, a delete the block): the database breaks the
   * deadlock by failing one, which is retried here (as are serialization failures).
   */
  async transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute((trx) => work(new Repositories(trx, this.dialect, true)));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code !== '40P01' && code !== '40001') || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }
}
