import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf } from '../eventlog/titles.js';
import { DEPROVISIONING_SECONDS, type ServiceInstance, type ServiceInstanceInput } from './model.js';
import { ServiceInstanceStore, type ServiceInstanceFilter } from './store.js';
import { SERVICE_INSTANCE_EVENTS } from './wire/index.js';
import { SERVICE_INSTANCE_TITLES } from './events.js';

const subject = (instance: ServiceInstance) => ({
  codec: SERVICE_INSTANCE_EVENTS,
  id: instance.instanceId,
  workspace: instance.workspace,
  object: instance,
});

/** Service instances without any notion of who asks (AuthorizedServiceInstanceService adds that). */
export class ServiceInstanceService {
  private readonly store: ServiceInstanceStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new ServiceInstanceStore(db);
  }

  find(instanceId: string): Promise<ServiceInstance | undefined> {
    return this.store.find(instanceId, new Date().toISOString());
  }

  list(filter: ServiceInstanceFilter, page: PageRequest) {
    return this.store.list(filter, page, new Date().toISOString());
  }

  /** 409 while an instance of this id exists (deleting ones too); the project must exist (422). */
  async create(ctx: RequestContext, input: ServiceInstanceInput): Promise<ServiceInstance> {
    const now = new Date().toISOString();
    const instance: ServiceInstance = { ...input, createdOn: now };
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new ServiceInstanceStore(trx);
        await store.forgetGone(instance.instanceId, now);
        await store.insert(instance);
        events.push(eventOf(SERVICE_INSTANCE_TITLES.serviceInstanceCreated, subject(instance)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshServiceInstance ${input.instanceId} already exists`);
      if (isForeignKeyViolation(error))
        throw unprocessable(
          `metadata.ownedByProject: meshProject "${input.project}" does not exist in meshWorkspace "${input.workspace}"`,
          'PROJECT',
        );
      throw error;
    }
    return instance;
  }

  /** Display name, plan and parameters may change; a deleting instance no longer does (409). */
  async update(ctx: RequestContext, existing: ServiceInstance, input: ServiceInstanceInput): Promise<ServiceInstance> {
    const instance: ServiceInstance = { ...input, creator: existing.creator, createdOn: existing.createdOn };
    if (!differs(SERVICE_INSTANCE_EVENTS.encode(existing), SERVICE_INSTANCE_EVENTS.encode(instance))) return existing;
    await this.events.change(ctx, async (trx, events) => {
      if (!(await new ServiceInstanceStore(trx).update(instance))) throw deletingConflict(existing);
      events.push(eventOf(SERVICE_INSTANCE_TITLES.serviceInstanceChanged, { ...subject(instance), previous: existing }));
    });
    return instance;
  }

  /** Marks the instance DELETING; it is gone DEPROVISIONING_SECONDS later. A second DELETE changes nothing. */
  async delete(ctx: RequestContext, existing: ServiceInstance): Promise<void> {
    const marked = new Date();
    const deleting: ServiceInstance = {
      ...existing,
      markedForDeletionOn: marked.toISOString(),
      goneOn: new Date(marked.getTime() + DEPROVISIONING_SECONDS * 1000).toISOString(),
    };
    await this.events.change(ctx, async (trx, events) => {
      if (await new ServiceInstanceStore(trx).markDeleted(existing.instanceId, deleting.markedForDeletionOn!, deleting.goneOn!))
        events.push(eventOf(SERVICE_INSTANCE_TITLES.serviceInstanceDeleted, subject(deleting)));
    });
  }
}

export const deletingConflict = (instance: ServiceInstance) =>
  conflict(`meshServiceInstance ${instance.instanceId} is being deleted and can no longer change`);
