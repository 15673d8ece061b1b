import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { hideSecrets, sealSecrets } from '../../crypto/secret-values.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { Runner } from '../runner/model.js';
import type { WorkspaceService } from '../workspace/service.js';
import { IMPLEMENTATIONS } from './enums.js';
import { withDefaults, type Definition, type DefinitionInput, type DefinitionVersion, type Review, type VersionSpec } from './model.js';
import { DefinitionStore, type DefinitionFilter } from './store.js';
import { checkVersionSpec } from './version-rules.js';
import { DEFINITION_EVENTS, VERSION_EVENTS } from './wire/index.js';
import { DEFINITION_TITLES } from './events.js';

/** JSON with sorted keys: two specs are the same when these are equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Two version specs hold the same content: equal with defaults filled in, secrets compared by hash. */
const sameContent = (a: VersionSpec, b: VersionSpec) => canonical(hideSecrets(withDefaults(a))) === canonical(hideSecrets(withDefaults(b)));

const definitionSubject = (definition: Omit<Definition, 'versions' | 'usageCount'>) => ({
  codec: DEFINITION_EVENTS,
  id: definition.uuid,
  workspace: definition.ownedByWorkspace,
  object: definition,
});
const versionSubject = (version: DefinitionVersion) => ({
  codec: VERSION_EVENTS,
  id: `${version.definitionUuid} v${version.spec.versionNumber}`,
  workspace: version.ownedByWorkspace,
  object: version,
});

/** What a version spec names, resolved through the caller's view by the authorized service. */
export interface VersionReferences {
  /** The runner of `spec.runnerRef`, when one is named. */
  runner?: Runner;
}

/** How a release reaches the marketplace: at once (released by an admin) or after an admin's review. */
export type Publication = 'approved' | 'review';

/**
 * Definitions and their versions (spec §2.6, §3.3, COMPAT §8), without any notion of who asks.
 * State rules: version 1 is created as a draft with the definition; at most one draft exists; a new
 * draft is latest + 1; a released version never changes.
 */
