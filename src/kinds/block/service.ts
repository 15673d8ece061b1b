import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { hideSecrets, sealSecrets } from '../../crypto/secret-values.js';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUuid } from '../../http/validation.js';
import type { BlockLifecycle } from '../../runs/lifecycle.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Repositories } from '../../store/repositories.js';
import type { Definition, DefinitionVersion } from '../definition/model.js';
import type { DefinitionService } from '../definition/service.js';
import { dependencyUuids } from '../definition/version-rules.js';
import type { TenantService } from '../tenant/service.js';
import type { Tenant } from '../tenant/model.js';
import type { WorkspaceService } from '../workspace/service.js';
import { checkBlockInputs, mergeRows } from './block-inputs.js';
import type { Block, BlockRequest, BlockUpdate, ParentRef, ValueRow } from './model.js';
import type { BlockFilter } from './store.js';

/** A create request resolved against the database, checked, not yet stored. */
export interface PreparedBlock {
  block: Block;
  definition: Definition;
  version: DefinitionVersion;
  /** The given inputs (for the permission check on operator inputs). */
  given: ValueRow[];
  parents: Block[];
}

const canonical = (value: unknown) => JSON.stringify(hideSecrets(value));

/** Building blocks without any notion of who asks (AuthorizedBlockService adds that). */
export class BlockService {
  constructor(
    private readonly repos: Repositories,
    private readonly lifecycle: BlockLifecycle,
    private readonly workspaces: WorkspaceService,
    private readonly tenants: TenantService,
    private readonly definitions: DefinitionService,
    private readonly secrets: SecretBox,
  ) {}

  private async resolveVersion(request: BlockRequest): Promise<DefinitionVersion> {
    if ('uuid' in request.version) {
      const version = await this.definitions.getVersion(request.version.uuid).catch(() => undefined);
      if (!version) throw unprocessable(`spec.buildingBlockDefinitionVersionRef.uuid: meshBuildingBlockDefinitionVersion "${request.version.uuid}" does not exist`);
      return version;
    }
    const { definitionUuid, versionNumber } = request.version;
    const definition = await this.definitions.find(definitionUuid);
    if (!definition) throw unprocessable(`metadata.definitionUuid: meshBuildingBlockDefinition "${definitionUuid}" does not exist`);
    const version = await this.definitions.findVersionByNumber(definition.uuid, versionNumber);
    if (!version) throw unprocessable(`metadata.definitionVersion: meshBuildingBlockDefinition "${definitionUuid}" has no version ${versionNumber}`);
    return version;
  }

  private async resolveTenant(request: BlockRequest): Promise<Tenant | undefined> {
    const { target } = request;
    if ('workspace' in target) {
      await this.workspaces.requireExists(target.workspace, 'spec.targetRef.identifier');
      return undefined;
    }
    const id = 'tenantUuid' in target ? target.tenantUuid : target.tenantName;
    const field = 'tenantUuid' in target ? 'spec.targetRef.uuid' : 'metadata.tenantIdentifier';
    const tenant = await this.tenants.get(id).catch(() => undefined);
    if (!tenant || tenant.deletedOn) throw unprocessable(`${field}: meshTenant "${id}" does not exist`, 'OTHER');
    return tenant;
  }

  /** Parents exist, are of the definitions they name, and cover the version's dependencies. */
  private async resolveParents(sent: BlockRequest['parents'], version: DefinitionVersion): Promise<{ refs: ParentRef[]; blocks: Block[] }> {
    const blocks = await this.repos.blocks.findMany(sent.map((parent) => parent.buildingBlockUuid.toLowerCase()));
    const refs = sent.map((parent, index) => {
      const block = blocks.find((b) => b.uuid === parent.buildingBlockUuid.toLowerCase());
      if (!block) throw unprocessable(`spec.parentBuildingBlocks[${index}].buildingBlockUuid: meshBuildingBlock "${parent.buildingBlockUuid}" does not exist`);
      if (parent.definitionUuid !== undefined && parent.definitionUuid.toLowerCase() !== block.definitionUuid) {
        throw badRequest(`spec.parentBuildingBlocks[${index}].definitionUuid: block ${block.uuid} is of definition ${block.definitionUuid}`);
      }
      if (block.markedForDeletionOn) throw conflict(`spec.parentBuildingBlocks[${index}]: meshBuildingBlock ${block.uuid} is being deleted`);
      return { buildingBlockUuid: block.uuid, definitionUuid: block.definitionUuid };
    });
    const missing = dependencyUuids(version.spec)
      .map((uuid) => uuid.toLowerCase())
      .filter((uuid) => !refs.some((ref) => ref.definitionUuid === uuid));
    if (missing.length > 0) throw badRequest(`spec.parentBuildingBlocks: the version depends on definitions ${missing.join(', ')}; name a parent block of each`);
    return { refs, blocks };
  }

