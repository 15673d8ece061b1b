import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable, type ApiError } from '../../lib/errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { eventOf } from '../eventlog/titles.js';
import { groupDeleted } from '../usergroup/service.js';
import { bindingRemoved } from '../binding/service.js';
import { BindingStore } from '../binding/store.js';
import { UserGroupStore } from '../usergroup/store.js';
import { WorkspaceStore } from '../workspace/store.js';
import type { CollectedObject, ObjectCollection } from './model.js';
import { CollectionStore } from './store.js';
import { COLLECTION_EVENTS } from './wire.js';

const subject = (collection: ObjectCollection) => ({
  codec: COLLECTION_EVENTS,
  id: collection.name,
  workspace: collection.ownedByWorkspace ?? undefined,
  object: collection,
});

/** The answer for an owner that does not exist, and for one the caller does not see: the same. */
export const noSuchOwner = (workspace: string): ApiError =>
  unprocessable(`ownedByWorkspace: meshWorkspace "${workspace}" does not exist`, 'WORKSPACE');

/** Object collections without any notion of who asks; each write one method in one transaction. */
export class CollectionService {
  private readonly store: CollectionStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new CollectionStore(db);
  }

  find(name: string): Promise<ObjectCollection | undefined> {
    return this.store.find(name);
  }

  members(name: string): Promise<CollectedObject[]> {
    return this.store.members(name);
  }

  async create(ctx: RequestContext, input: Omit<ObjectCollection, 'createdOn'>): Promise<ObjectCollection> {
    const collection: ObjectCollection = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CollectionStore(trx);
        if (input.ownedByWorkspace !== null && !(await new WorkspaceStore(trx).exists(input.ownedByWorkspace)))
          throw noSuchOwner(input.ownedByWorkspace);
        if (await store.find(input.name)) throw conflict(`meshObjectCollection ${input.name} already exists`);
        await store.insert(collection);
        events.push(eventOf('collectionCreated', subject(collection)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshObjectCollection ${input.name} already exists`);
      throw error;
    }
    return collection;
  }

  /** Only an empty collection (409 naming what it still holds). */
  async delete(ctx: RequestContext, collection: ObjectCollection): Promise<void> {
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new CollectionStore(trx);
        const dependents = await store.dependents(collection.name);
        if (dependents.length > 0)
          throw conflict(
            `meshObjectCollection ${collection.name} still holds ${dependents.join(', ')}; only an empty collection can be deleted`,
          );
        await store.delete(collection.name);
        events.push(eventOf('collectionDeleted', subject(collection)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(`meshObjectCollection ${collection.name} still holds objects; only an empty collection can be deleted`);
      throw error;
    }
  }

  /** Declarative deletion: these objects of a collection go in one transaction (groups with their members and bindings). */
  async deleteObjects(ctx: RequestContext, objects: readonly CollectedObject[]): Promise<void> {
    if (objects.length === 0) return;
    await this.events.change(ctx, async (trx, events) => {
      const groups = new UserGroupStore(trx);
      const bindings = new BindingStore(trx);
      for (const object of objects) {
        if (object.kind === 'meshWorkspaceUserGroup') {
          const group = await groups.find(object.workspace, object.name);
          if (!group) continue;
          await groups.deleteWithReferences(object.workspace, object.name);
          events.push(groupDeleted(group));
        } else {
          const binding = await bindings.find(object.kind, object.name);
          if (!binding) continue;
          await bindings.delete(object.kind, object.name);
          events.push(bindingRemoved(binding));
        }
      }
    });
  }
}
