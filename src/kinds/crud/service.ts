import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable, type MissingReference } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventCodec } from '../codec.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { ReferenceGraph } from '../references.js';
import { CrudStore, idOf, type ColumnFilter, type Created, type CrudTable } from './store.js';

/** Which of its events a change records. */
export type CrudChange = 'created' | 'changed' | 'deleted';

/**
 * What a CRUD-shaped kind's rules are, given to the generic service (the Kubernetes API server's
 * "strategy"): how an input becomes the stored object, what a write must check first, what a
 * deletion does and what the kind's events are. A write runs its hooks in this order: `admit`,
 * `validate`, `prepareFor…`, then in its transaction `beforeInsert`/`beforeUpdate`, the row, the event.
 */
export interface CrudStrategy<T extends Created, Input> {
  /** The wire kind, for messages: `meshGadget`. */
  readonly kind: string;
  /**
   * Its name in the reference graph (what other kinds' references name in `to`), when other objects
   * may hold it: a deletion is refused while they do, and what cascades goes with it.
   */
  readonly reference?: string;
  /** The import's result code when a body names one that does not exist. */
  readonly missing?: MissingReference;
  readonly table: CrudTable<T>;
  readonly events: { readonly created: EventTitle; readonly changed: EventTitle; readonly deleted: EventTitle };
  /** What its events carry. */
  readonly eventCodec: EventCodec<T>;
  /** The workspace its events are filed under (their readers); none: the admins'. */
  workspaceOf?(object: T): string | undefined;
  /** An event's description when it is not the generated `<kind> <id> was <change>`. */
  describe?(object: T, change: CrudChange): string;
  /** Completes what a write sends, knowing who sends it (tags a non-admin may not set: 400). */
  admit?(ctx: RequestContext, input: Input, existing?: T): Promise<Input>;
  /** Checks what a write sends: what it names exists (422 naming the field), what may not change (400, 409). */
  validate?(input: Input, existing?: T): Promise<void> | void;
  /** The object a create stores. */
  prepareForCreate(input: Input): T;
  /** The object an update stores (`existing` keeps what the input does not set). */
  prepareForUpdate(existing: T, input: Input): T;
  /** Checks in the create's transaction before the insert (a second unique name: 409). */
  beforeInsert?(store: CrudStore<T>, object: T): Promise<void>;
  /** Checks in the update's transaction before the row is written. */
  beforeUpdate?(store: CrudStore<T>, object: T, existing: T): Promise<void>;
  /** The 409's message when a write breaks a unique constraint (a create's: `<kind> <id> already exists`; an update's error passes unless given). */
  duplicate?(object: T, write: 'create' | 'update'): string | undefined;
  /** An update that changes nothing still writes the row and records its event (otherwise it writes nothing). */
  readonly writeUnchanged?: boolean;
  /**
   * A deletion keeps the row: the object it leaves (soft-deleted, deactivated; its event carries this
   * one), or undefined when there is nothing left to do. May refuse (409).
   */
  retire?(existing: T): T | undefined;
  /** The 409's message while other objects hold it (`holding`: `2 meshProjects, 1 meshPlatforms`). */
  stillHeld?(id: string, holding: string): string;
  /** What holds it when the database refuses the deletion (a foreign key), for `stillHeld`. */
  readonly heldByForeignKey?: string;
  /**
   * Work of a deletion in its transaction before the row goes (refusals, what other rows lose with
   * it); a sentence it answers is added to the event's description.
   */
  beforeDelete?(trx: Db, existing: T, references: ReferenceGraph): Promise<string | void>;
}

