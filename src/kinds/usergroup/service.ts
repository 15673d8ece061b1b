import type { RequestContext } from '../../auth/context.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventDraft } from '../eventlog/model.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { WorkspaceService } from '../workspace/service.js';
import { groupIdentifier, type UserGroup, type UserGroupInput } from './model.js';
import { UserGroupStore, type UserGroupFilter } from './store.js';
import { USER_GROUP_EVENTS } from './wire/index.js';
import { USER_GROUP_TITLES } from './events.js';

/**
 * Workspace user groups without any notion of who asks. Each write is one method in one transaction:
 * `save` (create or replace by workspace and name), `setMembers` (what SCIM's group PATCH and PUT
 * need), `delete` (with the group's bindings).
 */
const subject = (group: UserGroup) => ({ codec: USER_GROUP_EVENTS, id: groupIdentifier(group), workspace: group.workspace, object: group });

/** A group's change as events: members added, members removed, anything else changed. */
function groupEvents(existing: UserGroup | undefined, group: UserGroup): EventDraft[] {
  if (!existing) return [eventOf(USER_GROUP_TITLES.groupCreated, subject(group))];
  const added = group.members.filter((member) => !existing.members.includes(member));
  const removed = existing.members.filter((member) => !group.members.includes(member));
  const events: EventDraft[] = [];
  const id = groupIdentifier(group);
  if (added.length > 0)
    events.push(
      eventOf(USER_GROUP_TITLES.groupMembersAdded, {
        ...subject(group),
        description: `${added.join(', ')} added to meshWorkspaceUserGroup ${id}`,
      }),
    );
  if (removed.length > 0)
    events.push(
      eventOf(USER_GROUP_TITLES.groupMembersRemoved, {
        ...subject(group),
        description: `${removed.join(', ')} removed from meshWorkspaceUserGroup ${id}`,
      }),
    );
  const rest = (g: UserGroup) => ({ ...g, members: [], updatedOn: undefined });
  if (differs(rest(existing), rest(group))) events.push(eventOf(USER_GROUP_TITLES.groupChanged, { ...subject(group), previous: existing }));
  return events;
}

/** The event of a group's deletion (by the service, or by an import's declarative deletion). */
export const groupDeleted = (group: UserGroup): EventDraft =>
  eventOf(USER_GROUP_TITLES.groupDeleted, {
    ...subject(group),
    description: `meshWorkspaceUserGroup ${groupIdentifier(group)} was deleted with its memberships and the role bindings naming it`,
  });

/** Declarative deletion of a collection's group: with its memberships and the bindings naming it (nothing when gone already). */
export async function deleteCollectedGroup(
  trx: Db,
  object: { workspace: string; name: string },
  events: EventDraft[],
  references: ReferenceGraph,
): Promise<void> {
  const group = await new UserGroupStore(trx).find(object.workspace, object.name);
  if (group) await deleteGroup(trx, group, events, references);
}

/** The group with its memberships and, by their kind, the bindings naming it. */
async function deleteGroup(trx: Db, group: UserGroup, events: EventDraft[], references: ReferenceGraph): Promise<void> {
  await references.cascade(trx, 'userGroup', [group.workspace, group.name], events);
  await new UserGroupStore(trx).delete(group.workspace, group.name);
  events.push(groupDeleted(group));
}

/** The group `input` makes of `existing` (or a new one) and the events of that change (none: nothing changes). */
function saved(existing: UserGroup | undefined, input: UserGroupInput, collection: string | undefined) {
  const now = new Date().toISOString();
  const group: UserGroup = {
    ...input,
    createdOn: existing?.createdOn ?? now,
    ...(existing ? { updatedOn: now } : {}),
    ...(collection !== undefined ? { collection } : existing?.collection !== undefined ? { collection: existing.collection } : {}),
  };
  return { group, changes: groupEvents(existing, group) };
}

/** A write's database error as the caller's: created meanwhile (409), a member or the workspace deleted meanwhile (422). */
function writeError(error: unknown, group: string, workspace: string): unknown {
  if (isUniqueViolation(error)) return conflict(`${group} was created concurrently; try again`);
  if (isForeignKeyViolation(error)) return unprocessable(`spec.members: a member or the workspace ${workspace} was deleted meanwhile`);
  return error;
}

