import { sql } from 'kysely';
import { BINDING_KINDS } from '../kinds/binding/model.js';
import { ADMIN_WORKSPACE } from '../kinds/workspace/model.js';
import type { Db } from '../store/transaction.js';
import { isAdminCode } from './permissions.js';
import type { Principal } from './principal.js';
import { codesOf, type HeldRole } from './roles.js';

interface RoleRow {
  workspace: string;
  workspace_role: string | null;
  project_role: string | null;
}

/** Today as bindings write their last day (`YYYY-MM-DD`, UTC): a binding holds through its expiry date. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * What people may do: the role bindings of a meshUser (its own, and those of the workspace user groups
 * it is a member of), read in one query per request so a removed binding counts at once. A deactivated
 * user (SCIM `active: false`) and an expired binding grant nothing.
 */
export class PersonAccess {
  constructor(private readonly db: Db) {}

  /**
   * The roles the user holds in `workspaces` (every workspace when undefined): user bindings by the
   * bindings' (username, kind, workspace) index, group bindings through the memberships' (username,
   * workspace, group) index and the bindings' (workspace, group, kind) index.
   */
  private async roles(username: string, workspaces?: readonly string[]): Promise<HeldRole[]> {
    const user = [BINDING_KINDS.workspaceUser, BINDING_KINDS.projectUser];
    const group = [BINDING_KINDS.workspaceGroup, BINDING_KINDS.projectGroup];
    const day = today();
    const where = (column: string) => (workspaces === undefined ? sql`` : sql` and ${sql.ref(column)} in (${sql.join(workspaces)})`);
    const { rows } = await sql<RoleRow>`
      select b.workspace, b.workspace_role, b.project_role from role_bindings b
        where b.username = ${username} and b.kind in (${sql.join(user)})${where('b.workspace')} and (b.expiry_date is null or b.expiry_date >= ${day})
          and exists (select 1 from users u where u.username = ${username} and u.active = 1)
      union all
      select b.workspace, b.workspace_role, b.project_role from group_members gm
        inner join role_bindings b on b.workspace = gm.workspace and b.group_name = gm.group_name
        where gm.username = ${username}${where('gm.workspace')} and b.kind in (${sql.join(group)}) and (b.expiry_date is null or b.expiry_date >= ${day})
          and exists (select 1 from users u where u.username = ${username} and u.active = 1)`.execute(this.db);
    return rows.map((row) => ({
      workspace: row.workspace,
      ...(row.workspace_role !== null ? { workspaceRole: row.workspace_role } : {}),
      ...(row.project_role !== null ? { projectRole: row.project_role } : {}),
    }));
  }

  /** The workspaces the user holds a workspace role in (directly or through a group), by name. */
  async workspacesOf(username: string): Promise<string[]> {
    const held = (await this.roles(username)).filter((role) => role.workspaceRole !== undefined);
    return [...new Set(held.map((role) => role.workspace))].sort();
  }

  /**
   * The user as a principal acting in `workspace`: the codes its roles there grant, and `ADM_` codes
   * from its roles in the admin workspace. In a workspace it holds no role in, or in none (`undefined`,
   * acting in the workspace named ''), it holds only those admin codes, if any: it sees nothing else.
   */
  async principalFor(username: string, workspace: string | undefined): Promise<Extract<Principal, { type: 'person' }>> {
    const acting = workspace ?? '';
    const roles = await this.roles(username, acting === ADMIN_WORKSPACE || acting === '' ? [ADMIN_WORKSPACE] : [acting, ADMIN_WORKSPACE]);
    const permissions = codesOf(roles, acting, ADMIN_WORKSPACE);
    return { type: 'person', id: username, workspace: acting, permissions, admin: [...permissions].some(isAdminCode) };
  }
}
