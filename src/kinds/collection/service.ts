import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import { inTransaction, type Db } from '../../store/transaction.js';
import { BindingStore } from '../binding/store.js';
import { UserGroupStore } from '../usergroup/store.js';
import type { CollectedObject, ObjectCollection } from './model.js';
import { CollectionStore } from './store.js';

/** Object collections without any notion of who asks; each write one method in one transaction. */
export class CollectionService {
  private readonly store: CollectionStore;

  constructor(private readonly db: Db) {
    this.store = new CollectionStore(db);
  }

  find(name: string): Promise<ObjectCollection | undefined> {
    return this.store.find(name);
  }

  members(name: string): Promise<CollectedObject[]> {
    return this.store.members(name);
  }

  async create(_ctx: RequestContext, input: Omit<ObjectCollection, 'createdOn'>): Promise<ObjectCollection> {
    const collection: ObjectCollection = { ...input, createdOn: new Date().toISOString() };
    try {
      await inTransaction(this.db, async (trx) => {
        if (await new CollectionStore(trx).find(input.name)) throw conflict(`meshObjectCollection ${input.name} already exists`);
        await new CollectionStore(trx).insert(collection);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshObjectCollection ${input.name} already exists`);
      throw error;
    }
    return collection;
  }

  /** Only an empty collection (409 naming what it still holds). */
  async delete(_ctx: RequestContext, collection: ObjectCollection): Promise<void> {
    try {
      await inTransaction(this.db, async (trx) => {
        const store = new CollectionStore(trx);
        const dependents = await store.dependents(collection.name);
        if (dependents.length > 0) throw conflict(`meshObjectCollection ${collection.name} still holds ${dependents.join(', ')}; only an empty collection can be deleted`);
        await store.delete(collection.name);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshObjectCollection ${collection.name} still holds objects; only an empty collection can be deleted`);
      throw error;
    }
  }

  /** Declarative deletion: these objects of a collection go in one transaction (groups with their members and bindings). */
  async deleteObjects(_ctx: RequestContext, objects: readonly CollectedObject[]): Promise<void> {
    if (objects.length === 0) return;
    await inTransaction(this.db, async (trx) => {
      const groups = new UserGroupStore(trx);
      const bindings = new BindingStore(trx);
      for (const object of objects) {
        if (object.kind === 'meshWorkspaceUserGroup') await groups.deleteWithReferences(object.workspace, object.name);
        else await bindings.delete(object.kind, object.name);
      }
    });
  }
}
