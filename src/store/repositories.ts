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
    this.blocks = new BlockStore(db);
    this.runs = new RunStore(db, dialect);
    this.definitions = new DefinitionStore(db);
    this.tenants = new TenantStore(db);
  }

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new Repositories(trx, this.dialect, true)));
  }
}
