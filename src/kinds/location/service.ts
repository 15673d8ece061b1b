import { randomUUID } from 'node:crypto';
import { conflict, notFound, unprocessable } from '../../errors.js';
import type { PageRequest } from '../../http/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { Location, LocationInput } from './model.js';
import type { LocationStore } from './store.js';

export class LocationService {
  constructor(
    private readonly store: LocationStore,
    private readonly workspaces: WorkspaceService,
  ) {}

  async create(input: LocationInput): Promise<Location> {
    if (input.ownedByWorkspace) await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const location = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.store.insert(location);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshLocation ${input.name} already exists`);
      throw error;
    }
    return { ...location, isPublic: false };
  }

  find(name: string): Promise<Location | undefined> {
    return this.store.find(name);
  }

  async get(name: string): Promise<Location> {
    const location = await this.store.find(name);
    if (!location) throw notFound(`meshLocation ${name} not found`);
    return location;
  }

  async requireExists(name: string, field: string): Promise<void> {
    if (!(await this.store.exists(name))) throw unprocessable(`${field}: meshLocation "${name}" does not exist`, 'LOCATION');
  }

  list(filter: { displayName?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(existing: Location, input: LocationInput): Promise<Location> {
    if (input.ownedByWorkspace && input.ownedByWorkspace !== existing.ownedByWorkspace) await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const location: Location = { ...existing, ...input };
    if (input.ownedByWorkspace === undefined) delete location.ownedByWorkspace;
    await this.store.update(location);
    return location;
  }
}