  /** Sensitive values are sealed; `{hash}` keeps the value stored under the same key. */
  private seal(rows: ValueRow[], previous: readonly ValueRow[]): ValueRow[] {
    return rows.map((row) => {
      if (!row.isSensitive) return row;
      const before = previous.find((p) => p.key === row.key)?.value;
      const value = typeof row.value === 'string' ? { plaintext: row.value } : row.value;
      return { ...row, value: sealSecrets(value, before, this.secrets, `spec.inputs.${row.key}`) };
    });
  }

  async prepare(request: BlockRequest, creator: string): Promise<PreparedBlock> {
    const version = await this.resolveVersion(request);
    const definition = await this.definitions.get(version.definitionUuid);
    const tenant = await this.resolveTenant(request);
    if (definition.targetType === 'TENANT_LEVEL' && !tenant) throw badRequest(`spec.targetRef: definition ${definition.uuid} is TENANT_LEVEL and needs a meshTenant target`);
    if (definition.targetType === 'WORKSPACE_LEVEL' && tenant) throw badRequest(`spec.targetRef: definition ${definition.uuid} is WORKSPACE_LEVEL and needs a meshWorkspace target`);
    const workspace = tenant?.workspace ?? (request.target as { workspace: string }).workspace;
    if (version.spec.state === 'DRAFT' && workspace !== definition.ownedByWorkspace) {
      throw unprocessable(`version ${version.spec.versionNumber} of definition ${definition.uuid} is a draft: only its own workspace may use it`);
    }
    const given = checkBlockInputs(request.inputs, version.spec);
    const parents = await this.resolveParents(request.parents, version);
    const block: Block = {
      uuid: randomUUID(),
      workspace,
      targetKind: tenant ? 'meshTenant' : 'meshWorkspace',
      ...(tenant ? { tenant: { uuid: tenant.uuid, project: tenant.project, platformIdentifier: `${tenant.platform.name}.${tenant.platform.location}` } } : {}),
      definitionUuid: definition.uuid,
      definitionOwner: definition.ownedByWorkspace,
      versionUuid: version.uuid,
      versionNumber: version.spec.versionNumber,
      displayName: request.displayName,
      status: 'PENDING',
      forcePurge: false,
      createdOn: new Date().toISOString(),
      createdBy: creator,
      inputs: this.seal(given, []),
      parents: parents.refs,
      outputs: [],
      ...(request.targetRef ? { targetRef: request.targetRef } : {}),
    };
    return { block, definition, version, given, parents: parents.blocks };
  }

