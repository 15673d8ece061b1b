import { sql } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument } from '../document.js';
import { roleHolders } from '../../store/role-holders.js';
import { BINDING_SHAPES, type Binding, type BindingKind } from './model.js';

export interface BindingFilter {
  workspace?: string;
  project?: string;
  role?: string;
  /** User bindings of the user; group bindings of the groups it is a member of. */
  username?: string;
  collection?: string;
}

interface Row {
  kind: string;
  name: string;
  workspace: string;
  project: string | null;
  workspace_role: string | null;
  project_role: string | null;
  username: string | null;
  group_name: string | null;
  collection: string | null;
  created_on: string;
  expiry_date: string | null;
  role_name: string | null;
  workspace_document: string;
  project_document: string | null;
}

const displayName = (document: string | null, fallback: string) => {
  const name = document === null ? undefined : parseDocument(document).spec.displayName;
  return typeof name === 'string' ? name : fallback;
};

const toModel = (row: Row): Binding => ({
  kind: row.kind as BindingKind,
  name: row.name,
  workspace: row.workspace,
  ...(row.project !== null ? { project: row.project } : {}),
  role: row.workspace_role ?? row.role_name ?? row.project_role ?? '',
  ...(row.project_role !== null ? { projectRole: row.project_role } : {}),
  subject: row.username ?? row.group_name ?? '',
  ...(row.collection !== null ? { collection: row.collection } : {}),
  createdOn: row.created_on,
  ...(row.expiry_date !== null ? { expiryDate: row.expiry_date } : {}),
  targetDisplayName:
    row.project !== null ? displayName(row.project_document, row.project) : displayName(row.workspace_document, row.workspace),
});

/** The `role_bindings` table; reads join the target (its display name) and the project role (its name), in one query. */
export class BindingStore {
  constructor(private readonly db: Db) {}

  private joined() {
    return this.db
      .selectFrom('role_bindings')
      .innerJoin('workspaces', 'workspaces.name', 'role_bindings.workspace')
      .leftJoin('projects', (join) =>
        join.onRef('projects.workspace', '=', 'role_bindings.workspace').onRef('projects.name', '=', 'role_bindings.project'),
      )
      .leftJoin('project_roles', 'project_roles.name', 'role_bindings.project_role');
  }

  private static readonly COLUMNS = [
    'role_bindings.kind',
    'role_bindings.name',
    'role_bindings.workspace',
    'role_bindings.project',
    'role_bindings.workspace_role',
    'role_bindings.project_role',
    'role_bindings.username',
    'role_bindings.group_name',
    'role_bindings.collection',
    'role_bindings.created_on',
    'role_bindings.expiry_date',
    'project_roles.display_name as role_name',
    'workspaces.document as workspace_document',
    'projects.document as project_document',
  ] as const;

  async find(kind: BindingKind, name: string): Promise<Binding | undefined> {
    const row = await this.joined()
      .select(BindingStore.COLUMNS)
      .where('role_bindings.kind', '=', kind)
      .where('role_bindings.name', '=', name)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(kind: BindingKind, filter: BindingFilter, page: PageRequest): Promise<Page<Binding>> {
    let query = this.joined().where('role_bindings.kind', '=', kind);
    if (filter.workspace !== undefined) query = query.where('role_bindings.workspace', '=', filter.workspace);
    if (filter.project !== undefined) query = query.where('role_bindings.project', '=', filter.project);
    if (filter.collection !== undefined) query = query.where('role_bindings.collection', '=', filter.collection);
    if (filter.role !== undefined) query = query.where('role_bindings.workspace_role', '=', filter.role);
    if (filter.username !== undefined) {
      query =
        BINDING_SHAPES[kind].subject === 'user'
          ? query.where('role_bindings.username', '=', filter.username)
          : query.where(
              sql<boolean>`exists (select 1 from group_members gm where gm.username = ${filter.username} and gm.workspace = role_bindings.workspace and gm.group_name = role_bindings.group_name)`,
            );
    }
    const { rows, total } = await fetchPage(
      query,
      (q) => q.select(BindingStore.COLUMNS).orderBy('role_bindings.created_on').orderBy('role_bindings.name'),
      page,
    );
    return { items: rows.map(toModel), total };
  }

  async upsert(binding: Binding, exists: boolean): Promise<void> {
    const user = BINDING_SHAPES[binding.kind].subject === 'user';
    const values = {
      workspace: binding.workspace,
      project: binding.project ?? null,
      workspace_role: binding.projectRole === undefined ? binding.role : null,
      project_role: binding.projectRole ?? null,
      username: user ? binding.subject : null,
      group_name: user ? null : binding.subject,
      collection: binding.collection ?? null,
      expiry_date: binding.expiryDate ?? null,
    };
    if (exists)
      await this.db.updateTable('role_bindings').set(values).where('kind', '=', binding.kind).where('name', '=', binding.name).execute();
    else
      await this.db
        .insertInto('role_bindings')
        .values({ kind: binding.kind, name: binding.name, created_on: binding.createdOn, ...values })
        .execute();
  }

  async delete(kind: BindingKind, name: string): Promise<void> {
    await this.db.deleteFrom('role_bindings').where('kind', '=', kind).where('name', '=', name).execute();
  }

  /** A deleted user's own bindings go with it. */
  async deleteOfUser(username: string): Promise<void> {
    await this.db.deleteFrom('role_bindings').where('username', '=', username).execute();
  }

  /** A deleted group's bindings go with it. */
  async deleteOfGroup(workspace: string, group: string): Promise<void> {
    await this.db.deleteFrom('role_bindings').where('workspace', '=', workspace).where('group_name', '=', group).execute();
  }

  /** Whether a user holds a workspace role in the workspace (directly or through a group). */
  async isWorkspaceMember(workspace: string, username: string): Promise<boolean> {
    const { rows } = await sql<{
      username: string;
    }>`select h.username from (${roleHolders('workspace', { workspace })}) h where h.username = ${username}`.execute(this.db);
    return rows.length > 0;
  }

  /** Whether a group holds a workspace role in its workspace. */
  async isBoundGroup(workspace: string, group: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('role_bindings')
      .select('name')
      .where('kind', '=', 'meshWorkspaceGroupBinding')
      .where('workspace', '=', workspace)
      .where('group_name', '=', group)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Names of the kind's bindings in a collection (declarative deletion). */
  async namesInCollection(kind: BindingKind, collection: string): Promise<string[]> {
    return (
      await this.db.selectFrom('role_bindings').select('name').where('kind', '=', kind).where('collection', '=', collection).execute()
    ).map((row) => row.name);
  }
}
