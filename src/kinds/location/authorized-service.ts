import { isAdminFor, requireAllowed } from '../../auth/policy.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, forbidden } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import type { Location, LocationInput } from './model.js';
import type { LocationService } from './service.js';

/**
 * Locations are readable by every caller (COMPAT §5: "reading locations is free"). Writing one needs
 * `PLATFORMINSTANCE_SAVE` in the workspace that owns it, or admin rights for unowned ones.
 */
export class AuthorizedLocationService {
  constructor(private readonly inner: LocationService) {}

  private requireWrite(principal: Principal, owner: string | undefined): void {
    if (owner !== undefined) return requireAllowed(principal, 'PLATFORMINSTANCE', 'SAVE', owner);
    if (!isAdminFor(principal, 'PLATFORMINSTANCE', 'SAVE')) throw forbidden("you don't have sufficient permissions: ADM_PLATFORMINSTANCE_SAVE is required for a location without an owning workspace");
  }

  get(_principal: Principal, name: string): Promise<Location> {
    return this.inner.get(name);
  }

  list(_principal: Principal, filter: { displayName?: string }, page: PageRequest) {
    return this.inner.list(filter, page);
  }

  async create(principal: Principal, input: LocationInput): Promise<Location> {
    this.requireWrite(principal, input.ownedByWorkspace);
    return this.inner.create(input);
  }

  async update(principal: Principal, name: string, input: LocationInput): Promise<Location> {
    if (input.name !== name) throw badRequest(`metadata.name: "${input.name}" does not match the location "${name}" of the path`);
    const existing = await this.inner.get(name);
    this.requireWrite(principal, existing.ownedByWorkspace);
    this.requireWrite(principal, input.ownedByWorkspace);
    return this.inner.update(existing, input);
  }

  async save(principal: Principal, input: LocationInput): Promise<{ location: Location; created: boolean }> {
    const existing = await this.inner.find(input.name);
    if (!existing) return { location: await this.create(principal, input), created: true };
    return { location: await this.update(principal, input.name, input), created: false };
  }
}
