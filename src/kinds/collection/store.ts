import type { Selectable } from 'kysely';
import type { ObjectCollectionTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { CollectedObject, ObjectCollection } from './model.js';

const toModel = (row: Selectable<ObjectCollectionTable>): ObjectCollection => ({
  name: row.name,
  owner: row.owner,
  ownedByWorkspace: row.owned_by_workspace,
  description: row.description,
  createdOn: row.created_on,
});

/** The `object_collections` table, and which groups and bindings a collection holds. */
export class CollectionStore {
  constructor(private readonly db: Db) {}

  async insert(collection: ObjectCollection): Promise<void> {
    await this.db
      .insertInto('object_collections')
      .values({
        name: collection.name,
        owner: collection.owner,
        owned_by_workspace: collection.ownedByWorkspace,
        description: collection.description,
        created_on: collection.createdOn,
      })
      .execute();
  }

  async find(name: string): Promise<ObjectCollection | undefined> {
    const row = await this.db.selectFrom('object_collections').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('object_collections').where('name', '=', name).execute();
  }

  /** The groups and workspace bindings the collection holds (two indexed queries). */
  async members(name: string): Promise<CollectedObject[]> {
    const groups = await this.db.selectFrom('user_groups').select(['workspace', 'name']).where('collection', '=', name).execute();
    const bindings = await this.db
      .selectFrom('role_bindings')
      .select(['kind', 'workspace', 'name'])
      .where('collection', '=', name)
      .where('kind', 'in', ['meshWorkspaceUserBinding', 'meshWorkspaceGroupBinding'])
      .execute();
    return [
      ...groups.map((group) => ({
        kind: 'meshWorkspaceUserGroup' as const,
        workspace: group.workspace,
        id: `${group.workspace}.${group.name}`,
        name: group.name,
      })),
      ...bindings.map((binding) => ({
        kind: binding.kind as CollectedObject['kind'],
        workspace: binding.workspace,
        id: binding.name,
        name: binding.name,
      })),
    ];
  }
}
