import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { ProjectRole, ProjectRoleInput } from './model.js';
import { ProjectRoleStore } from './store.js';
import { PROJECT_ROLE_EVENTS } from './wire/index.js';
import { PROJECT_ROLE_TITLES } from './events.js';

const subject = (role: ProjectRole) => ({ codec: PROJECT_ROLE_EVENTS, id: role.name, object: role });

/** Project roles without any notion of who asks; each write one method in one transaction. */
export class ProjectRoleService {
  private readonly store: ProjectRoleStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new ProjectRoleStore(db);
  }

  find(name: string): Promise<ProjectRole | undefined> {
    return this.store.find(name);
  }

  findByRoleName(roleName: string): Promise<ProjectRole | undefined> {
    return this.store.findByRoleName(roleName);
  }

  list(page: PageRequest) {
    return this.store.list(page);
  }

  private taken(input: ProjectRoleInput) {
    return conflict(`spec.name: "${input.displayName}" is the name of another meshProjectRole`);
  }

  async create(ctx: RequestContext, input: ProjectRoleInput): Promise<ProjectRole> {
    const role: ProjectRole = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new ProjectRoleStore(trx);
        if (await store.find(input.name)) throw conflict(`meshProjectRole ${input.name} already exists`);
        if ((await store.findByRoleName(input.displayName))?.displayName === input.displayName) throw this.taken(input);
        await store.insert(role);
        events.push(eventOf(PROJECT_ROLE_TITLES.projectRoleCreated, subject(role)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshProjectRole ${input.name} already exists (or its spec.name is taken)`);
      throw error;
    }
    return role;
  }

  async replace(ctx: RequestContext, existing: ProjectRole, input: ProjectRoleInput): Promise<ProjectRole> {
    const role: ProjectRole = { ...input, createdOn: existing.createdOn };
    if (!differs(existing, role)) return role;
    try {
      await this.events.change(ctx, async (trx, events) => {
        const holder = await new ProjectRoleStore(trx).findByRoleName(input.displayName);
        if (holder && holder.name !== input.name && holder.displayName === input.displayName) throw this.taken(input);
        await new ProjectRoleStore(trx).update(role);
        events.push(eventOf(PROJECT_ROLE_TITLES.projectRoleChanged, { ...subject(role), previous: existing }));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.taken(input);
      throw error;
    }
    return role;
  }

  /** Only while no binding uses the role (409 naming them). */
  async delete(ctx: RequestContext, role: ProjectRole): Promise<void> {
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new ProjectRoleStore(trx);
        const dependents = await this.references.holding(trx, 'projectRole', [role.name]);
        if (dependents.length > 0)
          throw conflict(`meshProjectRole ${role.name} is still used by ${dependents.join(', ')}; delete them first`);
        await store.delete(role.name);
        events.push(eventOf(PROJECT_ROLE_TITLES.projectRoleDeleted, subject(role)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshProjectRole ${role.name} is still used by project bindings; delete them first`);
      throw error;
    }
  }
}
