import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { badRequest, insufficientPermissions } from '../../lib/errors.js';
import type { Page, PageRequest } from '../../lib/paging.js';
import type { AuthorizedTagDefinitionService } from '../tagdefinition/authorized-service.js';
import { placeTags } from '../tagdefinition/model.js';
import { CallerView } from '../view.js';
import type { Workspace, WorkspaceInput } from './model.js';
import type { WorkspaceService } from './service.js';

/**
 * Workspaces as the caller sees them: its own, or all with an `ADM_WORKSPACE_*` code. `WORKSPACE_*`
 * act on the key's own workspace, `ADM_WORKSPACE_*` on all; a new workspace comes only from an admin.
 */
export class AuthorizedWorkspaceService extends CallerView<Workspace> {
  protected readonly kindName = 'meshWorkspace';
  protected override readonly missing = 'WORKSPACE' as const;

  constructor(
    private readonly inner: WorkspaceService,
    private readonly tags: AuthorizedTagDefinitionService,
  ) {
    super();
  }

  /** The tag definitions of meshWorkspace applied to `metadata.tags`. */
  private async withTags(ctx: RequestContext, input: WorkspaceInput, existing: Workspace | undefined): Promise<WorkspaceInput> {
    const tags = await this.tags.enforce(
      ctx,
      'meshWorkspace',
      input.document.metadata.tags,
      existing ? (existing.document.metadata.tags ?? {}) : undefined,
      isAdminFor(ctx.principal, 'WORKSPACE', 'SAVE'),
      'metadata.tags',
    );
    return { ...input, document: { ...input.document, metadata: placeTags(input.document.metadata, tags) } };
  }

  async find(ctx: RequestContext, name: string): Promise<Workspace | undefined> {
    return seesWorkspace(ctx.principal, 'WORKSPACE', name) ? this.inner.find(name) : undefined;
  }

  list(ctx: RequestContext, page: PageRequest): Promise<Page<Workspace>> {
    const scope = listScope(ctx.principal, 'WORKSPACE');
    return this.inner.list(scope === 'all' ? {} : { name: scope.workspace }, page);
  }

  async create(ctx: RequestContext, input: WorkspaceInput): Promise<Workspace> {
    if (!isAdminFor(ctx.principal, 'WORKSPACE', 'SAVE'))
      throw insufficientPermissions('ADM_WORKSPACE_SAVE is required to create a workspace');
    return this.inner.create(ctx, await this.withTags(ctx, input, undefined));
  }

  async update(ctx: RequestContext, name: string, input: WorkspaceInput): Promise<Workspace> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the workspace "${name}" of the path`);
    const existing = await this.get(ctx, name);
    requireAllowed(ctx.principal, 'WORKSPACE', 'SAVE', name);
    return this.inner.update(ctx, existing, await this.withTags(ctx, input, existing));
  }

  /** The declarative import: create or update by name. */
  async save(ctx: RequestContext, input: WorkspaceInput): Promise<{ workspace: Workspace; created: boolean }> {
    const existing = await this.find(ctx, input.name);
    if (!existing) return { workspace: await this.create(ctx, input), created: true };
    requireAllowed(ctx.principal, 'WORKSPACE', 'SAVE', input.name);
    return { workspace: await this.inner.update(ctx, existing, await this.withTags(ctx, input, existing)), created: false };
  }

  async delete(ctx: RequestContext, name: string): Promise<void> {
    const existing = await this.get(ctx, name);
    requireAllowed(ctx.principal, 'WORKSPACE', 'DELETE', name);
    await this.inner.delete(ctx, existing);
  }
}
