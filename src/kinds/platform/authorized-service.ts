import { isAllowed, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Platform, PlatformInput } from './model.js';
import type { PlatformService } from './service.js';
import type { PlatformFilter } from './store.js';

/**
 * Platforms are the marketplace: every caller may read them. Their `config` (endpoints, credentials)
 * is only for the owning workspace's platform operators (`PLATFORMINSTANCE_LIST`) and admins; writes
 * need `PLATFORMINSTANCE_SAVE`/`_DELETE` there.
 */
export class AuthorizedPlatformService {
  constructor(private readonly inner: PlatformService) {}

  mayReadConfig(principal: Principal, platform: Platform): boolean {
    return isAllowed(principal, 'PLATFORMINSTANCE', 'LIST', platform.ownedByWorkspace);
  }

  get(_principal: Principal, uuid: string): Promise<Platform> {
    return this.inner.get(uuid);
  }

  list(_principal: Principal, filter: PlatformFilter, page: PageRequest) {
    return this.inner.list(filter, page);
  }

  async create(principal: Principal, input: PlatformInput): Promise<Platform> {
    requireAllowed(principal, 'PLATFORMINSTANCE', 'SAVE', input.ownedByWorkspace);
    return this.inner.create(input);
  }

  async update(principal: Principal, uuid: string, input: PlatformInput, sentUuid?: string): Promise<Platform> {
    if (sentUuid !== undefined && sentUuid !== uuid) throw badRequest(`metadata.uuid: "${sentUuid}" does not match the platform ${uuid} of the path`);
    const existing = await this.inner.get(uuid);
    requireAllowed(principal, 'PLATFORMINSTANCE', 'SAVE', existing.ownedByWorkspace);
    requireAllowed(principal, 'PLATFORMINSTANCE', 'SAVE', input.ownedByWorkspace);
    return this.inner.update(existing, input);
  }

  /** The declarative import: create or update by full platform identifier. */
  async save(principal: Principal, input: PlatformInput): Promise<{ platform: Platform; created: boolean }> {
    const existing = await this.inner.findByIdentifier(input.name, input.location);
    if (!existing) return { platform: await this.create(principal, input), created: true };
    return { platform: await this.update(principal, existing.uuid, input), created: false };
  }

  async delete(principal: Principal, uuid: string): Promise<void> {
    const existing = await this.inner.get(uuid);
    requireAllowed(principal, 'PLATFORMINSTANCE', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(existing);
  }
}
