/*
 * Who holds a role, read across the role bindings, group memberships, project roles and tenants: the
 * query the users' and the bindings' lists share (a read model of several kinds' tables, so it lives
 * beside them in store/ rather than in one kind's folder).
 */
import { sql, type RawBuilder } from 'kysely';

/** Which role holders a query asks for; unset parts match any. */
export interface HolderScope {
  workspace?: string;
  project?: string;
  /** A workspace role (Workspace Manager) or a project role (its `spec.name` or identifier). */
  role?: string;
  /** Project roles only: on a project with a live tenant on this platform. */
  platform?: { name: string; location: string };
}

function conditions(scope: HolderScope, level: 'workspace' | 'project'): RawBuilder<unknown>[] {
  const parts: RawBuilder<unknown>[] = [];
  if (scope.workspace !== undefined) parts.push(sql`b.workspace = ${scope.workspace}`);
  if (scope.project !== undefined) parts.push(sql`b.project = ${scope.project}`);
  if (scope.role !== undefined) {
    parts.push(
      level === 'workspace'
        ? sql`b.workspace_role = ${scope.role}`
        : sql`b.project_role in (select r.name from project_roles r where r.display_name = ${scope.role} or r.name = ${scope.role})`,
    );
  }
  if (scope.platform !== undefined) {
    parts.push(
      sql`exists (select 1 from tenants t inner join platforms p on p.uuid = t.platform_uuid where t.workspace = b.workspace and t.project = b.project and t.deleted_on is null and p.name = ${scope.platform.name} and p.location = ${scope.platform.location})`,
    );
  }
  return parts;
}

/**
 * The usernames holding a role of the level in the scope, directly (a user binding) or through a
 * group (a member of a group with a group binding): one query, served by the bindings' and the
 * memberships' indexes. A subquery for `username in (…)`.
 */
export function roleHolders(level: 'workspace' | 'project', scope: HolderScope): RawBuilder<unknown> {
  const [userKind, groupKind] =
    level === 'workspace'
      ? ['meshWorkspaceUserBinding', 'meshWorkspaceGroupBinding']
      : ['meshProjectUserBinding', 'meshProjectGroupBinding'];
  const extra = conditions(scope, level);
  const and = extra.length ? sql` and ${sql.join(extra, sql` and `)}` : sql``;
  return sql`select b.username from role_bindings b where b.kind = ${userKind}${and} union select gm.username from group_members gm inner join role_bindings b on b.workspace = gm.workspace and b.group_name = gm.group_name where b.kind = ${groupKind}${and}`;
}
