import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealSecrets } from '../../crypto/secret-values.js';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUuid } from '../../http/validation.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { LocationService } from '../location/service.js';
import type { WorkspaceService } from '../workspace/service.js';
import { fullPlatformIdentifier, parseFullPlatformIdentifier, type Platform, type PlatformInput } from './model.js';
import type { PlatformFilter, PlatformStore } from './store.js';

export class PlatformService {
  constructor(
    private readonly store: PlatformStore,
    private readonly workspaces: WorkspaceService,
    private readonly locations: LocationService,
    private readonly secrets: SecretBox,
  ) {}

  /** Secrets in `config` are sealed; `{hash}` keeps the one stored at the same place. */
  private sealed(input: PlatformInput, previous?: Platform): PlatformInput {
    const config = input.document.spec.config;
    if (config === undefined) return input;
    const spec = { ...input.document.spec, config: sealSecrets(config, previous?.document.spec.config, this.secrets, 'spec.config') };
    return { ...input, document: { ...input.document, spec } };
  }

  async create(input: PlatformInput): Promise<Platform> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    await this.locations.requireExists(input.location, 'spec.locationRef');
    const platform: Platform = { ...this.sealed(input), uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.store.insert(platform);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshPlatform ${fullPlatformIdentifier(input)} already exists`);
      if (isForeignKeyViolation(error)) throw unprocessable(`metadata.ownedByWorkspace or spec.locationRef: the workspace or location of meshPlatform ${fullPlatformIdentifier(input)} does not exist`);
      throw error;
    }
    return platform;
  }

  async get(uuid: string): Promise<Platform> {
    const platform = isUuid(uuid) ? await this.store.find(uuid) : undefined;
    if (!platform) throw notFound(`meshPlatform ${uuid} not found`);
    return platform;
  }

  findByIdentifier(name: string, location: string): Promise<Platform | undefined> {
    return this.store.findByIdentifier(name, location);
  }

  /** The platform a body refers to by uuid or by `<platform>.<location>`, or 422 naming the field. */
  async requireExisting(reference: { uuid: string } | { identifier: string }, field: string): Promise<Platform> {
    let platform: Platform | undefined;
    if ('uuid' in reference) platform = isUuid(reference.uuid) ? await this.store.find(reference.uuid) : undefined;
    else {
      const parts = parseFullPlatformIdentifier(reference.identifier);
      platform = parts ? await this.store.findByIdentifier(parts.name, parts.location) : undefined;
    }
    if (!platform) throw unprocessable(`${field}: meshPlatform "${'uuid' in reference ? reference.uuid : reference.identifier}" does not exist`, 'PLATFORM');
    return platform;
  }

  list(filter: PlatformFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(existing: Platform, input: PlatformInput): Promise<Platform> {
    if (input.name !== existing.name) throw badRequest(`metadata.name: a platform's name cannot change (is "${existing.name}")`);
    if (input.location !== existing.location) throw badRequest(`spec.locationRef: a platform's location cannot change (is "${existing.location}")`);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace) await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const platform: Platform = { ...this.sealed(input, existing), uuid: existing.uuid, createdOn: existing.createdOn };
    await this.store.update(platform);
    return platform;
  }

  async delete(platform: Platform): Promise<void> {
    const dependents = await this.store.dependents(platform.uuid);
    if (dependents.length > 0) throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await this.store.delete(platform.uuid);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has tenants; delete them first`);
      throw error;
    }
  }
}
