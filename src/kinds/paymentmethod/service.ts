import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { PaymentMethod, PaymentMethodInput } from './model.js';
import { PaymentMethodStore, type PaymentMethodFilter } from './store.js';
import { eventOf } from '../eventlog/titles.js';
import { PAYMENT_METHOD_EVENTS } from './wire/index.js';
import { PAYMENT_METHOD_TITLES } from './events.js';

/** Payment methods without any notion of who asks (AuthorizedPaymentMethodService adds that). */
export class PaymentMethodService {
  private readonly store: PaymentMethodStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    private readonly workspaces: WorkspaceService,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new PaymentMethodStore(db);
  }

  find(name: string): Promise<PaymentMethod | undefined> {
    return this.store.find(name);
  }

  list(filter: PaymentMethodFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async create(ctx: RequestContext, input: PaymentMethodInput): Promise<PaymentMethod> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const method: PaymentMethod = { ...withoutUndefined(input), createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new PaymentMethodStore(trx).insert(method);
        events.push(
          eventOf(PAYMENT_METHOD_TITLES.paymentMethodCreated, {
            codec: PAYMENT_METHOD_EVENTS,
            id: method.name,
            description: `Payment method ${method.name} was created`,
            workspace: method.ownedByWorkspace,
            object: method,
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshPaymentMethod ${input.name} already exists`);
      throw error;
    }
    return method;
  }

  /** Replaces the method (a deleted one comes back to life: PUT is an upsert). */
  async update(ctx: RequestContext, existing: PaymentMethod, input: PaymentMethodInput): Promise<PaymentMethod> {
    const method: PaymentMethod = { ...withoutUndefined(input), createdOn: existing.createdOn };
    await this.events.change(ctx, async (trx, events) => {
      await new PaymentMethodStore(trx).update(method);
      events.push(
        eventOf(PAYMENT_METHOD_TITLES.paymentMethodChanged, {
          codec: PAYMENT_METHOD_EVENTS,
          id: method.name,
          description: `Payment method ${method.name} was changed`,
          workspace: method.ownedByWorkspace,
          object: method,
          previous: existing,
        }),
      );
    });
    return method;
  }

  /** Marks the method deleted; 409 while a project names it (as payment method or substitute). */
  async delete(ctx: RequestContext, existing: PaymentMethod): Promise<void> {
    if (existing.deletedOn) return;
    await this.events.change(ctx, async (trx, events) => {
      const store = new PaymentMethodStore(trx);
      const dependents = await this.references.holding(trx, 'paymentMethod', [existing.name]);
      if (dependents.length > 0)
        throw conflict(
          `meshPaymentMethod ${existing.name} is still used by ${dependents.join(', ')}; assign them another payment method first`,
        );
      const deleted: PaymentMethod = { ...existing, deletedOn: new Date().toISOString() };
      await store.update(deleted);
      events.push(
        eventOf(PAYMENT_METHOD_TITLES.paymentMethodDeleted, {
          codec: PAYMENT_METHOD_EVENTS,
          id: deleted.name,
          description: `Payment method ${existing.name} was deleted`,
          workspace: existing.ownedByWorkspace,
          object: deleted,
        }),
      );
    });
  }
}

function withoutUndefined(input: PaymentMethodInput): PaymentMethodInput {
  const { expirationDate, ...rest } = input;
  return expirationDate === undefined ? rest : { ...rest, expirationDate };
}
