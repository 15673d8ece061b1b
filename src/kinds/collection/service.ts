import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable, type ApiError } from '../../lib/errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { eventOf } from '../eventlog/titles.js';
import { WorkspaceStore } from '../workspace/store.js';
import type { CollectedObject, ObjectCollection } from './model.js';
import { CollectionStore } from './store.js';
import { COLLECTION_EVENTS } from './wire.js';
import { COLLECTION_TITLES } from './events.js';

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
    /** What its objects' kinds declare: they delete what a collection holds (declarative deletion), never this one. */
    private readonly references: ReferenceGraph,
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
        events.push(eventOf(COLLECTION_TITLES.collectionCreated, subject(collection)));
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
        const dependents = await this.references.holding(trx, 'collection', [collection.name]);
        if (dependents.length > 0)
          throw conflict(
            `meshObjectCollection ${collection.name} still holds ${dependents.join(', ')}; only an empty collection can be deleted`,
          );
        await store.delete(collection.name);
        events.push(eventOf(COLLECTION_TITLES.collectionDeleted, subject(collection)));
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
      for (const object of objects) await this.references.deleteHeld(trx, 'collection', object, events);
    });
  }
}
