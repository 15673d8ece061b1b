import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import { inTransaction, type Db } from '../../store/transaction.js';
import { TenantStore } from '../tenant/store.js';
import type { WorkspaceService } from '../workspace/service.js';
import { projectIdentifier, type Project, type ProjectInput } from './model.js';
import { ProjectStore, type ProjectFilter } from './store.js';

/** Projects without any notion of who asks (AuthorizedProjectService adds that). */
export class ProjectService {
  private readonly store: ProjectStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
  ) {
    this.store = new ProjectStore(db);
  }

  async create(_ctx: RequestContext, input: ProjectInput): Promise<Project> {
    await this.workspaces.requireExists(input.workspace, 'metadata.ownedByWorkspace');
    const project: Project = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.store.insert(project);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshProject ${projectIdentifier(input)} already exists`);
      if (isForeignKeyViolation(error)) throw unprocessable(`metadata.ownedByWorkspace: meshWorkspace "${input.workspace}" does not exist`, 'WORKSPACE');
      throw error;
    }
    return project;
  }

  find(workspace: string, name: string): Promise<Project | undefined> {
    return this.store.find(workspace, name);
  }

  /**
   * 422 naming the field when a body names a project of its owning workspace that does not exist
   * (the caller's permission in that workspace was checked first).
   */
  async requireExisting(workspace: string, name: string, field: string): Promise<Project> {
    const project = await this.store.find(workspace, name);
    if (!project) throw unprocessable(`${field}: meshProject "${name}" does not exist in meshWorkspace "${workspace}"`, 'PROJECT');
    return project;
  }

  list(filter: ProjectFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(_ctx: RequestContext, existing: Project, input: ProjectInput): Promise<Project> {
    const project: Project = { ...input, createdOn: existing.createdOn };
    await this.store.update(project);
    return project;
  }

  /** 409 while live tenants belong to it; the records of its deleted tenants go with it, in one transaction. */
  async delete(_ctx: RequestContext, project: Project): Promise<void> {
    const dependents = await this.store.dependents(project);
    if (dependents.length > 0) throw conflict(`meshProject ${projectIdentifier(project)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await inTransaction(this.db, async (trx) => {
        await new TenantStore(trx).purgeDeletedOf({ workspace: project.workspace, project: project.name });
        await new ProjectStore(trx).delete(project);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshProject ${projectIdentifier(project)} still has tenants; delete them first`);
      throw error;
    }
  }
}