export class DefinitionService {
  private readonly store: DefinitionStore;

  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly secrets: SecretBox,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new DefinitionStore(db);
  }

  /** `uuid` is chosen by the service, except in the declarative import (which names it for idempotence). */
  async create(ctx: RequestContext, input: DefinitionInput, uuid: string = randomUUID()): Promise<Definition> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const definition = { ...input, uuid, createdOn: new Date().toISOString() };
    const first: DefinitionVersion = {
      uuid: randomUUID(),
      definitionUuid: definition.uuid,
      ownedByWorkspace: input.ownedByWorkspace,
      createdOn: definition.createdOn,
      spec: { versionNumber: 1, state: 'DRAFT', deletionMode: 'DELETE', implementation: { type: 'manual' }, inputs: {}, outputs: {} },
    };
    try {
      await this.events.change(ctx, async (trx, events) => {
        const store = new DefinitionStore(trx);
        await store.insertDefinition(definition);
        await store.insertVersion(first);
        events.push(
          eventOf(DEFINITION_TITLES.definitionCreated, definitionSubject(definition)),
          eventOf(DEFINITION_TITLES.versionAdded, versionSubject(first)),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshBuildingBlockDefinition ${uuid} already exists`);
      throw error;
    }
    return { ...definition, versions: [{ uuid: first.uuid, versionNumber: 1, state: 'DRAFT' }], usageCount: 0 };
  }

  async find(uuid: string): Promise<Definition | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.findDefinition(id) : undefined;
  }

  async findVersion(uuid: string): Promise<DefinitionVersion | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.findVersion(id) : undefined;
  }

  findVersionByNumber(definitionUuid: string, versionNumber: number): Promise<DefinitionVersion | undefined> {
    return this.store.findVersionByNumber(definitionUuid, versionNumber);
  }

  list(filter: DefinitionFilter, page: PageRequest) {
    return this.store.listDefinitions(filter, page);
  }

  async update(ctx: RequestContext, existing: Definition, input: DefinitionInput): Promise<Definition> {
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest(`metadata.ownedByWorkspace: a definition cannot move to another workspace (is "${existing.ownedByWorkspace}")`);
    const definition = { ...existing, displayName: input.displayName, targetType: input.targetType, document: input.document };
    if (!differs(existing, definition)) return definition;
    await this.events.change(ctx, async (trx, events) => {
      await new DefinitionStore(trx).updateDefinition(definition);
      events.push(eventOf(DEFINITION_TITLES.definitionModified, { ...definitionSubject(definition), previous: existing }));
    });
    return definition;
  }

  /** 202: the definition goes with its versions; 409 while building blocks use it. */
  async delete(ctx: RequestContext, definition: Definition): Promise<void> {
    const dependents = await this.references.holding(this.db, 'definition', [definition.uuid]);
    if (dependents.length > 0) throw conflict(`meshBuildingBlockDefinition ${definition.uuid} is still used by ${dependents.join(', ')}`);
    await this.events.change(ctx, async (trx, events) => {
      await new DefinitionStore(trx).deleteDefinition(definition.uuid);
      events.push(eventOf(DEFINITION_TITLES.definitionDeleted, definitionSubject(definition)));
    });
  }

  listVersions(filter: { definitionUuid?: string; ownedBy?: string }, page: PageRequest) {
    return this.store.listVersions(filter, page);
  }

  /** Validates, checks the named runner runs this implementation, and seals secrets (`{hash}` keeps those of `previous`). */
  private prepare(spec: VersionSpec, previous: VersionSpec | undefined, references: VersionReferences): VersionSpec {
    const checked = checkVersionSpec(spec);
    if (references.runner) {
      const runnerType = references.runner.implementationType;
      const needed = IMPLEMENTATIONS[checked.implementation.type].runnerType;
      if (runnerType !== needed && runnerType !== 'ALL')
        throw unprocessable(`spec.runnerRef: runner ${references.runner.uuid} runs ${runnerType}, this version needs ${needed}`);
    }
    return sealSecrets(checked, previous, this.secrets, 'spec') as VersionSpec;
  }

  /** A new draft: `versionNumber` latest + 1; secrets may be kept by hash from the latest version. */
  async createVersion(
    ctx: RequestContext,
    definition: Definition,
    spec: VersionSpec,
    references: VersionReferences,
  ): Promise<DefinitionVersion> {
    if (spec.state !== 'DRAFT') throw badRequest('spec.state: a new version starts as DRAFT; release it with PUT');
    if (definition.versions.some((v) => v.state === 'DRAFT'))
      throw conflict(`meshBuildingBlockDefinition ${definition.uuid} already has a draft version; edit or release it`);
    const latest = definition.versions.at(-1);
    const expected = (latest?.versionNumber ?? 0) + 1;
    if (spec.versionNumber !== expected) throw badRequest(`spec.versionNumber: the next version of this definition is ${expected}`);
    const previous = latest ? (await this.store.findVersion(latest.uuid))?.spec : undefined;
    const version: DefinitionVersion = {
      uuid: randomUUID(),
      definitionUuid: definition.uuid,
      ownedByWorkspace: definition.ownedByWorkspace,
      createdOn: new Date().toISOString(),
      spec: this.prepare(spec, previous, references),
    };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new DefinitionStore(trx).insertVersion(version);
        events.push(eventOf(DEFINITION_TITLES.versionAdded, versionSubject(version)));
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict(`meshBuildingBlockDefinition ${definition.uuid} already has a draft or a version ${spec.versionNumber}`);
      throw error;
    }
    return version;
  }

  /**
   * PUT: replaces a draft (and releases it with `state: RELEASED`). A released version is immutable:
   * the same content again is answered as it is (idempotent), any change is 409.
   */
  async updateVersion(
    ctx: RequestContext,
    existing: DefinitionVersion,
    spec: VersionSpec,
    references: VersionReferences,
    publication: Publication,
  ): Promise<DefinitionVersion> {
    if (spec.versionNumber !== existing.spec.versionNumber)
      throw badRequest(`spec.versionNumber: this is version ${existing.spec.versionNumber}`);
    const prepared = this.prepare(spec, existing.spec, references);
    if (existing.spec.state === 'RELEASED') {
      if (sameContent(prepared, existing.spec)) return existing;
      throw conflict(
        `version ${existing.spec.versionNumber} of meshBuildingBlockDefinition ${existing.definitionUuid} is released and cannot change; create a new draft`,
      );
    }
    const releasing = prepared.state === 'RELEASED';
    const review: Review | undefined = !releasing
      ? undefined
      : publication === 'approved'
        ? { state: 'APPROVED', by: ctx.principal.id, on: new Date().toISOString() }
        : { state: 'IN_REVIEW' };
    const version: DefinitionVersion = { ...existing, spec: prepared, ...(review ? { review } : {}) };
    if (!releasing && !differs(existing, version)) return version;
    await this.events.change(ctx, async (trx, events) => {
      await new DefinitionStore(trx).updateVersion(version);
      const subject = { ...versionSubject(version), previous: existing };
      if (!releasing) events.push(eventOf(DEFINITION_TITLES.versionModified, subject));
      else {
        events.push(eventOf(DEFINITION_TITLES.versionReleased, subject));
        if (review?.state === 'IN_REVIEW') events.push(eventOf(DEFINITION_TITLES.publicationRequested, versionSubject(version)));
      }
    });
    return version;
  }

  /**
   * An admin's decision on a released version: APPROVED puts it in the marketplace (from IN_REVIEW or
   * REJECTED); REJECTED keeps it out (from IN_REVIEW). The same decision again changes nothing; an
   * approved version stays approved (blocks may use it).
   */
  async review(
    ctx: RequestContext,
    existing: DefinitionVersion,
    decision: 'APPROVED' | 'REJECTED',
    reason?: string,
  ): Promise<DefinitionVersion> {
    if (existing.spec.state !== 'RELEASED' || !existing.review)
      throw conflict(
        `version ${existing.spec.versionNumber} of meshBuildingBlockDefinition ${existing.definitionUuid} is a draft: only released versions are reviewed`,
      );
    if (existing.review.state === decision) return existing;
    if (existing.review.state === 'APPROVED')
      throw conflict(
        `version ${existing.spec.versionNumber} of meshBuildingBlockDefinition ${existing.definitionUuid} is approved and stays in the marketplace`,
      );
    const version: DefinitionVersion = {
      ...existing,
      review: { state: decision, by: ctx.principal.id, on: new Date().toISOString(), ...(reason ? { reason } : {}) },
    };
    await this.events.change(ctx, async (trx, events) => {
      await new DefinitionStore(trx).updateVersion(version);
      events.push(
        eventOf(
          decision === 'APPROVED' ? DEFINITION_TITLES.publicationApproved : DEFINITION_TITLES.publicationRejected,
          versionSubject(version),
        ),
      );
    });
    return version;
  }
}
