import { isAllowed, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Project, ProjectInput } from './model.js';
import type { ProjectService } from './service.js';
import type { ProjectFilter } from './store.js';

/** `PROJECT_*` act on projects of the key's own workspace, `ADM_PROJECT_*` on all. */
export class AuthorizedProjectService {
  constructor(private readonly inner: ProjectService) {}

  async get(principal: Principal, workspace: string, name: string): Promise<Project> {
    if (!isAllowed(principal, 'PROJECT', 'LIST', workspace)) throw notFound(`meshProject ${workspace}.${name} not found`);
    return this.inner.get(workspace, name);
  }

  async list(principal: Principal, filter: ProjectFilter, page: PageRequest) {
    const scope = listScope(principal, 'PROJECT');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return { items: [], total: 0 };
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  async create(principal: Principal, input: ProjectInput): Promise<Project> {
    requireAllowed(principal, 'PROJECT', 'SAVE', input.workspace);
    return this.inner.create(input);
  }

  async update(principal: Principal, workspace: string, name: string, input: ProjectInput): Promise<Project> {
    if (input.workspace !== workspace) throw badRequest(`metadata.ownedByWorkspace: "${input.workspace}" does not match the project "${workspace}.${name}" of the path`);
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the project "${workspace}.${name}" of the path`);
    const existing = await this.get(principal, workspace, name);
    requireAllowed(principal, 'PROJECT', 'SAVE', workspace);
    return this.inner.update(existing, input);
  }

  async save(principal: Principal, input: ProjectInput): Promise<{ project: Project; created: boolean }> {
    const existing = await this.inner.find(input.workspace, input.name);
    if (!existing) return { project: await this.create(principal, input), created: true };
    requireAllowed(principal, 'PROJECT', 'SAVE', input.workspace);
    return { project: await this.inner.update(existing, input), created: false };
  }

  async delete(principal: Principal, workspace: string, name: string): Promise<void> {
    const existing = await this.get(principal, workspace, name);
    requireAllowed(principal, 'PROJECT', 'DELETE', workspace);
    await this.inner.delete(existing);
  }
}
