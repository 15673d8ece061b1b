import type { RequestContext } from '../../auth/context.js';
import { isAllowed, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { insufficientPermissions, unprocessable } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedProjectRoleService } from '../projectrole/authorized-service.js';
import { WORKSPACE_ROLES } from '../user/model.js';
import type { AuthorizedUserService } from '../user/authorized-service.js';
import type { AuthorizedUserGroupService } from '../usergroup/authorized-service.js';
import { CallerView } from '../view.js';
import { BINDING_SHAPES, type Binding, type BindingInput, type BindingKind } from './model.js';
import type { BindingService, ResolvedBinding } from './service.js';
import type { BindingFilter } from './store.js';

const OWNER = 'Workspace Owner';

/**
 * Only who holds an owner's rights grants, changes or removes the Workspace Owner role: binding rights
 * alone (a Workspace Manager's) would otherwise make their holder an owner (WORKSPACE_DELETE is the
 * right owners alone hold).
 */
function requireOwnerRights(ctx: RequestContext, workspace: string): void {
  if (!isAllowed(ctx.principal, 'WORKSPACE', 'DELETE', workspace))
    throw insufficientPermissions(
      `the ${OWNER} role is granted, changed and removed only with WORKSPACE_DELETE of workspace ${workspace} (an owner's right)`,
    );
}

/**
 * One binding kind as the caller sees it: bindings of its own workspace, every workspace's with an
 * `ADM_` code of the resource — `WORKSPACEPRINCIPALBINDING_*` for workspace bindings,
 * `PROJECTPRINCIPALROLE_*` for project bindings (API users hold them all). A write checks the
 * permission in the target's workspace first (403 whether it exists or not), then resolves the
 * target, the role and the subject (422 naming the field); a project binding's subject must already
 * hold a role in the project's workspace (422).
 */
export class AuthorizedBindingService extends CallerView<Binding> {
  protected readonly kindName: string;
  private readonly resource: 'WORKSPACEPRINCIPALBINDING' | 'PROJECTPRINCIPALROLE';

  constructor(
    readonly kind: BindingKind,
    private readonly inner: BindingService,
    private readonly users: AuthorizedUserService,
    private readonly groups: AuthorizedUserGroupService,
    private readonly roles: AuthorizedProjectRoleService,
  ) {
    super();
    this.kindName = kind;
    this.resource = BINDING_SHAPES[kind].level === 'workspace' ? 'WORKSPACEPRINCIPALBINDING' : 'PROJECTPRINCIPALROLE';
  }

  async find(ctx: RequestContext, name: string): Promise<Binding | undefined> {
    const binding = await this.inner.find(this.kind, name);
    return binding && seesWorkspace(ctx.principal, this.resource, binding.workspace) ? binding : undefined;
  }

  list(ctx: RequestContext, filter: BindingFilter, page: PageRequest): Promise<Page<Binding>> {
    const scope = listScope(ctx.principal, this.resource);
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return Promise.resolve(emptyPage());
    return this.inner.list(this.kind, scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  private async resolveInput(ctx: RequestContext, input: BindingInput): Promise<ResolvedBinding> {
    if (input.kind !== this.kind) throw unprocessable(`kind: expected ${this.kind}, got ${input.kind}`);
    const shape = BINDING_SHAPES[this.kind];
    requireAllowed(ctx.principal, this.resource, 'SAVE', input.workspace);
    await this.inner.requireTarget(input);
    let resolved: ResolvedBinding = input;
    if (shape.level === 'workspace') {
      if (!(WORKSPACE_ROLES as readonly string[]).includes(input.role))
        throw unprocessable(`roleRef.name: "${input.role}" is no workspace role (${WORKSPACE_ROLES.join(', ')})`);
      if (shape.subject === 'group' && input.role === 'Workspace Owner')
        throw unprocessable('roleRef.name: the Workspace Owner role cannot be given to a group');
      if (input.role === OWNER) requireOwnerRights(ctx, input.workspace);
    } else {
      const role = await this.roles.resolveByRoleName(ctx, input.role, 'roleRef.name');
      resolved = { ...input, role: role.displayName, projectRole: role.name };
    }
    if (shape.subject === 'user') await this.users.resolveNamed(ctx, [input.subject], () => 'subject.name');
    else await this.groups.resolveInWorkspace(ctx, input.workspace, input.subject, 'subject.name');
    if (shape.level === 'project') await this.inner.requireMember(input);
    return resolved;
  }

  async create(ctx: RequestContext, input: BindingInput): Promise<Binding> {
    return this.inner.create(ctx, await this.resolveInput(ctx, input));
  }

  /** The import: create or replace by name (a binding of another workspace the caller cannot see is a 403 first). */
  async save(ctx: RequestContext, input: BindingInput, collection?: string): Promise<{ binding: Binding; created: boolean }> {
    const resolved = await this.resolveInput(ctx, input);
    const existing = await this.inner.find(this.kind, input.name);
    if (existing) requireAllowed(ctx.principal, this.resource, 'SAVE', existing.workspace);
    if (existing?.role === OWNER) requireOwnerRights(ctx, existing.workspace);
    return this.inner.save(ctx, resolved, collection);
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const binding = await this.get(ctx, name);
    requireAllowed(ctx.principal, this.resource, 'DELETE', binding.workspace);
    if (binding.role === OWNER) requireOwnerRights(ctx, binding.workspace);
    await this.inner.delete(ctx, binding);
  }
}
