import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealSecrets } from '../../crypto/secret-values.js';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUuid } from '../../http/validation.js';
import { isUniqueViolation } from '../../store/database.js';
import type { RunnerStore } from '../runner/store.js';
import type { WorkspaceService } from '../workspace/service.js';
import { IMPLEMENTATIONS, type ImplementationType } from './enums.js';
import type { Definition, DefinitionInput, DefinitionVersion } from './model.js';
import type { DefinitionFilter, DefinitionStore } from './store.js';
import { checkVersionSpec, dependencyUuids } from './version-rules.js';
import type { VersionSpec } from './wire/version-schema.js';
import { versionView } from './wire/version-v1-preview.js';

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

/**
 * Definitions and their versions (spec §2.6, §3.3, COMPAT §8), without any notion of who asks.
 * State rules: version 1 is created as a draft with the definition; at most one draft exists; a new
 * draft is latest + 1; a released version never changes.
 */
export class DefinitionService {
  constructor(
    private readonly store: DefinitionStore,
    private readonly workspaces: WorkspaceService,
    private readonly runners: RunnerStore,
    private readonly secrets: SecretBox,
  ) {}

  /** `uuid` is chosen by the service, except in the declarative import (which names it for idempotence). */
  async create(input: DefinitionInput, uuid: string = randomUUID()): Promise<Definition> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const definition = { ...input, uuid, createdOn: new Date().toISOString() };
    const first: DefinitionVersion = {
      uuid: randomUUID(),
      definitionUuid: definition.uuid,
      ownedByWorkspace: input.ownedByWorkspace,
      createdOn: definition.createdOn,
      spec: {
        buildingBlockDefinitionRef: { uuid: definition.uuid, kind: 'meshBuildingBlockDefinition' },
        versionNumber: 1,
        state: 'DRAFT',
        deletionMode: 'DELETE',
        implementation: { type: 'manual' },
        inputs: {},
        outputs: {},
      },
    };
    try {
      await this.store.transaction(async (store) => {
        await store.insertDefinition(definition);
        await store.insertVersion(first);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshBuildingBlockDefinition ${uuid} already exists`);
      throw error;
    }
    return { ...definition, versions: [{ uuid: first.uuid, versionNumber: 1, state: 'DRAFT' }], usageCount: 0 };
  }

  async find(uuid: string): Promise<Definition | undefined> {
    return isUuid(uuid) ? this.store.findDefinition(uuid.toLowerCase()) : undefined;
  }

  findVersionByNumber(definitionUuid: string, versionNumber: number): Promise<DefinitionVersion | undefined> {
    return this.store.findVersionByNumber(definitionUuid, versionNumber);
  }

  async get(uuid: string): Promise<Definition> {
    const definition = isUuid(uuid) ? await this.store.findDefinition(uuid) : undefined;
    if (!definition) throw notFound(`meshBuildingBlockDefinition ${uuid} not found`);
    return definition;
  }

  list(filter: DefinitionFilter, page: PageRequest) {
    return this.store.listDefinitions(filter, page);
  }

  async update(existing: Definition, input: DefinitionInput): Promise<Definition> {
    if (input.ownedByWorkspace !== existing.ownedByWorkspace) throw badRequest(`metadata.ownedByWorkspace: a definition cannot move to another workspace (is "${existing.ownedByWorkspace}")`);
    const definition = { ...existing, displayName: input.displayName, targetType: input.targetType, document: input.document };
    await this.store.updateDefinition(definition);
    return definition;
  }

  /** 202: the definition goes with its versions; 409 while building blocks use it. */
  async delete(definition: Definition): Promise<void> {
    const dependents = await this.store.dependents(definition.uuid);
    if (dependents.length > 0) throw conflict(`meshBuildingBlockDefinition ${definition.uuid} is still used by ${dependents.join(', ')}`);
    await this.store.transaction((store) => store.deleteDefinition(definition.uuid));
  }

  async getVersion(uuid: string): Promise<DefinitionVersion> {
    const version = isUuid(uuid) ? await this.store.findVersion(uuid) : undefined;
    if (!version) throw notFound(`meshBuildingBlockDefinitionVersion ${uuid} not found`);
    return version;
  }

  listVersions(filter: { definitionUuid?: string; ownedBy?: string; releasedOnly?: boolean }, page: PageRequest) {
    return this.store.listVersions(filter, page);
  }

  /** The rules needing the database: the runner exists and runs this implementation, dependencies exist. */
  private async checkReferences(spec: VersionSpec, owner: string): Promise<void> {
    if (spec.runnerRef) {
      const runner = await this.runners.find(spec.runnerRef.uuid.toLowerCase());
      // A private runner of another workspace is as good as unknown to this one.
      if (!runner || (runner.restriction !== 'PUBLIC' && runner.ownedByWorkspace !== owner)) throw unprocessable(`spec.runnerRef.uuid: meshBuildingBlockRunner "${spec.runnerRef.uuid}" does not exist`);
      const runnerType = runner.implementationType;
      const needed = IMPLEMENTATIONS[spec.implementation.type as ImplementationType].runnerType;
      if (runnerType !== needed && runnerType !== 'ALL') throw unprocessable(`spec.runnerRef: runner ${spec.runnerRef.uuid} runs ${runnerType}, this version needs ${needed}`);
    }
    for (const uuid of dependencyUuids(spec)) {
      if (!(await this.store.findDefinition(uuid.toLowerCase()))) throw unprocessable(`spec.dependencyDefinitionRefs: meshBuildingBlockDefinition "${uuid}" does not exist`);
    }
  }

  /** Validates, checks references and seals secrets (`{hash}` keeps the one of `previous`). */
  private async prepare(spec: VersionSpec, previous: VersionSpec | undefined, owner: string): Promise<VersionSpec> {
    const checked = checkVersionSpec(spec);
    await this.checkReferences(checked, owner);
    return sealSecrets(checked, previous, this.secrets, 'spec') as VersionSpec;
  }

  /** A new draft: `versionNumber` latest + 1; secrets may be kept by hash from the latest version. */
  async createVersion(definition: Definition, spec: VersionSpec): Promise<DefinitionVersion> {
    if (spec.buildingBlockDefinitionRef.uuid.toLowerCase() !== definition.uuid) throw badRequest('spec.buildingBlockDefinitionRef.uuid: names another definition');
    if (spec.state !== 'DRAFT') throw badRequest('spec.state: a new version starts as DRAFT; release it with PUT');
    if (definition.versions.some((v) => v.state === 'DRAFT')) throw conflict(`meshBuildingBlockDefinition ${definition.uuid} already has a draft version; edit or release it`);
    const latest = definition.versions.at(-1);
    const expected = (latest?.versionNumber ?? 0) + 1;
    if (spec.versionNumber !== expected) throw badRequest(`spec.versionNumber: the next version of this definition is ${expected}`);
    const previous = latest ? (await this.getVersion(latest.uuid)).spec : undefined;
    const version: DefinitionVersion = {
      uuid: randomUUID(),
      definitionUuid: definition.uuid,
      ownedByWorkspace: definition.ownedByWorkspace,
      createdOn: new Date().toISOString(),
      spec: await this.prepare(spec, previous, definition.ownedByWorkspace),
    };
    try {
      await this.store.transaction((store) => store.insertVersion(version));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshBuildingBlockDefinition ${definition.uuid} already has a draft or a version ${spec.versionNumber}`);
      throw error;
    }
    return version;
  }

  /**
   * PUT: replaces a draft (and releases it with `state: RELEASED`). A released version is immutable:
   * the same content again is answered as it is (idempotent), any change is 409.
   */
  async updateVersion(existing: DefinitionVersion, spec: VersionSpec): Promise<DefinitionVersion> {
    if (spec.buildingBlockDefinitionRef.uuid.toLowerCase() !== existing.definitionUuid) throw badRequest('spec.buildingBlockDefinitionRef.uuid: a version cannot move to another definition');
    if (spec.versionNumber !== existing.spec.versionNumber) throw badRequest(`spec.versionNumber: this is version ${existing.spec.versionNumber}`);
    const prepared = await this.prepare(spec, existing.spec, existing.ownedByWorkspace);
    if (existing.spec.state === 'RELEASED') {
      if (canonical(versionView(prepared)) === canonical(versionView(existing.spec))) return existing;
      throw conflict(`version ${existing.spec.versionNumber} of meshBuildingBlockDefinition ${existing.definitionUuid} is released and cannot change; create a new draft`);
    }
    const version = { ...existing, spec: prepared };
    await this.store.transaction((store) => store.updateVersion(version));
    return version;
  }
}