export class UserGroupService {
  private readonly store: UserGroupStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new UserGroupStore(db);
  }

  find(workspace: string, name: string): Promise<UserGroup | undefined> {
    return this.store.find(workspace, name);
  }

  list(filter: UserGroupFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  requireWorkspace(workspace: string): Promise<void> {
    return this.workspaces.requireExists(workspace, 'metadata.ownedByWorkspace');
  }

  /** Creates or replaces the group (members as given, which the caller resolved); `collection` marks it for declarative deletion. */
  async save(ctx: RequestContext, input: UserGroupInput, collection?: string): Promise<{ group: UserGroup; created: boolean }> {
    try {
      return await this.events.change(ctx, async (trx, events) => {
        const store = new UserGroupStore(trx);
        const existing = await store.find(input.workspace, input.name);
        const { group, changes } = saved(existing, input, collection);
        if (changes.length === 0) return { group: existing!, created: false };
        if (existing) await store.update(group);
        else await store.insert(group);
        events.push(...changes);
        return { group, created: existing === undefined };
      });
    } catch (error) {
      throw writeError(error, `meshWorkspaceUserGroup ${groupIdentifier(input)}`, input.workspace);
    }
  }

  /**
   * `save` for several groups in one transaction, all or nothing, the new ones inserted together
   * (an import into a collection). A group named twice is refused: one by one, the second would
   * update the first.
   */
  async saveAll(
    ctx: RequestContext,
    inputs: readonly UserGroupInput[],
    collection: string,
  ): Promise<{ group: UserGroup; created: boolean }[]> {
    const named = new Set<string>();
    for (const input of inputs) {
      const id = groupIdentifier(input);
      if (named.has(id)) throw badRequest(`metadata.name: meshWorkspaceUserGroup ${id} is named twice (save them one by one)`);
      named.add(id);
    }
    try {
      return await this.events.change(ctx, async (trx, events) => {
        const store = new UserGroupStore(trx);
        const existing = new Map((await store.findMany(inputs)).map((group) => [groupIdentifier(group), group]));
        const results: { group: UserGroup; created: boolean }[] = [];
        const fresh: UserGroup[] = [];
        for (const input of inputs) {
          const before = existing.get(groupIdentifier(input));
          const { group, changes } = saved(before, input, collection);
          if (changes.length === 0) {
            results.push({ group: before!, created: false });
            continue;
          }
          if (before) await store.update(group);
          else fresh.push(group);
          events.push(...changes);
          results.push({ group, created: before === undefined });
        }
        await store.insertMany(fresh);
        return results;
      });
    } catch (error) {
      throw writeError(
        error,
        `a meshWorkspaceUserGroup of these ${inputs.length}`,
        [...new Set(inputs.map((input) => input.workspace))].join(', '),
      );
    }
  }

  async setMembers(ctx: RequestContext, group: UserGroup, members: string[]): Promise<UserGroup> {
    return (await this.save(ctx, { workspace: group.workspace, name: group.name, members, document: group.document })).group;
  }

  /**
   * Adds and removes members atomically against the members as they are at commit (SCIM's member
   * PATCHes, which may arrive side by side): the group's row is written first, which holds every
   * other writer of the group until this transaction ends, then its members are read and changed.
   * Undefined when the group is gone.
   */
  async changeMembers(
    ctx: RequestContext,
    workspace: string,
    name: string,
    add: readonly string[],
    remove: readonly string[],
  ): Promise<UserGroup | undefined> {
    try {
      return await this.events.change(ctx, async (trx, events) => {
        const store = new UserGroupStore(trx);
        const updatedOn = new Date().toISOString();
        if (!(await store.touch(workspace, name, updatedOn))) return undefined;
        const group = (await store.find(workspace, name))!;
        const gone = new Set(remove);
        const members = [...new Set([...group.members.filter((member) => !gone.has(member)), ...add])];
        const changed: UserGroup = { ...group, members, updatedOn };
        await store.update(changed);
        events.push(...groupEvents(group, changed));
        return changed;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw unprocessable(`members: a member or the group ${workspace}.${name} was deleted meanwhile`);
      throw error;
    }
  }

  /** The group goes with its memberships and the bindings naming it, in one transaction. */
  async delete(ctx: RequestContext, group: UserGroup): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      await deleteGroup(trx, group, events, this.references);
    });
  }
}
