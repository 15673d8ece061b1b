import { conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { WorkspaceService } from '../workspace/service.js';
import { projectIdentifier, type Project, type ProjectInput } from './model.js';
import type { ProjectFilter, ProjectStore } from './store.js';

export class ProjectService {
  constructor(
    private readonly store: ProjectStore,
    private readonly workspaces: WorkspaceService,
  ) {}

  async create(input: ProjectInput): Promise<Project> {
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

  async get(workspace: string, name: string): Promise<Project> {
    const project = await this.store.find(workspace, name);
    if (!project) throw notFound(`meshProject ${workspace}.${name} not found`);
    return project;
  }

  /** 422 naming the field when a body refers to a project that does not exist. */
  async requireExisting(workspace: string, name: string, field: string): Promise<Project> {
    const project = await this.store.find(workspace, name);
    if (!project) throw unprocessable(`${field}: meshProject "${name}" does not exist in meshWorkspace "${workspace}"`, 'PROJECT');
    return project;
  }

  list(filter: ProjectFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(existing: Project, input: ProjectInput): Promise<Project> {
    const project: Project = { ...input, createdOn: existing.createdOn };
    await this.store.update(project);
    return project;
  }

  async delete(project: Project): Promise<void> {
    const dependents = await this.store.dependents(project);
    if (dependents.length > 0) throw conflict(`meshProject ${projectIdentifier(project)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await this.store.delete(project);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshProject ${projectIdentifier(project)} still has tenants; delete them first`);
      throw error;
    }
  }
}