  /**
   * Stores the block and decides, in the same transaction, what it waits for or starts its run. The
   * create response says PENDING (spec §3.1); reads show where it went from there.
   */
  async commit(prepared: PreparedBlock): Promise<Block> {
    const { block, version } = prepared;
    try {
      const { runUuid } = await this.repos.transaction(async (tx) => {
        await tx.blocks.insert(block, version.spec.onlyApplyOncePerTenant === true && block.tenant !== undefined);
        return this.lifecycle.advance(tx, block, 'BUILDING_BLOCK_CREATION', version);
      });
      return { ...block, status: 'PENDING', ...(runUuid ? { latestRunUuid: runUuid } : {}) };
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`definition ${block.definitionUuid} applies once per tenant, and tenant ${block.tenant?.uuid} already has a block of it`);
      throw error;
    }
  }

  async get(uuid: string): Promise<Block> {
    const block = isUuid(uuid) ? await this.repos.blocks.find(uuid.toLowerCase()) : undefined;
    if (!block) throw notFound(`meshBuildingBlock ${uuid} not found`);
    return block;
  }

  list(filter: BlockFilter, page: PageRequest) {
    return this.repos.blocks.list(filter, page);
  }

  /** The inputs an update changes (for the permission check on non-updateable inputs). */
  async changedInputs(block: Block, update: BlockUpdate): Promise<{ rows: ValueRow[]; version: DefinitionVersion }> {
    const version = update.versionUuid && update.versionUuid !== block.versionUuid ? await this.resolveVersion({ version: { uuid: update.versionUuid } } as BlockRequest) : await this.lifecycle.versionOf(this.repos, block);
    const rows = this.seal(checkBlockInputs(update.inputs, version.spec), block.inputs);
    const changed = rows.filter((row) => canonical(row.value) !== canonical(block.inputs.find((current) => current.key === row.key)?.value));
    return { rows: changed, version };
  }

  /**
   * PUT (v2-preview, COMPAT §9): a rename alone changes nothing else; changed inputs or a new version
   * start a new run (or leave the waiting state); 409 while a run is in flight or the block is being
   * deleted. A version change goes only to the definition's latest released version.
   */
  async update(block: Block, update: BlockUpdate): Promise<Block> {
    if (block.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
    const { rows, version } = await this.changedInputs(block, update);
    const versionChanged = version.uuid !== block.versionUuid;
    let parents = block.parents;
    if (versionChanged) {
      const definition = await this.definitions.get(block.definitionUuid);
      const latestReleased = definition.versions.filter((v) => v.state === 'RELEASED').at(-1);
      if (version.definitionUuid !== block.definitionUuid || latestReleased?.uuid !== version.uuid) {
        throw badRequest(`spec.buildingBlockDefinitionVersionRef.uuid: a block moves only to the latest released version of its definition (${latestReleased?.uuid ?? 'none'})`);
      }
      parents = (await this.resolveParents(update.parents ?? block.parents, version)).refs;
    } else if (update.parents && canonical(update.parents.map((p) => p.buildingBlockUuid.toLowerCase()).sort()) !== canonical(block.parents.map((p) => p.buildingBlockUuid).sort())) {
      throw badRequest('spec.parentBuildingBlocks: parents change only together with the version');
    }
    const runNeeded = rows.length > 0 || versionChanged;
    if (runNeeded && (await this.repos.runs.activeRun(block.uuid))) throw conflict(`meshBuildingBlock ${block.uuid} has a run in progress; change it when the run has ended`);
    const updated: Block = {
      ...block,
      displayName: update.displayName,
      inputs: mergeRows(block.inputs, rows),
      versionUuid: version.uuid,
      versionNumber: version.spec.versionNumber,
      parents,
    };
    await this.repos.transaction(async (tx) => {
      // What was checked above must still hold: a concurrent delete or run wins, this PUT is refused.
      const fresh = await tx.blocks.findForUpdate(block.uuid);
      if (!fresh || fresh.markedForDeletionOn || fresh.latestRunUuid !== block.latestRunUuid) throw conflict(`meshBuildingBlock ${block.uuid} changed while this update was checked; read it again`);
      await tx.blocks.update(updated);
      if (versionChanged) await tx.blocks.replaceParents(block.uuid, parents);
      if (runNeeded) {
        const { status, runUuid } = await this.lifecycle.advance(tx, updated, 'BUILDING_BLOCK_UPDATE', version);
        updated.status = status;
        if (runUuid) updated.latestRunUuid = runUuid;
      }
    });
    return updated;
  }

  /** `POST /{uuid}/trigger-run` (COMPAT §9): a new APPLY run now — or the waiting state it is in. */
  async triggerRun(block: Block): Promise<void> {
    if (block.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
    await this.repos.transaction(async (tx) => {
      const fresh = await tx.blocks.findForUpdate(block.uuid);
      if (!fresh || fresh.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
      if (await tx.runs.activeRun(block.uuid)) throw conflict(`meshBuildingBlock ${block.uuid} has a run in progress`);
      await this.lifecycle.advance(tx, fresh, 'MANUAL_TRIGGER');
    });
  }

  /** 409 while other blocks name it as a parent (the message names them). */
  private async requireNoChildren(block: Block): Promise<void> {
    const children = await this.repos.blocks.children(block.uuid);
    if (children.length > 0) throw conflict(`meshBuildingBlock ${block.uuid} is the parent of ${children.join(', ')}; delete those first`);
  }

  async delete(block: Block, by: string): Promise<void> {
    if (block.markedForDeletionOn) return; // 202 again (COMPAT §2: clients retry DELETE)
    await this.requireNoChildren(block);
    await this.removing(block, (tx) => this.lifecycle.requestDeletion(tx, block, by));
  }

  async purge(block: Block, by: string): Promise<void> {
    await this.requireNoChildren(block);
    await this.removing(block, (tx) => this.lifecycle.purge(tx, block, by));
  }

  /** A child created between the check and the removal makes the parent's row undeletable: 409. */
  private async removing(block: Block, work: (tx: Repositories) => Promise<void>): Promise<void> {
    try {
      await this.repos.transaction(work);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshBuildingBlock ${block.uuid} became the parent of another block; delete that first`);
      throw error;
    }
  }
}
