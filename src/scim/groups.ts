import type { RequestContext } from '../auth/context.js';
import { MAX_STRING } from '../lib/limits.js';
import type { PageRequest } from '../lib/paging.js';
import { sentObject } from '../kinds/document.js';
import type { AuthorizedUserService } from '../kinds/user/authorized-service.js';
import type { AuthorizedUserGroupService } from '../kinds/usergroup/authorized-service.js';
import { groupIdentifier, type UserGroup, type UserGroupInput } from '../kinds/usergroup/model.js';
import { canonicalKeys, GROUP_SCHEMA, isPlainObject, parseFilter, parsePath, type PatchPath, type ScimObject } from './attributes.js';
import { invalidFilter, invalidValue, mutability, ScimError, scimNotFound } from './errors.js';
import { window } from './paged.js';
import { applyPatch, MAX_OPERATIONS } from './patch.js';
import { listResponse, paging, project, resourceBody, withMeta } from './resource.js';

const IDENTIFIER = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * Where a SCIM group lives: `displayName` `<workspace>.<group>` names the workspace (the part before
 * the first dot, lower-cased, when it is a workspace identifier); any other displayName goes to
 * `BLOCKYARD_SCIM_GROUP_WORKSPACE` (unset: 400). The group's name is the rest, lower-cased, every run
 * of characters other than a-z and 0-9 made one `-` ("Cloud Admins" → `cloud-admins`).
 */
export function groupPlace(displayName: string, defaultWorkspace: string | undefined): { workspace: string; name: string } {
  const dot = displayName.indexOf('.');
  const prefix = dot > 0 ? displayName.slice(0, dot).toLowerCase() : undefined;
  const named = prefix !== undefined && IDENTIFIER.test(prefix);
  const workspace = named ? prefix : defaultWorkspace;
  if (workspace === undefined) {
    throw invalidValue(
      `displayName: "${displayName}" names no workspace; name the group "<workspace>.<group>" (e.g. "my-team.developers"), or set BLOCKYARD_SCIM_GROUP_WORKSPACE`,
    );
  }
  const name = (named ? displayName.slice(dot + 1) : displayName)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (name === '' || name.length > MAX_STRING)
    throw invalidValue(`displayName: "${displayName}" leaves no group name (letters or digits after the workspace)`);
  return { workspace, name };
}

/**
 * A PATCH that only adds and removes members, as identity systems send them (`add`/`remove` of
 * `members` with a value list, `remove` of `members[value eq "…"]`): the user ids to add and to
 * remove, applied atomically by the group service. Undefined for anything else (or an id both added
 * and removed, where the order of the operations matters): that PATCH takes the general way.
 */
export function memberChanges(body: unknown): { add: string[]; remove: string[] } | undefined {
  if (!isPlainObject(body)) return undefined;
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_OPERATIONS) return undefined;
  const add: string[] = [];
  const remove: string[] = [];
  for (const operation of operations) {
    if (!isPlainObject(operation)) return undefined;
    const op = String(operation.op ?? operation.Op ?? '').toLowerCase();
    const path = operation.path ?? operation.Path;
    const value = operation.value ?? operation.Value;
    if (typeof path !== 'string') return undefined;
    let parsed: PatchPath;
    try {
      parsed = parsePath(path);
    } catch {
      return undefined;
    }
    if (parsed.extension || parsed.attr !== 'members' || parsed.sub !== undefined) return undefined;
    if (parsed.filter) {
      const [only, ...more] = parsed.filter;
      if (
        op !== 'remove' ||
        value !== undefined ||
        more.length > 0 ||
        only?.attr !== 'value' ||
        only.op !== 'eq' ||
        typeof only.value !== 'string'
      )
        return undefined;
      remove.push(only.value);
      continue;
    }
    if ((op !== 'add' && op !== 'remove') || !Array.isArray(value) || value.length === 0) return undefined;
    for (const member of value) {
      if (
        !isPlainObject(member) ||
        typeof member.value !== 'string' ||
        (typeof member.type === 'string' && member.type.toLowerCase() !== 'user')
      )
        return undefined;
      (op === 'add' ? add : remove).push(member.value);
    }
  }
  return add.some((id) => remove.includes(id)) ? undefined : { add, remove };
}

