import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable, type MissingReference } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventCodec } from '../codec.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { ReferenceGraph } from '../references.js';
import { CrudStore, type ColumnFilter, type CrudTable } from './store.js';

/**
 * What a CRUD-shaped kind's rules are, given to the generic service (the Kubernetes API server's
 * "strategy"): how an input becomes the stored object, what a write must check first, and what the
 * kind's events are.
 */
export interface CrudStrategy<T, Input> {
  /** The wire kind, for messages: `meshGadget`. */
  readonly kind: string;
  /** Its name in the reference graph: what other kinds' references name (`to`). */
  readonly reference: string;
  /** The import's result code when a body names one that does not exist. */
  readonly missing?: MissingReference;
  readonly table: CrudTable<T>;
  readonly events: { readonly created: EventTitle; readonly changed: EventTitle; readonly deleted: EventTitle };
  /** What its events carry. */
  readonly eventCodec: EventCodec<T>;
  /** The workspace its events are filed under (their readers). */
  workspaceOf(object: T): string | undefined;
  /** The object a create stores. */
  prepareForCreate(input: Input): T;
  /** The object an update stores (`existing` keeps what the input does not set). */
  prepareForUpdate(existing: T, input: Input): T;
  /** Checks what a write names (other kinds' objects exist): a 422 naming the field. */
  validate?(input: Input, existing?: T): Promise<void>;
}

/** The plain service of a CRUD-shaped kind: its rules from the strategy, no notion of who asks. */
export class CrudService<T, Input> {
  private readonly store: CrudStore<T>;

  constructor(
    private readonly db: Db,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
    private readonly strategy: CrudStrategy<T, Input>,
  ) {
    this.store = new CrudStore(db, strategy.table);
  }

  private subject(object: T) {
    const { table, eventCodec } = this.strategy;
    return { codec: eventCodec, id: table.idOf(object), workspace: this.strategy.workspaceOf(object), object };
  }

  find(id: string): Promise<T | undefined> {
    return this.store.find(id);
  }

  /** 422 naming the field when a body names one that does not exist (for kinds every caller sees). */
  async requireExists(id: string, field: string): Promise<void> {
    if ((await this.store.find(id)) === undefined)
      throw unprocessable(`${field}: ${this.strategy.kind} "${id}" does not exist`, this.strategy.missing ?? 'OTHER');
  }

  list(filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    return this.store.list(filter, page);
  }

  async create(ctx: RequestContext, input: Input): Promise<T> {
    await this.strategy.validate?.(input);
    const object = this.strategy.prepareForCreate(input);
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new CrudStore(trx, this.strategy.table).insert(object);
        events.push(eventOf(this.strategy.events.created, this.subject(object)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`${this.strategy.kind} ${this.strategy.table.idOf(object)} already exists`);
      throw error;
    }
    return object;
  }

  /** A write that changes nothing writes nothing (and no event). */
  async update(ctx: RequestContext, existing: T, input: Input): Promise<T> {
    await this.strategy.validate?.(input, existing);
    const object = this.strategy.prepareForUpdate(existing, input);
    if (!differs(existing, object)) return object;
    await this.events.change(ctx, async (trx, events) => {
      await new CrudStore(trx, this.strategy.table).update(object);
      events.push(eventOf(this.strategy.events.changed, { ...this.subject(object), previous: existing }));
    });
    return object;
  }

  /** 409 while other kinds' objects hold it (their declared references); what goes with it goes in the same transaction. */
  async delete(ctx: RequestContext, existing: T): Promise<void> {
    const id = this.strategy.table.idOf(existing);
    await this.events.change(ctx, async (trx, events) => {
      const holding = await this.references.holding(trx, this.strategy.reference, [id]);
      if (holding.length > 0) throw conflict(`${this.strategy.kind} ${id} still has ${holding.join(', ')}; delete them first`);
      await this.references.cascade(trx, this.strategy.reference, [id], events);
      await new CrudStore(trx, this.strategy.table).delete(id);
      events.push(eventOf(this.strategy.events.deleted, this.subject(existing)));
    });
  }
}
