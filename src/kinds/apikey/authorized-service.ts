import { isAdminCode } from '../../auth/permissions.js';
import { isAdminFor, isAllowed, listScope, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { forbidden, notFound } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { ApiKey, ApiKeyInput } from './model.js';
import type { ApiKeyService } from './service.js';

/**
 * The permission rules for API keys, wrapped around the plain service: reads of invisible keys are
 * 404, forbidden writes 403, and only admins may hand out `ADM_` codes (spec 5.1: admin permissions
 * are assigned only from the admin area).
 */
export class AuthorizedApiKeyService {
  constructor(private readonly inner: ApiKeyService) {}

  private visible(principal: Principal, key: ApiKey): boolean {
    return isAllowed(principal, 'APIKEY', 'LIST', key.ownedByWorkspace) || isAllowed(principal, 'APIKEY', 'SAVE', key.ownedByWorkspace);
  }

  private checkGrant(principal: Principal, input: ApiKeyInput): void {
    if (input.permissions.some(isAdminCode) && !isAdminFor(principal, 'APIKEY', 'SAVE')) {
      throw forbidden("you don't have sufficient permissions: only admins may grant ADM_ permissions");
    }
  }

  async create(principal: Principal, input: ApiKeyInput) {
    requireAllowed(principal, 'APIKEY', 'SAVE', input.ownedByWorkspace);
    this.checkGrant(principal, input);
    return this.inner.create(input);
  }

  async get(principal: Principal, uuid: string): Promise<ApiKey> {
    const key = await this.inner.get(uuid);
    if (!this.visible(principal, key)) throw notFound(`meshApiKey ${uuid} not found`);
    return key;
  }

  async list(principal: Principal, filter: { workspace?: string }, page: PageRequest) {
    const scope = listScope(principal, 'APIKEY');
    if (scope !== 'all' && filter.workspace !== undefined && filter.workspace !== scope.workspace) return { items: [], total: 0 };
    return this.inner.list(scope === 'all' ? filter : { workspace: scope.workspace }, page);
  }

  async update(principal: Principal, uuid: string, input: ApiKeyInput) {
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    this.checkGrant(principal, input);
    return this.inner.update(existing, input);
  }

  async rotateSecret(principal: Principal, uuid: string) {
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'APIKEY', 'SAVE', existing.ownedByWorkspace);
    return this.inner.rotateSecret(existing);
  }

  async delete(principal: Principal, uuid: string): Promise<void> {
    const existing = await this.get(principal, uuid);
    requireAllowed(principal, 'APIKEY', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(uuid);
  }
}
