import type { DialectName } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { BlockUnit } from '../block/lifecycle.js';
import type { EventDraft } from '../eventlog/model.js';
import { BlockStore } from '../block/store.js';
import { DefinitionStore } from '../definition/store.js';
import { RunnerStore } from '../runner/store.js';
import { TenantStore } from '../tenant/store.js';
import { RunStore } from './store.js';

/** A block's unit of work with the run store itself (what runs need beyond the lifecycle: claims, steps) and the runners' (a claim marks its runner seen). */
export interface RunUnit extends BlockUnit {
  runs: RunStore;
  runners: RunnerStore;
}

/** The stores of a block's or run's change, bound to one connection or transaction. */
export function runUnit(db: Db, dialect: DialectName, events: EventDraft[] = []): RunUnit {
  return {
    blocks: new BlockStore(db, dialect),
    runs: new RunStore(db, dialect),
    runners: new RunnerStore(db),
    definitions: new DefinitionStore(db),
    tenants: new TenantStore(db),
    events,
  };
}
