import type { RequestContext } from '../../auth/context.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventDraft } from '../eventlog/model.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventTitle } from '../eventlog/titles.js';
import type { ProjectService } from '../project/service.js';
import type { WorkspaceService } from '../workspace/service.js';
import { BINDING_SHAPES, type Binding, type BindingInput, type BindingKind } from './model.js';
import { BindingStore, type BindingFilter } from './store.js';
import { BINDING_EVENTS } from './wire/index.js';
import { BINDING_TITLES } from './events.js';

/** A binding whose references were resolved by the authorized service (the project role by identifier). */
export interface ResolvedBinding extends BindingInput {
  projectRole?: string;
}

/** Each binding kind's event titles ("Workspace User Role Added", …). */
const ROLE_EVENTS: Record<BindingKind, { added: EventTitle; changed: EventTitle; removed: EventTitle }> = {
  meshWorkspaceUserBinding: {
    added: BINDING_TITLES.workspaceUserRoleAdded,
    changed: BINDING_TITLES.workspaceUserRoleChanged,
    removed: BINDING_TITLES.workspaceUserRoleRemoved,
  },
  meshWorkspaceGroupBinding: {
    added: BINDING_TITLES.workspaceGroupRoleAdded,
    changed: BINDING_TITLES.workspaceGroupRoleChanged,
    removed: BINDING_TITLES.workspaceGroupRoleRemoved,
  },
  meshProjectUserBinding: {
    added: BINDING_TITLES.projectUserRoleAdded,
    changed: BINDING_TITLES.projectUserRoleChanged,
    removed: BINDING_TITLES.projectUserRoleRemoved,
  },
  meshProjectGroupBinding: {
    added: BINDING_TITLES.projectGroupRoleAdded,
    changed: BINDING_TITLES.projectGroupRoleChanged,
    removed: BINDING_TITLES.projectGroupRoleRemoved,
  },
};

const subject = (binding: Binding) => {
  const target =
    binding.project === undefined ? `meshWorkspace ${binding.workspace}` : `meshProject ${binding.workspace}.${binding.project}`;
  return {
    codec: BINDING_EVENTS[binding.kind],
    id: binding.name,
    workspace: binding.workspace,
    object: binding,
    target: `role ${binding.role} of ${binding.subject} in ${target}`,
  };
};

/** The event of a binding's removal (by DELETE, or by an import's declarative deletion). */
export function bindingRemoved(binding: Binding): EventDraft {
  const about = subject(binding);
  return eventOf(ROLE_EVENTS[binding.kind].removed, {
    ...about,
    description: `${about.target} was removed (${binding.kind} ${binding.name})`,
  });
}

/** Declarative deletion of a collection's binding (nothing when gone already). */
export async function deleteCollectedBinding(trx: Db, object: { kind: BindingKind; name: string }, events: EventDraft[]): Promise<void> {
  const bindings = new BindingStore(trx);
  const binding = await bindings.find(object.kind, object.name);
  if (!binding) return;
  await bindings.delete(object.kind, object.name);
  events.push(bindingRemoved(binding));
}

/**
 * Role bindings without any notion of who asks. Each write is one method in one transaction
 * (`create`, `save`, `delete`), so whatever records a write attaches in one place.
 */
export class BindingService {
  private readonly store: BindingStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly events: EventRecorder,
  ) {
    this.store = new BindingStore(db);
  }

  find(kind: BindingKind, name: string): Promise<Binding | undefined> {
    return this.store.find(kind, name);
  }

  list(kind: BindingKind, filter: BindingFilter, page: PageRequest) {
    return this.store.list(kind, filter, page);
  }

  namesInCollection(kind: BindingKind, collection: string): Promise<string[]> {
    return this.store.namesInCollection(kind, collection);
  }

  /** The target (after the caller's permission there was checked): 422 naming the field when absent. */
  async requireTarget(input: BindingInput): Promise<void> {
    if (input.project === undefined) return this.workspaces.requireExists(input.workspace, 'targetRef.name');
    await this.workspaces.requireExists(input.workspace, 'targetRef.ownedByWorkspace');
    await this.projects.requireExisting(input.workspace, input.project, 'targetRef.name');
  }

  /** A project binding's subject must hold a role in the project's workspace already (422). */
  async requireMember(input: BindingInput): Promise<void> {
    const user = BINDING_SHAPES[input.kind].subject === 'user';
    const member = user
      ? await this.store.isWorkspaceMember(input.workspace, input.subject)
      : await this.store.isBoundGroup(input.workspace, input.subject);
    if (!member) {
      throw unprocessable(
        `subject.name: ${user ? 'meshUser' : 'meshWorkspaceUserGroup'} "${input.subject}" is no member of meshWorkspace "${input.workspace}"; bind it to the workspace first`,
      );
    }
  }

  /** POST: a new binding (409 when the name is taken by a binding of the kind). */
  async create(ctx: RequestContext, input: ResolvedBinding): Promise<Binding> {
    return (await this.write(ctx, input, 'create')).binding;
  }

  /** The import: create or replace by name; `collection` marks it for declarative deletion. */
  save(ctx: RequestContext, input: ResolvedBinding, collection?: string): Promise<{ binding: Binding; created: boolean }> {
    return this.write(ctx, input, 'save', collection);
  }

  private async write(
    ctx: RequestContext,
    input: ResolvedBinding,
    mode: 'create' | 'save',
    collection?: string,
  ): Promise<{ binding: Binding; created: boolean }> {
    try {
      return await this.events.change(ctx, async (trx, events) => {
        const store = new BindingStore(trx);
        const existing = await store.find(input.kind, input.name);
        if (existing && mode === 'create') throw conflict(`${input.kind} ${input.name} already exists`);
        if (
          input.expiryDate !== undefined &&
          input.expiryDate !== existing?.expiryDate &&
          input.expiryDate < new Date().toISOString().slice(0, 10)
        ) {
          throw badRequest(`expiryDate: ${input.expiryDate} is in the past`);
        }
        const draft: Binding = {
          ...input,
          createdOn: existing?.createdOn ?? new Date().toISOString(),
          targetDisplayName: '',
          ...(collection !== undefined ? { collection } : existing?.collection !== undefined ? { collection: existing.collection } : {}),
        };
        if (existing && !differs({ ...existing, targetDisplayName: '' }, draft)) return { binding: existing, created: false };
        await store.upsert(draft, existing !== undefined);
        const binding = (await store.find(input.kind, input.name))!;
        const about = subject(binding);
        const titles = ROLE_EVENTS[binding.kind];
        events.push(
          existing
            ? eventOf(titles.changed, { ...about, previous: existing })
            : eventOf(titles.added, { ...about, description: `${about.target} was added (${binding.kind} ${binding.name})` }),
        );
        return { binding, created: existing === undefined };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`${input.kind} ${input.name} already exists`);
      if (isForeignKeyViolation(error))
        throw unprocessable(`${input.kind} ${input.name}: its target, role or subject was deleted meanwhile`);
      throw error;
    }
  }

  async delete(ctx: RequestContext, binding: Binding): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      await new BindingStore(trx).delete(binding.kind, binding.name);
      events.push(bindingRemoved(binding));
    });
  }
}
