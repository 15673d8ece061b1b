import type { RequestContext } from '../../auth/context.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import type { ProjectRole, ProjectRoleInput } from './model.js';
import { findByRoleName, PROJECT_ROLE_ACCESS } from './strategy.js';

/** Project roles as callers reach them (PROJECT_ROLE_ACCESS), and as bindings name them. */
export class AuthorizedProjectRoleService extends AuthorizedCrudService<ProjectRole, ProjectRoleInput> {
  constructor(inner: CrudService<ProjectRole, ProjectRoleInput>) {
    super(inner, PROJECT_ROLE_ACCESS, { kind: 'meshProjectRole', idOfInput: (input) => input.name });
  }

  /** The role a binding's `roleRef.name` names (its `spec.name`, or its identifier): 422 when none. */
  async resolveByRoleName(_ctx: RequestContext, roleName: string, field: string): Promise<ProjectRole> {
    const role = await findByRoleName(this.inner, roleName);
    if (!role) throw this.doesNotExist(roleName, field);
    return role;
  }
}