/**
 * SCIM Groups (RFC 7643 §4.2) as meshWorkspaceUserGroups, through the authorized group service:
 * `id` is `<workspace>.<group>`, `displayName` is kept as sent (`spec.displayName`), `externalId` is
 * `spec.egid`, `members` are Users by their ids (meshUser uuids), in order. Nested groups are refused.
 */
export class ScimGroups {
  constructor(
    private readonly groups: AuthorizedUserGroupService,
    private readonly users: AuthorizedUserService,
    private readonly baseUrl: () => string,
    private readonly defaultWorkspace: string | undefined,
  ) {}

  location(group: UserGroup): string {
    return `${this.baseUrl()}/scim/v2/Groups/${encodeURIComponent(groupIdentifier(group))}`;
  }

  private displayName(group: UserGroup): string {
    const { displayName } = group.document.spec;
    return typeof displayName === 'string' ? displayName : groupIdentifier(group);
  }

  async toScim(ctx: RequestContext, group: UserGroup): Promise<ScimObject> {
    const users = new Map((await this.users.byUsernames(ctx, group.members)).map((user) => [user.username, user]));
    const members = group.members.flatMap((username) => {
      const user = users.get(username);
      return user
        ? [{ value: user.uuid, display: username, type: 'User', $ref: `${this.baseUrl()}/scim/v2/Users/${encodeURIComponent(user.uuid)}` }]
        : [];
    });
    const { egid } = group.document.spec;
    const resource: ScimObject = {
      schemas: [GROUP_SCHEMA],
      id: groupIdentifier(group),
      ...(typeof egid === 'string' && egid !== '' ? { externalId: egid } : {}),
      displayName: this.displayName(group),
      members,
    };
    return withMeta(resource, {
      resourceType: 'Group',
      created: group.createdOn,
      ...(group.updatedOn ? { lastModified: group.updatedOn } : {}),
      location: this.location(group),
    });
  }

  async toInput(ctx: RequestContext, body: ScimObject, existing?: UserGroup): Promise<UserGroupInput> {
    const resource = canonicalKeys(body) as ScimObject;
    if (typeof resource.displayName !== 'string' || resource.displayName.trim() === '' || resource.displayName.length > MAX_STRING)
      throw invalidValue(`displayName: 1 to ${MAX_STRING} characters are required`);
    const displayName = resource.displayName.trim();
    const place = groupPlace(displayName, this.defaultWorkspace);
    if (existing && (existing.workspace !== place.workspace || existing.name !== place.name)) {
      throw mutability(
        `displayName: "${displayName}" would make this group ${place.workspace}.${place.name}; a group keeps its workspace and name (${groupIdentifier(existing)}): create a new group instead`,
      );
    }
    const members = resource.members === undefined || resource.members === null ? [] : resource.members;
    if (!Array.isArray(members)) throw invalidValue('members: a list is required');
    const ids = members.map((member, index) => {
      if (!isPlainObject(member) || typeof member.value !== 'string') throw invalidValue(`members[${index}].value: a User id is required`);
      if (typeof member.type === 'string' && member.type.toLowerCase() === 'group')
        throw invalidValue(`members[${index}]: groups cannot be members of groups here`);
      return member.value;
    });
    const unique = [...new Set(ids)];
    const byId = new Map((await this.users.byUuids(ctx, unique)).map((user) => [user.uuid, user.username]));
    const missing = unique.find((id) => !byId.has(id));
    if (missing !== undefined) throw invalidValue(`members: no User ${missing}`);
    const externalId = typeof resource.externalId === 'string' && resource.externalId !== '' ? resource.externalId : undefined;
    if (externalId !== undefined && externalId.length > MAX_STRING) throw invalidValue(`externalId: at most ${MAX_STRING} characters`);
    return {
      workspace: place.workspace,
      name: place.name,
      members: unique.map((id) => byId.get(id)!),
      document: sentObject(
        { ...(existing?.document.metadata ?? {}), name: place.name, ownedByWorkspace: place.workspace },
        { displayName, ...(externalId !== undefined ? { egid: externalId } : {}), tags: existing?.document.spec.tags ?? {} },
      ),
    };
  }

