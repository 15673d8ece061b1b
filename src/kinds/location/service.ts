import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../auth/context.js';
import { conflict, unprocessable } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { ReferenceGraph } from '../references.js';
import { differs, eventOf } from '../eventlog/titles.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { Location, LocationInput } from './model.js';
import { LocationStore } from './store.js';
import { LOCATION_EVENTS } from './wire/index.js';
import { LOCATION_TITLES } from './events.js';

const subject = (location: Location) => ({
  codec: LOCATION_EVENTS,
  id: location.name,
  workspace: location.ownedByWorkspace,
  object: location,
});

/** Locations without any notion of who asks (AuthorizedLocationService adds that). */
export class LocationService {
  private readonly store: LocationStore;

  constructor(
    db: Db,
    private readonly workspaces: WorkspaceService,
    private readonly events: EventRecorder,
    private readonly references: ReferenceGraph,
  ) {
    this.store = new LocationStore(db);
  }

  async create(ctx: RequestContext, input: LocationInput): Promise<Location> {
    if (input.ownedByWorkspace) await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const location = { ...input, uuid: randomUUID(), createdOn: new Date().toISOString() };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new LocationStore(trx).insert(location);
        events.push(eventOf(LOCATION_TITLES.locationCreated, subject({ ...location, isPublic: false })));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshLocation ${input.name} already exists`);
      throw error;
    }
    return { ...location, isPublic: false };
  }

  find(name: string): Promise<Location | undefined> {
    return this.store.find(name);
  }

  /** 422 naming the field when a body names a location that does not exist (locations are public). */
  async requireExists(name: string, field: string): Promise<void> {
    if (!(await this.store.exists(name))) throw unprocessable(`${field}: meshLocation "${name}" does not exist`, 'LOCATION');
  }

  list(filter: { displayName?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  async update(ctx: RequestContext, existing: Location, input: LocationInput): Promise<Location> {
    if (input.ownedByWorkspace && input.ownedByWorkspace !== existing.ownedByWorkspace)
      await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const location: Location = { ...existing, ...input };
    if (input.ownedByWorkspace === undefined) delete location.ownedByWorkspace;
    if (!differs(existing, location)) return location;
    await this.events.change(ctx, async (trx, events) => {
      await new LocationStore(trx).update(location);
      events.push(eventOf(LOCATION_TITLES.locationChanged, { ...subject(location), previous: existing }));
    });
    return location;
  }

  /** 409 while platforms are in the location: they go first. */
  async delete(ctx: RequestContext, existing: Location): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      const store = new LocationStore(trx);
      const dependents = await this.references.holding(trx, 'location', [existing.name]);
      if (dependents.length > 0) throw conflict(`meshLocation ${existing.name} still has ${dependents.join(', ')}; delete them first`);
      await store.delete(existing.name);
      events.push(eventOf(LOCATION_TITLES.locationDeleted, subject(existing)));
    });
  }
}
