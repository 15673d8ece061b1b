import { sql, type Kysely } from 'kysely';

/**
 * People and roles: users, workspace user groups and their members, the four kinds of
 * role bindings in one table, project roles (seeded with the documented defaults) and object
 * collections (declarative deletion). Every list filter has an index that also serves the list order;
 * foreign keys keep bindings and memberships true under concurrent deletes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('username', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('euid', 'varchar(255)')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_order').on('users').columns(['created_on', 'username']).execute();
  await db.schema.createIndex('users_euid').on('users').column('euid').unique().execute();
  await db.schema.createIndex('users_email').on('users').columns(['email', 'created_on']).execute();
  await db.schema.createIndex('users_first_name').on('users').columns(['first_name', 'created_on']).execute();
  await db.schema.createIndex('users_last_name').on('users').columns(['last_name', 'created_on']).execute();

  await db.schema
    .createTable('object_collections')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('owner', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_groups')
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('collection', 'varchar(255)', (c) => c.references('object_collections.name'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_groups_pk', ['workspace', 'name'])
    .execute();
  await db.schema.createIndex('user_groups_order').on('user_groups').columns(['created_on', 'workspace', 'name']).execute();
  await db.schema.createIndex('user_groups_workspace').on('user_groups').columns(['workspace', 'created_on', 'name']).execute();
  await db.schema.createIndex('user_groups_name').on('user_groups').columns(['name', 'workspace']).execute();
  await db.schema.createIndex('user_groups_collection').on('user_groups').columns(['collection']).execute();

  await db.schema
    .createTable('group_members')
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull())
    .addColumn('group_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('username', 'varchar(255)', (c) => c.notNull().references('users.username'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['workspace', 'group_name', 'username'])
    .addForeignKeyConstraint('group_members_group', ['workspace', 'group_name'], 'user_groups', ['workspace', 'name'])
    .execute();
  await db.schema.createIndex('group_members_username').on('group_members').columns(['username', 'workspace', 'group_name']).execute();

  await db.schema
    .createTable('project_roles')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_roles_order').on('project_roles').columns(['created_on', 'name']).execute();

  // One table for the four binding kinds (`kind` is the wire kind): a workspace binding has no
  // project; a user binding names its user (`username`), a group binding its group (workspace + group_name).
  await db.schema
    .createTable('role_bindings')
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('workspace', 'varchar(255)', (c) => c.notNull().references('workspaces.name'))
    .addColumn('project', 'varchar(255)')
    .addColumn('workspace_role', 'varchar(64)')
    .addColumn('project_role', 'varchar(255)', (c) => c.references('project_roles.name'))
    .addColumn('username', 'varchar(255)', (c) => c.references('users.username'))
    .addColumn('group_name', 'varchar(255)')
    .addColumn('collection', 'varchar(255)', (c) => c.references('object_collections.name'))
    .addColumn('created_on', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_bindings_pk', ['kind', 'name'])
    .addForeignKeyConstraint('role_bindings_project', ['workspace', 'project'], 'projects', ['workspace', 'name'])
    .addForeignKeyConstraint('role_bindings_group', ['workspace', 'group_name'], 'user_groups', ['workspace', 'name'])
    .execute();
  await db.schema.createIndex('role_bindings_order').on('role_bindings').columns(['kind', 'created_on', 'name']).execute();
  await db.schema.createIndex('role_bindings_target').on('role_bindings').columns(['kind', 'workspace', 'project', 'created_on']).execute();
  await db.schema.createIndex('role_bindings_project').on('role_bindings').columns(['workspace', 'project']).execute();
  await db.schema.createIndex('role_bindings_user').on('role_bindings').columns(['username', 'kind', 'workspace']).execute();
  await db.schema.createIndex('role_bindings_group').on('role_bindings').columns(['workspace', 'group_name', 'kind']).execute();
  await db.schema
    .createIndex('role_bindings_workspace_role')
    .on('role_bindings')
    .columns(['kind', 'workspace_role', 'created_on'])
    .execute();
  await db.schema.createIndex('role_bindings_project_role').on('role_bindings').columns(['project_role', 'kind']).execute();
  await db.schema.createIndex('role_bindings_collection').on('role_bindings').columns(['collection']).execute();

  // The documented default project roles (OpenAPI, meshUser's projectRole filter), so bindings work on a fresh server.
  const now = new Date().toISOString();
  const defaults = [
    ['project-admin', 'Project Admin', 'Full administrative access to the project', 100],
    ['project-user', 'Project User', 'Works with the project and its tenants', 50],
    ['project-reader', 'Project Reader', 'Read-only access to the project', 10],
  ] as const;
  for (const [name, displayName, description, rank] of defaults) {
    const document = { metadata: { name, tags: {} }, spec: { name: displayName, description, rank } };
    await sql`insert into project_roles (name, display_name, document, created_on) values (${name}, ${displayName}, ${JSON.stringify(document)}, ${now})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['role_bindings', 'project_roles', 'group_members', 'user_groups', 'object_collections', 'users'])
    await db.schema.dropTable(table).execute();
}
