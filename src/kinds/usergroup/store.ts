import { sql, type Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CompiledQueries } from '../../store/compiled-queries.js';
import { fetchPage } from '../../store/paged.js';
import type { UserGroupTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { UserGroup } from './model.js';

export interface UserGroupFilter {
  workspace?: string;
  /** Groups this user is a member of. */
  username?: string;
  collection?: string;
}

const key = (workspace: string, name: string) => `${workspace}\u0000${name}`;
/** Rows per statement: SQLite allows at most 32766 bound values in one, PostgreSQL 65535. */
const BATCH = 1000;

/** The `user_groups` and `group_members` tables. */
export class UserGroupStore {
  private readonly queries: CompiledQueries;

  constructor(private readonly db: Db) {
    this.queries = new CompiledQueries(db, 'user-groups');
  }

  /** Rows with their members: one query for the members of every row. */
  private async withMembers(rows: Selectable<UserGroupTable>[]): Promise<UserGroup[]> {
    if (rows.length === 0) return [];
    const workspaces = [...new Set(rows.map((row) => row.workspace))];
    const names = [...new Set(rows.map((row) => row.name))];
    const members = await this.db
      .selectFrom('group_members')
      .select(['workspace', 'group_name', 'username'])
      .where('workspace', 'in', workspaces)
      .where('group_name', 'in', names)
      .orderBy('position')
      .execute();
    const byGroup = new Map<string, string[]>();
    for (const member of members) {
      const list = byGroup.get(key(member.workspace, member.group_name)) ?? [];
      list.push(member.username);
      byGroup.set(key(member.workspace, member.group_name), list);
    }
    return rows.map((row) => ({
      workspace: row.workspace,
      name: row.name,
      members: byGroup.get(key(row.workspace, row.name)) ?? [],
      ...(row.collection !== null ? { collection: row.collection } : {}),
      createdOn: row.created_on,
      ...(row.updated_on !== null ? { updatedOn: row.updated_on } : {}),
      document: parseDocument(row.document),
    }));
  }

  async find(workspace: string, name: string): Promise<UserGroup | undefined> {
    const row = await this.db
      .selectFrom('user_groups')
      .selectAll()
      .where('workspace', '=', workspace)
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? (await this.withMembers([row]))[0] : undefined;
  }

  /** The groups of these names that exist, with their members (a few queries for any number). */
  async findMany(names: readonly { workspace: string; name: string }[]): Promise<UserGroup[]> {
    const byWorkspace = new Map<string, string[]>();
    for (const { workspace, name } of names) {
      const inWorkspace = byWorkspace.get(workspace);
      if (inWorkspace) inWorkspace.push(name);
      else byWorkspace.set(workspace, [name]);
    }
    const found: UserGroup[] = [];
    for (const [workspace, inWorkspace] of byWorkspace)
      for (let start = 0; start < inWorkspace.length; start += BATCH) {
        const rows = await this.db
          .selectFrom('user_groups')
          .selectAll()
          .where('workspace', '=', workspace)
          .where('name', 'in', inWorkspace.slice(start, start + BATCH))
          .execute();
        found.push(...(await this.withMembers(rows)));
      }
    return found;
  }

  async list(filter: UserGroupFilter, page: PageRequest): Promise<Page<UserGroup>> {
    let query = this.db.selectFrom('user_groups');
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.collection !== undefined) query = query.where('collection', '=', filter.collection);
    if (filter.username !== undefined) {
      query = query.where(
        sql<boolean>`exists (select 1 from group_members gm where gm.username = ${filter.username} and gm.workspace = user_groups.workspace and gm.group_name = user_groups.name)`,
      );
    }
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('workspace').orderBy('name'), page);
    return { items: await this.withMembers(rows), total };
  }

  insert(group: UserGroup): Promise<void> {
    return this.insertMany([group]);
  }

  /** New groups and their members, up to BATCH rows per statement. */
  async insertMany(groups: readonly UserGroup[]): Promise<void> {
    const rows = groups.map((group) => ({
      workspace: group.workspace,
      name: group.name,
      collection: group.collection ?? null,
      document: serializeDocument(group.document),
      created_on: group.createdOn,
    }));
    for (let start = 0; start < rows.length; start += BATCH)
      await this.queries.insertRows('group', 'user_groups', rows.slice(start, start + BATCH));
    await this.insertMembers(groups);
  }

  async update(group: UserGroup): Promise<void> {
    await this.db
      .updateTable('user_groups')
      .set({ collection: group.collection ?? null, document: serializeDocument(group.document), updated_on: group.updatedOn ?? null })
      .where('workspace', '=', group.workspace)
      .where('name', '=', group.name)
      .execute();
    await this.db.deleteFrom('group_members').where('workspace', '=', group.workspace).where('group_name', '=', group.name).execute();
    await this.insertMembers([group]);
  }

  /** Sets `updated_on` (and so takes the row's write lock); false when there is no such group. */
  async touch(workspace: string, name: string, updatedOn: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user_groups')
      .set({ updated_on: updatedOn })
      .where('workspace', '=', workspace)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async insertMembers(groups: readonly UserGroup[]): Promise<void> {
    const rows = groups.flatMap((group) =>
      group.members.map((username, position) => ({ workspace: group.workspace, group_name: group.name, username, position })),
    );
    for (let start = 0; start < rows.length; start += BATCH)
      await this.queries.insertRows('member', 'group_members', rows.slice(start, start + BATCH));
  }

  /** The group with its members and the bindings naming it (call inside a transaction). */
  /** The group with its memberships (the bindings naming it go first, by their kind: a declared reference). */
  async delete(workspace: string, name: string): Promise<void> {
    await this.db.deleteFrom('group_members').where('workspace', '=', workspace).where('group_name', '=', name).execute();
    await this.db.deleteFrom('user_groups').where('workspace', '=', workspace).where('name', '=', name).execute();
  }

  /** A deleted user's memberships go with it. */
  async deleteMembershipsOf(username: string): Promise<void> {
    await this.db.deleteFrom('group_members').where('username', '=', username).execute();
  }
}
