import { isAdminFor, isAllowed, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Workspace, WorkspaceInput } from './model.js';
import type { WorkspaceService } from './service.js';

/**
 * Workspace permissions: `WORKSPACE_*` act on the key's own workspace, `ADM_WORKSPACE_*` on all; a new
 * workspace can only come from an admin (a workspace key's workspace exists already).
 */
export class AuthorizedWorkspaceService {
  constructor(private readonly inner: WorkspaceService) {}

  async get(principal: Principal, name: string): Promise<Workspace> {
    if (!isAllowed(principal, 'WORKSPACE', 'LIST', name)) throw notFound(`meshWorkspace ${name} not found`);
    return this.inner.get(name);
  }

  async list(principal: Principal, page: PageRequest) {
    const scope = listScope(principal, 'WORKSPACE');
    return this.inner.list(scope === 'all' ? {} : { name: scope.workspace }, page);
  }

  async create(principal: Principal, input: WorkspaceInput): Promise<Workspace> {
    if (!isAdminFor(principal, 'WORKSPACE', 'SAVE')) throw forbidden("you don't have sufficient permissions: ADM_WORKSPACE_SAVE is required to create a workspace");
    return this.inner.create(input);
  }

  async update(principal: Principal, name: string, input: WorkspaceInput): Promise<Workspace> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the workspace "${name}" of the path`);
    const existing = await this.get(principal, name);
    requireAllowed(principal, 'WORKSPACE', 'SAVE', name);
    return this.inner.update(existing, input);
  }

  /** The declarative import: create or update by name. */
  async save(principal: Principal, input: WorkspaceInput): Promise<{ workspace: Workspace; created: boolean }> {
    const existing = await this.inner.find(input.name);
    if (!existing) return { workspace: await this.create(principal, input), created: true };
    requireAllowed(principal, 'WORKSPACE', 'SAVE', input.name);
    return { workspace: await this.inner.update(existing, input), created: false };
  }

  async delete(principal: Principal, name: string): Promise<void> {
    const existing = await this.get(principal, name);
    requireAllowed(principal, 'WORKSPACE', 'DELETE', name);
    await this.inner.delete(existing);
  }
}
