import type { RequestContext } from '../../auth/context.js';
import { isAdminFor, isAllowedAsManager, listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { insufficientPermissions, unprocessable } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { AuthorizedDefinitionService } from '../definition/authorized-service.js';
import type { DefinitionVersion } from '../definition/model.js';
import type { AuthorizedTenantService } from '../tenant/authorized-service.js';
import { CallerView } from '../view.js';
import type { AuthorizedWorkspaceService } from '../workspace/authorized-service.js';
import type { Block, BlockRequest, BlockUpdate, ResolvedBlockRequest, SentInputs } from './model.js';
import type { BlockQuery } from './query.js';
import type { BlockService } from './service.js';

const VERSION_FIELDS = {
  uuid: 'spec.buildingBlockDefinitionVersionRef.uuid',
  definition: 'metadata.definitionUuid',
  number: 'metadata.definitionVersion',
};

/** Whether any of the sent inputs is a platform-operator input of the version (set by operators only). */
const setsOperatorInput = (inputs: SentInputs, version: DefinitionVersion) =>
  Object.entries(inputs).some(
    ([key, given]) =>
      given.value !== undefined &&
      Object.hasOwn(version.spec.inputs, key) &&
      version.spec.inputs[key]!.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT',
  );

/**
 * Building blocks as the caller sees them: its own workspace's (`BUILDINGBLOCK_*`), all with `ADM_`,
 * and — for the workspace owning a block's definition — those holding `MANAGED_BUILDINGBLOCK_LIST` or
 * `_SAVE` (platform operators; `_SAVE` sets operator inputs and inputs not updateable by consumers).
 * Every reference a create or update names is resolved here, through the caller's view of its kind;
 * purge needs `ADM_BUILDINGBLOCK_DELETE` (spec §5.1: not for workspace-scoped access).
 */
export class AuthorizedBlockService extends CallerView<Block> {
  protected readonly kindName = 'meshBuildingBlock';

  constructor(
    private readonly inner: BlockService,
    private readonly definitions: AuthorizedDefinitionService,
    private readonly tenants: AuthorizedTenantService,
    private readonly workspaces: AuthorizedWorkspaceService,
  ) {
    super();
  }

  static sees(principal: Principal, block: Pick<Block, 'workspace' | 'definitionOwner'>): boolean {
    return (
      seesWorkspace(principal, 'BUILDINGBLOCK', block.workspace) ||
      isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', block.definitionOwner) ||
      isAllowedAsManager(principal, 'BUILDINGBLOCK_SAVE', block.definitionOwner)
    );
  }

  /** Platform operators of a block: admins and the definition's workspace (COMPAT §3). */
  isOperator(ctx: RequestContext, definitionOwner: string): boolean {
    return isAllowedAsManager(ctx.principal, 'BUILDINGBLOCK_SAVE', definitionOwner);
  }

  /** The `forcePurge` link is shown only to those who may purge (spec §2.4, §2.5). */
  mayPurge(ctx: RequestContext): boolean {
    return isAdminFor(ctx.principal, 'BUILDINGBLOCK', 'DELETE');
  }

  async find(ctx: RequestContext, uuid: string): Promise<Block | undefined> {
    const block = await this.inner.find(uuid);
    return block && AuthorizedBlockService.sees(ctx.principal, block) ? block : undefined;
  }

  /** Parents a body names, each visible to the caller (422 naming the entry otherwise), uuids canonical. */
  private async resolveParents(ctx: RequestContext, sent: BlockRequest['parents']): Promise<BlockRequest['parents']> {
    const uuids = sent.map((parent) => canonicalUuid(parent.buildingBlockUuid) ?? parent.buildingBlockUuid);
    const visible = new Set(
      (await this.inner.findMany(uuids)).filter((block) => AuthorizedBlockService.sees(ctx.principal, block)).map((block) => block.uuid),
    );
    return sent.map((parent, index) => {
      if (!visible.has(uuids[index]!))
        throw unprocessable(
          `spec.parentBuildingBlocks[${index}].buildingBlockUuid: meshBuildingBlock "${parent.buildingBlockUuid}" does not exist`,
        );
      return { ...parent, buildingBlockUuid: uuids[index]! };
    });
  }

  /** The target a body names: a live tenant or a workspace, through the caller's view of each. */
  private async resolveTarget(ctx: RequestContext, target: BlockRequest['target']): Promise<ResolvedBlockRequest['target']> {
    if ('workspace' in target)
      return { workspace: (await this.workspaces.resolve(ctx, target.workspace, 'spec.targetRef.identifier')).name };
    if ('tenantUuid' in target) return { tenant: await this.tenants.resolveLive(ctx, target.tenantUuid, 'spec.targetRef.uuid') };
    return { tenant: await this.tenants.resolveLive(ctx, target.tenantName, 'metadata.tenantIdentifier') };
  }

  async create(ctx: RequestContext, request: BlockRequest): Promise<Block> {
    const { definition, version } = await this.definitions.resolveVersion(ctx, request.version, VERSION_FIELDS);
    const target = await this.resolveTarget(ctx, request.target);
    requireAllowed(ctx.principal, 'BUILDINGBLOCK', 'SAVE', 'tenant' in target ? target.tenant.workspace : target.workspace);
    const parents = await this.resolveParents(ctx, request.parents);
    if (setsOperatorInput(request.inputs, version) && !this.isOperator(ctx, definition.ownedByWorkspace)) {
      throw insufficientPermissions("platform-operator inputs are set by the definition's workspace or an admin");
    }
    return this.inner.create(ctx, { request, definition, version, target, parents });
  }

  async list(ctx: RequestContext, query: BlockQuery, page: PageRequest): Promise<Page<Block>> {
    const filter = { ...query.filter };
    // Blocks of definitions a workspace owns, whatever workspace they are in; the workspace form wins (OpenAPI).
    if (query.managedByWorkspace !== undefined) {
      if (!isAllowedAsManager(ctx.principal, 'BUILDINGBLOCK_LIST', query.managedByWorkspace)) {
        throw insufficientPermissions(
          `MANAGED_BUILDINGBLOCK_LIST ("List all Building Blocks for owned definition") of workspace ${query.managedByWorkspace} is required`,
        );
      }
      return this.inner.list({ ...filter, definitionOwner: query.managedByWorkspace }, page);
    }
    if (query.managedByDefinition !== undefined) {
      const definition = await this.definitions.find(ctx, query.managedByDefinition);
      if (!definition) return emptyPage();
      if (!isAllowedAsManager(ctx.principal, 'BUILDINGBLOCK_LIST', definition.ownedByWorkspace)) {
        throw insufficientPermissions(
          `MANAGED_BUILDINGBLOCK_LIST ("List all Building Blocks for owned definition") of workspace ${definition.ownedByWorkspace} is required`,
        );
      }
      // A definition has one owner: with its uuid in the filter the owner condition adds nothing.
      return this.inner.list({ ...filter, definitionUuid: definition.uuid }, page);
    }
    const scope = listScope(ctx.principal, 'BUILDINGBLOCK');
    if (scope !== 'all') {
      if (filter.workspace !== undefined && filter.workspace !== scope.workspace) return emptyPage();
      filter.workspace = scope.workspace;
    }
    return this.inner.list(filter, page);
  }

  async update(ctx: RequestContext, uuid: string, update: BlockUpdate): Promise<Block> {
    const block = await this.get(ctx, uuid);
    const { definition, version } = await this.definitions.resolveVersion(
      ctx,
      { uuid: update.versionUuid ?? block.versionUuid },
      VERSION_FIELDS,
    );
    const parents = update.parents && version.uuid !== block.versionUuid ? await this.resolveParents(ctx, update.parents) : update.parents;
    const changed = this.inner.changedInputs(block, update.inputs, version);
    if (!this.isOperator(ctx, block.definitionOwner)) {
      requireAllowed(ctx.principal, 'BUILDINGBLOCK', 'SAVE', block.workspace);
      for (const row of changed) {
        const input = version.spec.inputs[row.key]!;
        // Supplying a user input the block lacks (no value, no default) is the consumer's part.
        const supplying =
          !block.inputs.some((current) => current.key === row.key) &&
          input.defaultValue === undefined &&
          input.assignmentType === 'USER_INPUT';
        if (input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT' || (!input.updateableByConsumer && !supplying))
          throw insufficientPermissions(`input "${row.key}" cannot be changed by a consumer`);
      }
    }
    return this.inner.update(ctx, block, {
      displayName: update.displayName,
      definition,
      version,
      changed,
      ...(parents ? { parents } : {}),
    });
  }

  async triggerRun(ctx: RequestContext, uuid: string): Promise<void> {
    const block = await this.get(ctx, uuid);
    if (!this.isOperator(ctx, block.definitionOwner)) requireAllowed(ctx.principal, 'BUILDINGBLOCK', 'SAVE', block.workspace);
    await this.inner.triggerRun(ctx, block);
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const block = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'BUILDINGBLOCK', 'DELETE', block.workspace);
    await this.inner.delete(ctx, block);
  }

  async purge(ctx: RequestContext, uuid: string): Promise<void> {
    if (!this.mayPurge(ctx)) throw insufficientPermissions('purging needs administration rights (ADM_BUILDINGBLOCK_DELETE)');
    await this.inner.purge(ctx, await this.get(ctx, uuid));
  }
}
