import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { insufficientPermissions } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { AuthorizedBlockService } from '../block/authorized-service.js';
import type { AuthorizedCommunicationDefinitionService } from '../communicationdefinition/authorized-service.js';
import type { AuthorizedTenantService } from '../tenant/authorized-service.js';
import { CallerView } from '../view.js';
import type { AuthorizedWorkspaceService } from '../workspace/authorized-service.js';
import type { Communication, CommunicationInput, TargetRef } from './model.js';
import type { CommunicationService } from './service.js';
import type { CommunicationFilter } from './store.js';

const TARGET_FIELD = 'spec.targetMeshObjectRef.name';

/**
 * Communications as the caller sees them: those of its own workspace (`COMMUNICATION_LIST`; the
 * target's workspace owns a communication), or all (`ADM_COMMUNICATION_*`). Admins send and delete
 * them (`ADM_COMMUNICATION_SAVE/DELETE`: a platform speaks to its workspaces); the owning workspace's
 * keys with `COMMUNICATION_SAVE` resolve them.
 */
export class AuthorizedCommunicationService extends CallerView<Communication> {
  protected readonly kindName = 'meshCommunication';

  constructor(
    private readonly inner: CommunicationService,
    private readonly definitions: AuthorizedCommunicationDefinitionService,
    private readonly targets: { workspaces: AuthorizedWorkspaceService; tenants: AuthorizedTenantService; blocks: AuthorizedBlockService },
  ) {
    super();
  }

  async find(ctx: RequestContext, id: string): Promise<Communication | undefined> {
    const uuid = canonicalUuid(id);
    const communication = uuid === undefined ? undefined : await this.inner.find(uuid);
    return communication && seesWorkspace(ctx.principal, 'COMMUNICATION', communication.workspace) ? communication : undefined;
  }

  list(ctx: RequestContext, filter: CommunicationFilter | 'none', page: PageRequest): Promise<Page<Communication>> {
    const scope = listScope(ctx.principal, 'COMMUNICATION');
    if (filter === 'none') return Promise.resolve(emptyPage());
    return this.inner.list(scope === 'all' ? filter : { ...filter, workspace: scope.workspace }, page);
  }

  /** The definition and the target must exist and be visible to the caller (422 naming the field otherwise). */
  async create(ctx: RequestContext, input: CommunicationInput): Promise<Communication> {
    if (!isAdminFor(ctx.principal, 'COMMUNICATION', 'SAVE'))
      throw insufficientPermissions('ADM_COMMUNICATION_SAVE is required to send communications');
    const definition = await this.definitions.resolve(ctx, input.definitionUuid, 'spec.communicationDefinitionRef.uuid');
    const { target, workspace } = await this.resolveTarget(ctx, input.target);
    return this.inner.create(ctx, { definitionUuid: definition.uuid, target, workspace });
  }

  /** The owning workspace's `COMMUNICATION_SAVE` (or an admin's) resolves it. */
  async markResolved(ctx: RequestContext, id: string): Promise<Communication> {
    const existing = await this.get(ctx, id);
    requireAllowed(ctx.principal, 'COMMUNICATION', 'SAVE', existing.workspace);
    return this.inner.resolve(ctx, existing);
  }

  async delete(ctx: RequestContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    if (!isAdminFor(ctx.principal, 'COMMUNICATION', 'DELETE')) throw insufficientPermissions('ADM_COMMUNICATION_DELETE is required');
    await this.inner.delete(ctx, existing);
  }

  /** The target in its canonical name (a tenant and a block by uuid) and the workspace that owns it. */
  private async resolveTarget(ctx: RequestContext, ref: TargetRef): Promise<{ target: TargetRef; workspace: string }> {
    switch (ref.kind) {
      case 'meshWorkspace': {
        const workspace = await this.targets.workspaces.resolve(ctx, ref.name, TARGET_FIELD);
        return { target: { kind: ref.kind, name: workspace.name }, workspace: workspace.name };
      }
      case 'meshTenant': {
        const tenant = await this.targets.tenants.resolve(ctx, ref.name, TARGET_FIELD);
        return { target: { kind: ref.kind, name: tenant.uuid }, workspace: tenant.workspace };
      }
      case 'meshBuildingBlock': {
        const block = await this.targets.blocks.resolve(ctx, ref.name, TARGET_FIELD);
        return { target: { kind: ref.kind, name: block.uuid }, workspace: block.workspace };
      }
    }
  }
}
