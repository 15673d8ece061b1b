import type { RequestContext } from '../../auth/context.js';
import { requireAllowed } from '../../auth/policy.js';
import { badRequest } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import { CallerView } from '../view.js';
import type { ProjectRole, ProjectRoleInput } from './model.js';
import type { ProjectRoleService } from './service.js';

/** Project roles: read by every caller (list and GET are free); written with `ADM_PROJECTROLE_SAVE`/`_DELETE`. */
export class AuthorizedProjectRoleService extends CallerView<ProjectRole> {
  protected readonly kindName = 'meshProjectRole';

  constructor(private readonly inner: ProjectRoleService) {
    super();
  }

  find(_ctx: RequestContext, name: string): Promise<ProjectRole | undefined> {
    return this.inner.find(name);
  }

  list(_ctx: RequestContext, page: PageRequest): Promise<Page<ProjectRole>> {
    return this.inner.list(page);
  }

  async create(ctx: RequestContext, input: ProjectRoleInput): Promise<ProjectRole> {
    requireAllowed(ctx.principal, 'PROJECTROLE', 'SAVE');
    return this.inner.create(ctx, input);
  }

  /** PUT: replaces the role or creates it (upsert). */
  async save(ctx: RequestContext, name: string, input: ProjectRoleInput): Promise<{ role: ProjectRole; created: boolean }> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the meshProjectRole "${name}" of the path`);
    requireAllowed(ctx.principal, 'PROJECTROLE', 'SAVE');
    const existing = await this.inner.find(name);
    if (!existing) return { role: await this.inner.create(ctx, input), created: true };
    return { role: await this.inner.replace(ctx, existing, input), created: false };
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const role = await this.get(ctx, name);
    requireAllowed(ctx.principal, 'PROJECTROLE', 'DELETE');
    await this.inner.delete(ctx, role);
  }

  /** The role a binding's `roleRef.name` names (its `spec.name`, or its identifier): 422 when none. */
  async resolveByRoleName(_ctx: RequestContext, roleName: string, field: string): Promise<ProjectRole> {
    const role = await this.inner.findByRoleName(roleName);
    if (!role) throw this.doesNotExist(roleName, field);
    return role;
  }
}
