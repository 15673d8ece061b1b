import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealSecrets } from '../../crypto/secret-values.js';
import { badRequest, conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { canonicalUuid } from '../../lib/validation.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { LocationService } from '../location/service.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import { differs, eventOf, type EventKey } from '../eventlog/titles.js';
import { TenantStore } from '../tenant/store.js';
import type { WorkspaceService } from '../workspace/service.js';
import { fullPlatformIdentifier, type Platform, type PlatformInput } from './model.js';
import { PlatformStore, type PlatformFilter } from './store.js';

const subject = (platform: Platform) => ({ kind: 'meshPlatform', id: fullPlatformIdentifier(platform), workspace: platform.ownedByWorkspace, content: platform });

/** Platforms without any notion of who asks (AuthorizedPlatformService adds that). */
export class PlatformService {
  private readonly store: PlatformStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly locations: LocationService,
    private readonly secrets: SecretBox,
    private readonly events: EventRecorder,
  ) {
    this.store = new PlatformStore(db);
  }

  /** Secrets in `config` are sealed; `{hash}` keeps the one stored at the same place. */
  private sealed(input: PlatformInput, previous?: Platform): PlatformInput {
    const config = input.document.spec.config;
    if (config === undefined) return input;
    const spec = { ...input.document.spec, config: sealSecrets(config, previous?.document.spec.config, this.secrets, 'spec.config') };
    return { ...input, document: { ...input.document, spec } };
  }

  async create(ctx: RequestContext, input: PlatformInput): Promise<Platform> {
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    await this.locations.requireExists(input.location, 'spec.locationRef');
    const platform: Platform = { ...this.sealed(input), uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new PlatformStore(trx).insert(platform);
        events.push(eventOf('platformCreated', subject(platform)));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshPlatform ${fullPlatformIdentifier(input)} already exists`);
      if (isForeignKeyViolation(error)) throw unprocessable(`metadata.ownedByWorkspace or spec.locationRef: the workspace or location of meshPlatform ${fullPlatformIdentifier(input)} does not exist`);
      throw error;
    }
    return platform;
  }

  async find(uuid: string): Promise<Platform | undefined> {
    const id = canonicalUuid(uuid);
    return id ? this.store.find(id) : undefined;
  }

  findByIdentifier(name: string, location: string): Promise<Platform | undefined> {
    return this.store.findByIdentifier(name, location);
  }

  list(filter: PlatformFilter, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(ctx: RequestContext, existing: Platform, input: PlatformInput): Promise<Platform> {
    if (input.name !== existing.name) throw badRequest(`metadata.name: a platform's name cannot change (is "${existing.name}")`);
    if (input.location !== existing.location) throw badRequest(`spec.locationRef: a platform's location cannot change (is "${existing.location}")`);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace) await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const platform: Platform = { ...this.sealed(input, existing), uuid: existing.uuid, createdOn: existing.createdOn };
    const keys: EventKey[] = [];
    if (differs(existing.displayName, platform.displayName)) keys.push('platformNameChanged');
    if (differs(existing.document.spec.config, platform.document.spec.config)) keys.push('platformConfigurationChanged');
    if (keys.length === 0 && differs(existing, platform)) keys.push('platformSettingsChanged');
    if (keys.length === 0) return platform;
    await this.events.change(ctx, async (trx, events) => {
      await new PlatformStore(trx).update(platform);
      for (const key of keys) events.push(eventOf(key, { ...subject(platform), previous: existing }));
    });
    return platform;
  }

  /** 409 while live tenants stand on it; the records of its deleted tenants go with it, in one transaction. */
  async delete(ctx: RequestContext, platform: Platform): Promise<void> {
    const dependents = await this.store.dependents(platform.uuid);
    if (dependents.length > 0) throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has ${dependents.join(', ')}; delete them first`);
    try {
      await this.events.change(ctx, async (trx, events) => {
        const purged = await new TenantStore(trx).purgeDeletedOf({ platformUuid: platform.uuid });
        await new PlatformStore(trx).delete(platform.uuid);
        for (const tenant of purged) events.push(eventOf('tenantPurged', { kind: 'meshTenant', id: tenant.uuid, workspace: tenant.workspace, content: tenant }));
        events.push(eventOf('platformDeleted', subject(platform)));
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(`meshPlatform ${fullPlatformIdentifier(platform)} still has tenants; delete them first`);
      throw error;
    }
  }
}
