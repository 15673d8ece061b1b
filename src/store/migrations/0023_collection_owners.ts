import { sql, type Kysely } from 'kysely';

/**
 * A meshObjectCollection belongs to a workspace (its keys use it, it holds only that workspace's
 * groups and bindings) or, `owned_by_workspace` null, to admins only. A collection of before this
 * migration gets the one workspace whose objects it holds; an empty one, or one holding objects of
 * several workspaces, becomes admins only (what it was de facto: the import was for admins).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('object_collections').addColumn('owned_by_workspace', 'varchar(255)').execute();
  await sql`
    update object_collections set owned_by_workspace = (
      select min(held.workspace) from (
        select workspace, collection from user_groups
        union select workspace, collection from role_bindings where kind in ('meshWorkspaceUserBinding', 'meshWorkspaceGroupBinding')
      ) held
      where held.collection = object_collections.name
      having count(distinct held.workspace) = 1
    )`.execute(db);
  // A workspace is not deleted while it owns collections (store/dependents.ts asks this).
  await db.schema.createIndex('object_collections_owner').on('object_collections').column('owned_by_workspace').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('object_collections_owner').execute();
  await db.schema.alterTable('object_collections').dropColumn('owned_by_workspace').execute();
}
