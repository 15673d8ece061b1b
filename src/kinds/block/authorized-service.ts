import { isAdminFor, isAllowed, isAllowedAsManager, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { forbidden, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { DefinitionService } from '../definition/service.js';
import { versionStatus } from '../definition/model.js';
import type { Block, BlockRequest, BlockUpdate } from './model.js';
import type { BlockQuery } from './parse-block-filter.js';
import type { BlockService } from './service.js';

const INSUFFICIENT = "you don't have sufficient permissions";

/**
 * Who sees and changes building blocks: `BUILDINGBLOCK_*` in the block's workspace (`ADM_` in all);
 * the workspace owning a block's definition sees it with `MANAGED_BUILDINGBLOCK_LIST` and acts as its
 * operator with `MANAGED_BUILDINGBLOCK_SAVE` (operator inputs, inputs not updateable by consumers);
 * purge needs `ADM_BUILDINGBLOCK_DELETE` (spec §5.1: not for workspace-scoped access).
 */
export class AuthorizedBlockService {
  constructor(
    private readonly inner: BlockService,
    private readonly definitions: DefinitionService,
  ) {}

  private visible(principal: Principal, block: Block): boolean {
    return isAllowed(principal, 'BUILDINGBLOCK', 'LIST', block.workspace) || isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', block.definitionOwner);
  }

  /** Platform operators of a block: admins and the definition's workspace (COMPAT §3). */
  isOperator(principal: Principal, block: Pick<Block, 'definitionOwner'>): boolean {
    return isAllowedAsManager(principal, 'BUILDINGBLOCK_SAVE', block.definitionOwner);
  }

  /** The `forcePurge` link is shown only to those who may purge (spec §2.4, §2.5). */
  mayPurge(principal: Principal): boolean {
    return isAdminFor(principal, 'BUILDINGBLOCK', 'DELETE');
  }

  async get(principal: Principal, uuid: string): Promise<Block> {
    const block = await this.inner.get(uuid);
    if (!this.visible(principal, block)) throw notFound(`meshBuildingBlock ${uuid} not found`);
    return block;
  }

  async list(principal: Principal, query: BlockQuery, page: PageRequest) {
    const filter = { ...query.filter };
    if (query.managedByWorkspace !== undefined || query.managedByDefinition !== undefined) {
      // Blocks of definitions a workspace owns, whatever workspace they are in.
      let owner = query.managedByWorkspace;
      if (query.managedByDefinition !== undefined) {
        const definition = await this.definitions.find(query.managedByDefinition);
        if (!definition || (owner !== undefined && definition.ownedByWorkspace !== owner)) return { items: [], total: 0 };
        owner = definition.ownedByWorkspace;
        filter.definitionUuid = definition.uuid;
      }
      if (!isAllowedAsManager(principal, 'BUILDINGBLOCK_LIST', owner!)) throw forbidden(`${INSUFFICIENT}: MANAGED_BUILDINGBLOCK_LIST ("List all Building Blocks for owned definition") of workspace ${owner} is required`);
      // A definition has one owner: with its uuid in the filter the owner condition adds nothing (and would cost row reads).
      if (filter.definitionUuid === undefined) filter.definitionOwner = owner!;
      return this.inner.list(filter, page);
    }
    const scope = listScope(principal, 'BUILDINGBLOCK');
    if (scope !== 'all') {
      if (filter.workspace !== undefined && filter.workspace !== scope.workspace) return { items: [], total: 0 };
      filter.workspace = scope.workspace;
    }
    return this.inner.list(filter, page);
  }

  async create(principal: Principal, request: BlockRequest): Promise<Block> {
    const prepared = await this.inner.prepare(request, principal.id);
    const { block, definition, given, parents } = prepared;
    requireAllowed(principal, 'BUILDINGBLOCK', 'SAVE', block.workspace);
    const ownDefinition = isAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'LIST', definition.ownedByWorkspace) || block.workspace === definition.ownedByWorkspace;
    if (!ownDefinition && versionStatus(definition.versions).latestReleasedVersion === 0) throw unprocessable(`meshBuildingBlockDefinition "${definition.uuid}" does not exist`);
    parents.forEach((parent, index) => {
      if (!this.visible(principal, parent)) throw unprocessable(`spec.parentBuildingBlocks[${index}].buildingBlockUuid: meshBuildingBlock "${parent.uuid}" does not exist`);
    });
    if (given.some((row) => row.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT') && !this.isOperator(principal, block)) {
      throw forbidden(`${INSUFFICIENT}: platform-operator inputs are set by the definition's workspace or an admin`);
    }
    return this.inner.commit(prepared);
  }

  async update(principal: Principal, uuid: string, update: BlockUpdate): Promise<Block> {
    const block = await this.get(principal, uuid);
    if (!this.isOperator(principal, block)) {
      requireAllowed(principal, 'BUILDINGBLOCK', 'SAVE', block.workspace);
      const { rows, version } = await this.inner.changedInputs(block, update);
      for (const row of rows) {
        const input = version.spec.inputs[row.key]!;
        // Supplying a user input the block lacks (no value, no default) is the consumer's part.
        const supplying = !block.inputs.some((current) => current.key === row.key) && input.defaultValue === undefined && input.assignmentType === 'USER_INPUT';
        if (input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT' || (!input.updateableByConsumer && !supplying)) {
          throw forbidden(`${INSUFFICIENT}: input "${row.key}" cannot be changed by a consumer`);
        }
      }
    }
    return this.inner.update(block, update);
  }

  async triggerRun(principal: Principal, uuid: string): Promise<void> {
    const block = await this.get(principal, uuid);
    if (!this.isOperator(principal, block)) requireAllowed(principal, 'BUILDINGBLOCK', 'SAVE', block.workspace);
    await this.inner.triggerRun(block);
  }

  async delete(principal: Principal, uuid: string): Promise<void> {
    const block = await this.get(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCK', 'DELETE', block.workspace);
    await this.inner.delete(block, principal.id);
  }

  async purge(principal: Principal, uuid: string): Promise<void> {
    if (!this.mayPurge(principal)) throw forbidden(`${INSUFFICIENT}: purging needs administration rights (ADM_BUILDINGBLOCK_DELETE)`);
    const block = await this.get(principal, uuid);
    await this.inner.purge(block, principal.id);
  }
}
