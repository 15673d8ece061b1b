import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { UserTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { roleHolders } from '../../store/role-holders.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { User } from './model.js';

const toModel = (row: Selectable<UserTable>): User => ({
  username: row.username,
  uuid: row.uuid,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  ...(row.euid !== null ? { euid: row.euid } : {}),
  createdOn: row.created_on,
  ...(row.updated_on !== null ? { updatedOn: row.updated_on } : {}),
  document: parseDocument(row.document),
  ...(Number(row.active) === 0 ? { active: false } : {}),
  ...(row.scim_attributes !== null ? { scim: JSON.parse(row.scim_attributes) as Record<string, unknown> } : {}),
});

const scimColumns = (user: User) => ({
  active: user.active === false ? 0 : 1,
  scim_attributes: user.scim !== undefined ? JSON.stringify(user.scim) : null,
  updated_on: user.updatedOn ?? null,
});

/** The user list's filters, combined with AND (query.ts). */
export interface UserFilter {
  uuid?: string;
  euid?: string;
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  workspace?: string;
  project?: string;
  platform?: { name: string; location: string };
  workspaceRole?: string;
  projectRole?: string;
  /** Members of the group (`workspace` unset: of every group of that name). */
  group?: { workspace?: string; name: string };
}

const COLUMNS = {
  uuid: 'uuid',
  euid: 'euid',
  username: 'username',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
} as const;

/** The `users` table (memberships and bindings go with a user: their kinds' declared references). */
export class UserStore {
  constructor(private readonly db: Db) {}

  async insert(user: User): Promise<void> {
    await this.db
      .insertInto('users')
      .values({
        username: user.username,
        uuid: user.uuid,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        euid: user.euid ?? null,
        document: serializeDocument(user.document),
        created_on: user.createdOn,
        ...scimColumns(user),
      })
      .execute();
  }

  async update(user: User): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        euid: user.euid ?? null,
        document: serializeDocument(user.document),
        ...scimColumns(user),
      })
      .where('username', '=', user.username)
      .execute();
  }

  async find(username: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async findByEuid(euid: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('euid', '=', euid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  /** The users of these uuids, in one query (SCIM names users by uuid). */
  async byUuids(uuids: readonly string[]): Promise<User[]> {
    if (uuids.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('uuid', 'in', [...uuids])
      .execute();
    return rows.map(toModel);
  }

  /** The users of these names, in one query. */
  async byUsernames(usernames: readonly string[]): Promise<User[]> {
    if (usernames.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', 'in', [...usernames])
      .execute();
    return rows.map(toModel);
  }

  /** The users of these names that exist, in one query. */
  async existing(usernames: readonly string[]): Promise<Set<string>> {
    if (usernames.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('username')
      .where('username', 'in', [...usernames])
      .execute();
    return new Set(rows.map((row) => row.username));
  }

  async list(filter: UserFilter, page: PageRequest): Promise<Page<User>> {
    let query = this.db.selectFrom('users');
    for (const [key, column] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, (typeof COLUMNS)[keyof typeof COLUMNS]][]) {
      const value = filter[key];
      if (value !== undefined) query = query.where(column, '=', value);
    }
    const holding = (subquery: ReturnType<typeof roleHolders>) => sql<boolean>`users.username in (${subquery})`;
    if (filter.group !== undefined) {
      const { workspace, name } = filter.group;
      query = query.where(
        sql<boolean>`users.username in (select gm.username from group_members gm where gm.group_name = ${name}${workspace !== undefined ? sql` and gm.workspace = ${workspace}` : sql``})`,
      );
    }
    if (filter.workspaceRole !== undefined || (filter.workspace !== undefined && filter.project === undefined)) {
      query = query.where(
        holding(
          roleHolders('workspace', {
            ...(filter.workspace !== undefined ? { workspace: filter.workspace } : {}),
            ...(filter.workspaceRole !== undefined ? { role: filter.workspaceRole } : {}),
          }),
        ),
      );
    }
    if (filter.project !== undefined || filter.projectRole !== undefined || filter.platform !== undefined) {
      query = query.where(
        holding(
          roleHolders('project', {
            ...(filter.workspace !== undefined ? { workspace: filter.workspace } : {}),
            ...(filter.project !== undefined ? { project: filter.project } : {}),
            ...(filter.projectRole !== undefined ? { role: filter.projectRole } : {}),
            ...(filter.platform !== undefined ? { platform: filter.platform } : {}),
          }),
        ),
      );
    }
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('username'), page);
    return { items: rows.map(toModel), total };
  }

  async delete(username: string): Promise<void> {
    await this.db.deleteFrom('users').where('username', '=', username).execute();
  }
}
