import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { hideSecrets, sealSensitive } from '../../crypto/secret-values.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isForeignKeyViolation, isUniqueViolation, type DialectName } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventDraft } from '../eventlog/model.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf } from '../eventlog/titles.js';
import { dependencyUuids, isPublishedVersion, latestOffered, type DefinitionVersion } from '../definition/model.js';
import { checkBlockInputs, mergeRows } from './inputs.js';
import { blockSubject, type BlockLifecycle, type BlockUnit } from './lifecycle.js';
import type { Block, BlockRequest, ParentRef, ResolvedBlockRequest, ResolvedBlockUpdate, SentInputs, ValueRow } from './model.js';
import { BlockStore, type BlockFilter } from './store.js';
import { BLOCK_TITLES } from './events.js';

/** Binds a block's unit of work to a transaction (the composition root knows the run store). */
export type BlockUnitFactory = (db: Db, events: EventDraft[]) => BlockUnit;

const canonical = (value: unknown) => JSON.stringify(hideSecrets(value));

/**
 * Building blocks without any notion of who asks: AuthorizedBlockService resolves what a request names
 * through the caller's view and hands this service the objects; it never looks up an id a client sent.
 */
export class BlockService {
  private readonly store: BlockStore;

  constructor(
    private readonly db: Db,
    dialect: DialectName,
    private readonly unitOf: BlockUnitFactory,
    private readonly lifecycle: BlockLifecycle,
    private readonly secrets: SecretBox,
    private readonly events: EventRecorder,
  ) {
    this.store = new BlockStore(db, dialect);
  }

  /** A block's change: one transaction, its events appended last (EventRecorder). */
  private transaction<T>(ctx: RequestContext, work: (unit: BlockUnit) => Promise<T>): Promise<T> {
    return this.events.change(ctx, (trx, events) => work(this.unitOf(trx, events)));
  }

