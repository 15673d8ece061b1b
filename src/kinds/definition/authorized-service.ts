import { isAdminFor, isAllowed, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { versionStatus, type Definition, type DefinitionInput, type DefinitionVersion } from './model.js';
import type { DefinitionService } from './service.js';
import type { DefinitionFilter } from './store.js';
import type { VersionSpec } from './wire/version-schema.js';

export interface DefinitionListQuery {
  workspace?: string;
  /** TF's `includeAllPublished=true`: the workspace's definitions and the whole marketplace. */
  includeAllPublished?: boolean;
}

/**
 * Who sees and changes definitions (issue 5): the owning workspace (`BUILDINGBLOCKDEFINITION_*`) sees
 * and edits its own; every caller who may list definitions sees those with a released version (the
 * marketplace); admins see all. Versions are the owner's: a marketplace reader asking for them gets
 * 403 (COMPAT §5; the definition's `status.versions` names them), an invisible definition's 404.
 */
export class AuthorizedDefinitionService {
  constructor(private readonly inner: DefinitionService) {}

  private owns(principal: Principal, definition: Pick<Definition, 'ownedByWorkspace'>): boolean {
    return isAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'LIST', definition.ownedByWorkspace);
  }

  private visible(principal: Principal, definition: Definition): boolean {
    return this.owns(principal, definition) || versionStatus(definition.versions).latestReleasedVersion > 0;
  }

  async get(principal: Principal, uuid: string): Promise<Definition> {
    const definition = await this.inner.get(uuid);
    if (!this.visible(principal, definition)) throw notFound(`meshBuildingBlockDefinition ${uuid} not found`);
    return definition;
  }

  list(principal: Principal, query: DefinitionListQuery, page: PageRequest) {
    const { workspace, includeAllPublished } = query;
    let filter: DefinitionFilter;
    if (isAdminFor(principal, 'BUILDINGBLOCKDEFINITION', 'LIST')) filter = { ...(workspace ? { ownedBy: workspace } : {}), ...(workspace && includeAllPublished ? { released: 'also' as const } : {}) };
    else {
      const own = principal.type === 'apiKey' ? principal.workspace : undefined;
      const target = workspace ?? own;
      if (target === undefined) filter = { released: 'only' };
      else if (target === own) filter = { ownedBy: own, ...(workspace === undefined || includeAllPublished ? { released: 'also' as const } : {}) };
      else filter = includeAllPublished ? { released: 'only' } : { ownedBy: target, released: 'only' };
    }
    return this.inner.list(filter, page);
  }

  async create(principal: Principal, input: DefinitionInput): Promise<Definition> {
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', input.ownedByWorkspace);
    return this.inner.create(input);
  }

  /** The declarative import: the object names its uuid; create it, or update the existing one. */
  async save(principal: Principal, input: DefinitionInput, uuid: string): Promise<{ definition: Definition; created: boolean }> {
    const existing = await this.inner.find(uuid);
    if (!existing) {
      requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', input.ownedByWorkspace);
      return { definition: await this.inner.create(input, uuid.toLowerCase()), created: true };
    }
    return { definition: await this.update(principal, existing.uuid, input), created: false };
  }

  /**
   * The declarative import of a version, identified by definition and version number: an existing one
   * is PUT; a new one is created as a draft and, when the object says RELEASED, released.
   */
  async saveVersion(principal: Principal, spec: VersionSpec): Promise<{ version: DefinitionVersion; created: boolean }> {
    const definition = await this.ownedDefinition(principal, spec.buildingBlockDefinitionRef.uuid.toLowerCase());
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', definition.ownedByWorkspace);
    const existing = await this.inner.findVersionByNumber(definition.uuid, spec.versionNumber);
    if (existing) return { version: await this.inner.updateVersion(existing, spec), created: false };
    const draft = await this.inner.createVersion(definition, { ...spec, state: 'DRAFT' });
    return { version: spec.state === 'RELEASED' ? await this.inner.updateVersion(draft, spec) : draft, created: true };
  }

  async update(principal: Principal, uuid: string, input: DefinitionInput, sentUuid?: string): Promise<Definition> {
    if (sentUuid !== undefined && sentUuid.toLowerCase() !== uuid.toLowerCase()) throw badRequest(`metadata.uuid: "${sentUuid}" does not match the definition ${uuid} of the path`);
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', existing.ownedByWorkspace);
    return this.inner.update(existing, input);
  }

  async delete(principal: Principal, uuid: string): Promise<void> {
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(existing);
  }

  /** The definition whose versions the caller asks for: 404 when invisible, 403 when not its owner. */
  private async ownedDefinition(principal: Principal, uuid: string): Promise<Definition> {
    const definition = await this.get(principal, uuid);
    if (!this.owns(principal, definition)) throw forbidden(`you don't have sufficient permissions: the versions of definition ${uuid} are its workspace's`);
    return definition;
  }

  async getVersion(principal: Principal, uuid: string): Promise<DefinitionVersion> {
    const version = await this.inner.getVersion(uuid);
    if (!this.owns(principal, version)) {
      const definition = await this.inner.get(version.definitionUuid);
      if (!this.visible(principal, definition)) throw notFound(`meshBuildingBlockDefinitionVersion ${uuid} not found`);
      throw forbidden(`you don't have sufficient permissions: the versions of definition ${definition.uuid} are its workspace's`);
    }
    return version;
  }

  async listVersions(principal: Principal, definitionUuid: string | undefined, page: PageRequest) {
    if (definitionUuid !== undefined) {
      await this.ownedDefinition(principal, definitionUuid);
      return this.inner.listVersions({ definitionUuid: definitionUuid.toLowerCase() }, page);
    }
    if (isAdminFor(principal, 'BUILDINGBLOCKDEFINITION', 'LIST')) return this.inner.listVersions({}, page);
    if (principal.type !== 'apiKey') return { items: [], total: 0 };
    return this.inner.listVersions({ ownedBy: principal.workspace }, page);
  }

  async createVersion(principal: Principal, spec: VersionSpec): Promise<DefinitionVersion> {
    const definition = await this.ownedDefinition(principal, spec.buildingBlockDefinitionRef.uuid.toLowerCase());
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', definition.ownedByWorkspace);
    return this.inner.createVersion(definition, spec);
  }

  async updateVersion(principal: Principal, uuid: string, spec: VersionSpec): Promise<DefinitionVersion> {
    const existing = await this.getVersion(principal, uuid);
    requireAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', existing.ownedByWorkspace);
    return this.inner.updateVersion(existing, spec);
  }
}
