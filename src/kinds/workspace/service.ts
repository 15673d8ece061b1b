import { conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Workspace, WorkspaceInput } from './model.js';
import type { WorkspaceStore } from './store.js';

/** Workspaces without any notion of who asks (AuthorizedWorkspaceService adds that). */
export class WorkspaceService {
  private readonly deletionListeners: ((name: string) => void)[] = [];

  constructor(private readonly store: WorkspaceStore) {}

  /** Called after a workspace is gone (its API keys went with it: caches must forget them). */
  onDeleted(listener: (name: string) => void): void {
    this.deletionListeners.push(listener);
  }

  async create(input: WorkspaceInput): Promise<Workspace> {
    const workspace: Workspace = { ...input, createdOn: new Date().toISOString() };
    try {
      await this.store.insert(workspace);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshWorkspace ${input.name} already exists`);
      throw error;
    }
    return workspace;
  }

  async find(name: string): Promise<Workspace | undefined> {
    return this.store.find(name);
  }

  async get(name: string): Promise<Workspace> {
    const workspace = await this.store.find(name);
    if (!workspace) throw notFound(`meshWorkspace ${name} not found`);
    return workspace;
  }

  /** 422 naming the field when a body refers to a workspace that does not exist. */
  async requireExists(name: string, field: string): Promise<void> {
    if (!(await this.store.exists(name))) throw unprocessable(`${field}: meshWorkspace "${name}" does not exist`, 'WORKSPACE');
  }

  list(filter: { name?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** PUT replaces the tags and the spec (COMPAT §7); the name is the identity. */
  async update(existing: Workspace, input: WorkspaceInput): Promise<Workspace> {
    const workspace = { ...existing, document: input.document };
    await this.store.update(workspace);
    return workspace;
  }

  async delete(workspace: Workspace): Promise<void> {
    const dependents = await this.store.dependents(workspace.name);
    if (dependents.length > 0) throw conflict(`meshWorkspace ${workspace.name} still owns ${dependents.join(', ')}; delete them first`);
    try {
      await this.store.delete(workspace.name);
    } catch (error) {
      // Something was added between the check and the delete.
      if (isForeignKeyViolation(error)) throw conflict(`meshWorkspace ${workspace.name} still owns objects; delete them first`);
      throw error;
    }
    for (const listener of this.deletionListeners) listener(workspace.name);
  }
}