  async find(uuid: string): Promise<Block | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.find(id) : undefined;
  }

  findMany(uuids: readonly string[]): Promise<Block[]> {
    return this.store.findMany(uuids);
  }

  list(filter: BlockFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** Sensitive values are sealed whatever their JSON type; `{hash}` keeps the value stored under the same key. */
  private seal(rows: ValueRow[], previous: readonly ValueRow[]): ValueRow[] {
    return rows.map((row) =>
      row.isSensitive
        ? {
            ...row,
            value: sealSensitive(row.value, previous.find((p) => p.key === row.key)?.value, this.secrets, `spec.inputs.${row.key}`),
          }
        : row,
    );
  }

  /**
   * The parents as they are now (read once, in the creating transaction): each exists, is of the
   * definition it names, is not being deleted and lives in the block's workspace; together they cover
   * the version's dependencies.
   */
  private checkParents(sent: BlockRequest['parents'], found: readonly Block[], version: DefinitionVersion, workspace: string): ParentRef[] {
    const refs = sent.map((parent, index) => {
      const field = `spec.parentBuildingBlocks[${index}]`;
      const block = found.find((b) => b.uuid === parent.buildingBlockUuid);
      if (!block) throw unprocessable(`${field}.buildingBlockUuid: meshBuildingBlock "${parent.buildingBlockUuid}" does not exist`);
      if (block.workspace !== workspace)
        throw unprocessable(
          `${field}.buildingBlockUuid: meshBuildingBlock ${block.uuid} is in workspace ${block.workspace}; a parent is in the block's workspace (${workspace})`,
        );
      if (parent.definitionUuid !== undefined && parent.definitionUuid.toLowerCase() !== block.definitionUuid) {
        throw badRequest(`${field}.definitionUuid: block ${block.uuid} is of definition ${block.definitionUuid}`);
      }
      if (block.markedForDeletionOn) throw conflict(`${field}: meshBuildingBlock ${block.uuid} is being deleted`);
      return { buildingBlockUuid: block.uuid, definitionUuid: block.definitionUuid };
    });
    const missing = dependencyUuids(version.spec).filter((uuid) => !refs.some((ref) => ref.definitionUuid === uuid));
    if (missing.length > 0)
      throw badRequest(`spec.parentBuildingBlocks: the version depends on definitions ${missing.join(', ')}; name a parent block of each`);
    return refs;
  }

  /**
   * Stores the block and decides, in the same transaction, what it waits for or starts its run. The
   * create response says PENDING (spec §3.1); reads show where it went from there.
   */
  async create(ctx: RequestContext, resolved: ResolvedBlockRequest): Promise<Block> {
    const { request, definition, version, target } = resolved;
    const tenant = 'tenant' in target ? target.tenant : undefined;
    if (definition.targetType === 'TENANT_LEVEL' && !tenant)
      throw badRequest(`spec.targetRef: definition ${definition.uuid} is TENANT_LEVEL and needs a meshTenant target`);
    if (definition.targetType === 'WORKSPACE_LEVEL' && tenant)
      throw badRequest(`spec.targetRef: definition ${definition.uuid} is WORKSPACE_LEVEL and needs a meshWorkspace target`);
    const workspace = tenant?.workspace ?? (target as { workspace: string }).workspace;
    if (version.spec.state === 'DRAFT' && workspace !== definition.ownedByWorkspace) {
      throw unprocessable(
        `version ${version.spec.versionNumber} of definition ${definition.uuid} is a draft: only its own workspace may use it`,
      );
    }
    if (
      !isPublishedVersion({ state: version.spec.state, ...(version.review ? { review: version.review.state } : {}) }) &&
      workspace !== definition.ownedByWorkspace
    ) {
      throw unprocessable(
        `version ${version.spec.versionNumber} of definition ${definition.uuid} is not approved for other workspaces: only its own workspace may use it`,
      );
    }
    const block: Block = {
      uuid: randomUUID(),
      workspace,
      targetKind: tenant ? 'meshTenant' : 'meshWorkspace',
      ...(tenant
        ? {
            tenant: {
              uuid: tenant.uuid,
              project: tenant.project,
              platformIdentifier: `${tenant.platform.name}.${tenant.platform.location}`,
            },
          }
        : {}),
      definitionUuid: definition.uuid,
      definitionOwner: definition.ownedByWorkspace,
      versionUuid: version.uuid,
      versionNumber: version.spec.versionNumber,
      displayName: request.displayName,
      status: 'PENDING',
      forcePurge: false,
      createdOn: new Date().toISOString(),
      createdBy: ctx.principal.id,
      inputs: this.seal(checkBlockInputs(request.inputs, version.spec), []),
      parents: [],
      outputs: [],
      ...(request.targetRef ? { targetRef: request.targetRef } : {}),
    };
    try {
      const { runUuid } = await this.transaction(ctx, async (tx) => {
        const parents = await tx.blocks.findMany(
          resolved.parents.map((parent) => parent.buildingBlockUuid),
          'share',
        );
        block.parents = this.checkParents(resolved.parents, parents, version, workspace);
        await tx.blocks.insert(block, version.spec.onlyApplyOncePerTenant === true && tenant !== undefined);
        tx.events.push(eventOf(BLOCK_TITLES.blockCreated, blockSubject(block)));
        const created = { definitionRunTransparency: definition.document.spec.runTransparency === true };
        const advanced = await this.lifecycle.advance(tx, block, 'BUILDING_BLOCK_CREATION', { version, parents, created });
        // Last: on PostgreSQL the count's row lock is held until the commit, and every create of the
        // definition queues on it; taken at the end, it is held for the commit alone.
        await tx.definitions.countUsage(definition.uuid, 1);
        return advanced;
      });
      return { ...block, status: 'PENDING', ...(runUuid ? { latestRunUuid: runUuid } : {}) };
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(
          `definition ${block.definitionUuid} applies once per tenant, and tenant ${block.tenant?.uuid} already has a block of it`,
        );
      if (isForeignKeyViolation(error)) throw conflict('a parent block was deleted while this block was created; read the parents again');
      throw error;
    }
  }

  /** The inputs a PUT would change, checked against the version and sealed (a question; nothing changes). */
  changedInputs(block: Block, sent: SentInputs, version: DefinitionVersion): ValueRow[] {
    const rows = this.seal(checkBlockInputs(sent, version.spec), block.inputs);
    return rows.filter((row) => canonical(row.value) !== canonical(block.inputs.find((current) => current.key === row.key)?.value));
  }

  /**
   * PUT (v2-preview, COMPAT §9): a rename alone changes nothing else; changed inputs or a new version
   * start a new run (or leave the waiting state); 409 while a run is in flight or the block is being
   * deleted. A version change goes only to the latest version offered to the block's workspace.
   */
  async update(ctx: RequestContext, block: Block, update: ResolvedBlockUpdate): Promise<Block> {
    if (block.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
    const { version, definition, changed } = update;
    const versionChanged = version.uuid !== block.versionUuid;
    if (versionChanged) {
      const target = latestOffered(definition, block.workspace);
      if (definition.uuid !== block.definitionUuid || target?.uuid !== version.uuid) {
        throw badRequest(
          `spec.buildingBlockDefinitionVersionRef.uuid: a block moves only to the latest released version of its definition offered to its workspace (${target?.uuid ?? 'none'})`,
        );
      }
    } else if (
      update.parents &&
      canonical(update.parents.map((p) => p.buildingBlockUuid).sort()) !== canonical(block.parents.map((p) => p.buildingBlockUuid).sort())
    ) {
      throw badRequest('spec.parentBuildingBlocks: parents change only together with the version');
    }
    const runNeeded = changed.length > 0 || versionChanged;
    const updated: Block = {
      ...block,
      displayName: update.displayName,
      inputs: mergeRows(block.inputs, changed),
      versionUuid: version.uuid,
      versionNumber: version.spec.versionNumber,
    };
    try {
      await this.transaction(ctx, async (tx) => {
        // What was checked above must still hold: a concurrent delete or run wins, this PUT is refused.
        const fresh = await tx.blocks.findForUpdate(block.uuid);
        if (!fresh || fresh.markedForDeletionOn || fresh.latestRunUuid !== block.latestRunUuid)
          throw conflict(`meshBuildingBlock ${block.uuid} changed while this update was checked; read it again`);
        if (runNeeded && (await tx.runs.activeRun(block.uuid)))
          throw conflict(`meshBuildingBlock ${block.uuid} has a run in progress; change it when the run has ended`);
        let parents: Block[] | undefined;
        if (versionChanged) {
          const sent = update.parents ?? block.parents;
          parents = await tx.blocks.findMany(
            sent.map((parent) => parent.buildingBlockUuid),
            'share',
          );
          updated.parents = this.checkParents(sent, parents, version, block.workspace);
        }
        await tx.blocks.update(updated);
        if (differs({ ...fresh, status: updated.status, latestRunUuid: updated.latestRunUuid }, updated))
          tx.events.push(eventOf(BLOCK_TITLES.blockChanged, { ...blockSubject(updated), previous: fresh }));
        if (versionChanged) await tx.blocks.replaceParents(block.uuid, updated.parents);
        if (runNeeded) {
          const { status, runUuid } = await this.lifecycle.advance(tx, updated, 'BUILDING_BLOCK_UPDATE', {
            version,
            ...(parents ? { parents } : {}),
          });
          updated.status = status;
          if (runUuid) updated.latestRunUuid = runUuid;
        }
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict('a parent block was deleted while this block was changed; read the parents again');
      throw error;
    }
    return updated;
  }

  /** `POST /{uuid}/trigger-run` (COMPAT §9): a new APPLY run now — or the waiting state it is in. */
  async triggerRun(ctx: RequestContext, block: Block): Promise<void> {
    if (block.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
    await this.transaction(ctx, async (tx) => {
      const fresh = await tx.blocks.findForUpdate(block.uuid);
      if (!fresh || fresh.markedForDeletionOn) throw conflict(`meshBuildingBlock ${block.uuid} is being deleted`);
      if (await tx.runs.activeRun(block.uuid)) throw conflict(`meshBuildingBlock ${block.uuid} has a run in progress`);
      await this.lifecycle.advance(tx, fresh, 'MANUAL_TRIGGER');
    });
  }

  /** 409 while other blocks name it as a parent (the message names them: they are the caller's). */
  private async requireNoChildren(block: Block): Promise<void> {
    const children = await this.store.children(block.uuid);
    if (children.length > 0) throw conflict(`meshBuildingBlock ${block.uuid} is the parent of ${children.join(', ')}; delete those first`);
  }

  async delete(ctx: RequestContext, block: Block): Promise<void> {
    if (block.markedForDeletionOn) return; // 202 again (COMPAT §2: clients retry DELETE)
    await this.requireNoChildren(block);
    await this.removing(ctx, block, (tx) => this.lifecycle.requestDeletion(tx, block, ctx.principal.id));
  }

  async purge(ctx: RequestContext, block: Block): Promise<void> {
    await this.requireNoChildren(block);
    await this.removing(ctx, block, (tx) => this.lifecycle.purge(tx, block, ctx.principal.id));
  }

  /** A child created between the check and the removal makes the parent's row undeletable: 409. */
  private async removing(ctx: RequestContext, block: Block, work: (tx: BlockUnit) => Promise<void>): Promise<void> {
    try {
      await this.transaction(ctx, work);
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(`meshBuildingBlock ${block.uuid} became the parent of another block; delete that first`);
      throw error;
    }
  }
}