/** The plain service of a CRUD-shaped kind: its rules from the strategy, no notion of who asks. */
export class CrudService<T extends Created, Input> {
  private readonly store: CrudStore<T>;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
    private readonly strategy: CrudStrategy<T, Input>,
  ) {
    this.store = new CrudStore(db, strategy.table);
  }

  private event(change: CrudChange, object: T, previous?: T, besides?: string | void) {
    const { table, eventCodec, describe } = this.strategy;
    const description = describe?.(object, change);
    const draft = eventOf(this.strategy.events[change], {
      codec: eventCodec,
      id: idOf(table, object),
      workspace: this.strategy.workspaceOf?.(object),
      object,
      ...(previous !== undefined ? { previous } : {}),
      ...(description !== undefined ? { description } : {}),
    });
    return besides ? { ...draft, description: `${draft.description}; ${besides}` } : draft;
  }

  find(id: string): Promise<T | undefined> {
    return this.store.find(id);
  }

  /** The object meeting the filter (by another unique column than the key). */
  findBy(filter: ColumnFilter): Promise<T | undefined> {
    return this.store.findBy(filter);
  }

  /** Every object meeting the filter, unpaged, in this order. */
  select(filter: ColumnFilter, orderBy?: readonly string[]): Promise<T[]> {
    return this.store.select(filter, orderBy);
  }

  /** 422 naming the field when a body names one that does not exist (for kinds every caller sees). */
  async requireExists(id: string, field: string): Promise<void> {
    if (!(await this.store.exists(id)))
      throw unprocessable(`${field}: ${this.strategy.kind} "${id}" does not exist`, this.strategy.missing ?? 'OTHER');
  }

  list(filter: ColumnFilter, page: PageRequest): Promise<Page<T>> {
    return this.store.list(filter, page);
  }

  private async checked(ctx: RequestContext, input: Input, existing?: T): Promise<Input> {
    const admitted = this.strategy.admit ? await this.strategy.admit(ctx, input, existing) : input;
    await this.strategy.validate?.(admitted, existing);
    return admitted;
  }

  private duplicate(error: unknown, object: T, write: 'create' | 'update'): unknown {
    if (!isUniqueViolation(error)) return error;
    const message = this.strategy.duplicate?.(object, write);
    if (message !== undefined) return conflict(message);
    return write === 'create' ? conflict(`${this.strategy.kind} ${idOf(this.strategy.table, object)} already exists`) : error;
  }

  async create(ctx: RequestContext, input: Input): Promise<T> {
    const object = this.strategy.prepareForCreate(await this.checked(ctx, input));
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CrudStore(trx, this.strategy.table);
        await this.strategy.beforeInsert?.(store, object);
        await store.insert(object);
        events.push(this.event('created', object));
      });
    } catch (error) {
      throw this.duplicate(error, object, 'create');
    }
    return object;
  }

  /** A write that changes nothing writes nothing (and no event), unless the strategy says `writeUnchanged`. */
  async update(ctx: RequestContext, existing: T, input: Input): Promise<T> {
    const object = this.strategy.prepareForUpdate(existing, await this.checked(ctx, input, existing));
    if (!this.strategy.writeUnchanged && !differs(existing, object)) return object;
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CrudStore(trx, this.strategy.table);
        await this.strategy.beforeUpdate?.(store, object, existing);
        await store.update(object);
        events.push(this.event('changed', object, existing));
      });
    } catch (error) {
      throw this.duplicate(error, object, 'update');
    }
    return object;
  }

  /**
   * 409 while other kinds' objects hold it (their declared references); what goes with it goes in the
   * same transaction. A kind that `retire`s its objects keeps the row.
   */
  async delete(ctx: RequestContext, existing: T): Promise<void> {
    const { table, reference } = this.strategy;
    const id = idOf(table, existing);
    const retired = this.strategy.retire ? this.strategy.retire(existing) : undefined;
    if (this.strategy.retire && retired === undefined) return;
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CrudStore(trx, table);
        if (reference !== undefined) {
          const holding = await this.references.holding(trx, reference, [id]);
          if (holding.length > 0) throw this.stillHeld(id, holding.join(', '));
        }
        const besides = await this.strategy.beforeDelete?.(trx, existing, this.references);
        if (retired !== undefined) {
          await store.update(retired);
          events.push(this.event('deleted', retired, existing, besides));
          return;
        }
        if (reference !== undefined) await this.references.cascade(trx, reference, [id], events);
        await store.delete(id);
        events.push(this.event('deleted', existing, undefined, besides));
      });
    } catch (error) {
      const holder = this.strategy.heldByForeignKey;
      if (holder !== undefined && isForeignKeyViolation(error)) throw this.stillHeld(id, holder);
      throw error;
    }
  }

  private stillHeld(id: string, holding: string) {
    return conflict(this.strategy.stillHeld?.(id, holding) ?? `${this.strategy.kind} ${id} still has ${holding}; delete them first`);
  }
}
