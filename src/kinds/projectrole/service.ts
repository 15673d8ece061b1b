import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import { inTransaction, type Db } from '../../store/transaction.js';
import type { ProjectRole, ProjectRoleInput } from './model.js';
import { ProjectRoleStore } from './store.js';

/** Project roles without any notion of who asks; each write one method in one transaction. */
export class ProjectRoleService {
  private readonly store: ProjectRoleStore;

  constructor(private readonly db: Db) {
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

  async create(_ctx: RequestContext, input: ProjectRoleInput): Promise<ProjectRole> {
    const role: ProjectRole = { ...input, createdOn: new Date().toISOString() };
    try {
      await inTransaction(this.db, async (trx) => {
        const store = new ProjectRoleStore(trx);
        if (await store.find(input.name)) throw conflict(`meshProjectRole ${input.name} already exists`);
        if ((await store.findByRoleName(input.displayName))?.displayName === input.displayName) throw this.taken(input);
        await store.insert(role);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshProjectRole ${input.name} already exists (or its spec.name is taken)`);
      throw error;
    }
    return role;
  }

  async replace(_ctx: RequestContext, existing: ProjectRole, input: ProjectRoleInput): Promise<ProjectRole> {
    const role: ProjectRole = { ...input, createdOn: existing.createdOn };
    try {
      await inTransaction(this.db, async (trx) => {
        const holder = await new ProjectRoleStore(trx).findByRoleName(input.displayName);
        if (holder && holder.name !== input.name && holder.displayName === input.displayName) throw this.taken(input);
        await new ProjectRoleStore(trx).update(role);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.taken(input);
      throw error;
    }
    return role;
  }

  /** Only while no binding uses the role (409 naming them). */
  async delete(_ctx: RequestContext, role: ProjectRole): Promise<void> {
    try {
      await inTransaction(this.db, async (trx) => {
        const store = new ProjectRoleStore(trx);
        const dependents = await store.dependents(role.name);
        if (dependents.length > 0) throw conflict(`meshProjectRole ${role.name} is still used by ${dependents.join(', ')}; delete them first`);
        await store.delete(role.name);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshProjectRole ${role.name} is still used by project bindings; delete them first`);
      throw error;
    }
  }
}