  async find(ctx: RequestContext, id: string): Promise<UserGroup> {
    const group = await this.groups.find(ctx, id);
    if (!group) throw scimNotFound(`no Group ${id}`);
    return group;
  }

  async create(ctx: RequestContext, body: unknown): Promise<UserGroup> {
    const input = await this.toInput(ctx, resourceBody(body));
    if (await this.groups.find(ctx, groupIdentifier(input)))
      throw new ScimError(409, `the Group ${groupIdentifier(input)} exists already`, 'uniqueness');
    return (await this.groups.save(ctx, input)).group;
  }

  async replace(ctx: RequestContext, id: string, body: unknown): Promise<UserGroup> {
    const existing = await this.find(ctx, id);
    return (await this.groups.save(ctx, await this.toInput(ctx, resourceBody(body), existing))).group;
  }

  async patch(ctx: RequestContext, id: string, body: unknown): Promise<UserGroup> {
    const changes = memberChanges(body);
    if (changes) {
      await this.find(ctx, id);
      const users = await this.users.byUuids(ctx, [...new Set([...changes.add, ...changes.remove])]);
      const byId = new Map(users.map((user) => [user.uuid, user.username]));
      const missing = changes.add.find((userId) => !byId.has(userId));
      if (missing !== undefined) throw invalidValue(`members: no User ${missing}`);
      const usernames = (ids: string[]) => ids.flatMap((userId) => byId.get(userId) ?? []);
      return this.groups.changeMembers(ctx, id, usernames(changes.add), usernames(changes.remove));
    }
    const existing = await this.find(ctx, id);
    const { meta: _meta, ...current } = await this.toScim(ctx, existing);
    return (await this.groups.save(ctx, await this.toInput(ctx, applyPatch(current, body), existing))).group;
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    await this.find(ctx, id);
    await this.groups.delete(ctx, id);
  }

  /** `filter` on `displayName`, `id` and `externalId` with `eq` (joined by `and`); paging by `startIndex`/`count`. */
  async list(ctx: RequestContext, query: Record<string, string | undefined>) {
    const { startIndex, count } = paging(query);
    const comparisons = query.filter !== undefined ? parseFilter(query.filter) : [];
    for (const comparison of comparisons) {
      if (!['displayName', 'id', 'externalId'].includes(comparison.attr) || comparison.op !== 'eq') {
        throw invalidFilter(`Groups are filtered by displayName, id or externalId with eq, not "${comparison.attr} ${comparison.op}"`);
      }
    }
    const holds = (group: UserGroup) =>
      comparisons.every(({ attr, value }) => {
        if (typeof value !== 'string') return false;
        if (attr === 'displayName') return this.displayName(group).toLowerCase() === value.toLowerCase();
        if (attr === 'id') return groupIdentifier(group) === value;
        return group.document.spec.egid === value;
      });
    let items: UserGroup[];
    let total: number;
    const named = comparisons.find(
      (comparison) => (comparison.attr === 'displayName' || comparison.attr === 'id') && typeof comparison.value === 'string',
    );
    if (named) {
      // One group at most: its place follows from the displayName (or it is the id).
      let id: string | undefined = named.value as string;
      if (named.attr === 'displayName') {
        try {
          id = groupIdentifier(groupPlace(id, this.defaultWorkspace));
        } catch {
          id = undefined;
        }
      }
      const group = id === undefined ? undefined : await this.groups.find(ctx, id);
      const found = group && holds(group) ? [group] : [];
      total = found.length;
      items = found.slice(startIndex - 1, startIndex - 1 + count);
    } else if (comparisons.length > 0) {
      // externalId: the groups are read in pages and compared (groups are few; egid has no index).
      const found: UserGroup[] = [];
      for (let page = 0; ; page++) {
        const batch = await this.groups.list(ctx, {}, { page, size: 350 });
        found.push(...batch.items.filter(holds));
        if (batch.items.length < 350) break;
      }
      total = found.length;
      items = found.slice(startIndex - 1, startIndex - 1 + count);
    } else {
      const page = await window((request: PageRequest) => this.groups.list(ctx, {}, request), startIndex, count);
      ({ items, total } = page);
    }
    const resources = await Promise.all(items.map(async (group) => project(await this.toScim(ctx, group), query)));
    return listResponse(resources, total, startIndex);
  }
}
