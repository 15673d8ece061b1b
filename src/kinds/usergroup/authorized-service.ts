import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { notFound } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedUserService } from '../user/authorized-service.js';
import { CallerView } from '../view.js';
import { groupIdentifier, parseGroupIdentifier, type UserGroup, type UserGroupInput } from './model.js';
import type { UserGroupService } from './service.js';
import type { UserGroupFilter } from './store.js';

/**
 * Workspace user groups as the caller sees them: its own workspace's, every workspace's with an
 * `ADM_WORKSPACEUSERGROUP_*` code (reads need `WORKSPACEUSERGROUP_LIST`). Groups exist to be bound to
 * roles, so writing one (the import, SCIM) is binding people: `WORKSPACEPRINCIPALBINDING_SAVE` (delete:
 * `_DELETE`) in its workspace, `ADM_` for any; the OpenAPI names no group write code.
 */
export class AuthorizedUserGroupService extends CallerView<UserGroup> {
  protected readonly kindName = 'meshWorkspaceUserGroup';

  constructor(
    private readonly inner: UserGroupService,
    private readonly users: AuthorizedUserService,
  ) {
    super();
  }

  /** By `<workspace>.<group>`. */
  async find(ctx: RequestContext, id: string): Promise<UserGroup | undefined> {
    const parts = parseGroupIdentifier(id);
    return parts && seesWorkspace(ctx.principal, 'WORKSPACEUSERGROUP', parts.workspace)
      ? this.inner.find(parts.workspace, parts.name)
      : undefined;
  }

  list(ctx: RequestContext, filter: UserGroupFilter, page: PageRequest): Promise<Page<UserGroup>> {
    const scope = listScope(ctx.principal, 'WORKSPACEUSERGROUP');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return Promise.resolve(emptyPage());
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  /** The import (and SCIM): create or replace by workspace and name; members must be users (422). */
  async save(ctx: RequestContext, input: UserGroupInput, collection?: string): Promise<{ group: UserGroup; created: boolean }> {
    requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'SAVE', input.workspace);
    await this.inner.requireWorkspace(input.workspace);
    await this.users.resolveNamed(ctx, input.members, (index) => `spec.members[${index}]`);
    return this.inner.save(ctx, input, collection);
  }

  /** Several groups at once, all or nothing (an import into a collection): the rules of `save` for each. */
  async saveAll(
    ctx: RequestContext,
    inputs: readonly UserGroupInput[],
    collection: string,
  ): Promise<{ group: UserGroup; created: boolean }[]> {
    for (const input of inputs) requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'SAVE', input.workspace);
    for (const workspace of new Set(inputs.map((input) => input.workspace))) await this.inner.requireWorkspace(workspace);
    const members = [...new Set(inputs.flatMap((input) => input.members))];
    await this.users.resolveNamed(ctx, members, (index) => `spec.members (${members[index]})`);
    return this.inner.saveAll(ctx, inputs, collection);
  }

  /** Replaces the members of a group the caller sees (SCIM's group PUT/PATCH). */
  async setMembers(ctx: RequestContext, id: string, members: string[]): Promise<UserGroup> {
    const group = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'SAVE', group.workspace);
    await this.users.resolveNamed(ctx, members, (index) => `members[${index}]`);
    return this.inner.setMembers(ctx, group, members);
  }

  /** Adds and removes members of a group the caller sees, atomically (SCIM's member PATCHes); 404 when it is gone. */
  async changeMembers(ctx: RequestContext, id: string, add: string[], remove: string[]): Promise<UserGroup> {
    const group = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'SAVE', group.workspace);
    await this.users.resolveNamed(ctx, add, (index) => `members[${index}]`);
    const changed = await this.inner.changeMembers(ctx, group.workspace, group.name, add, remove);
    if (!changed) throw notFound(`${this.kindName} ${id} not found`);
    return changed;
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const group = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'WORKSPACEPRINCIPALBINDING', 'DELETE', group.workspace);
    await this.inner.delete(ctx, group);
  }

  /** A group a binding names in the target workspace (the caller may bind there): 422 naming the field when absent. */
  async resolveInWorkspace(_ctx: RequestContext, workspace: string, name: string, field: string): Promise<UserGroup> {
    const group = await this.inner.find(workspace, name);
    if (!group) throw this.doesNotExist(groupIdentifier({ workspace, name }), field);
    return group;
  }
}
