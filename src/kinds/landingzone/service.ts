import type { RequestContext } from '../../auth/context.js';
import { conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import { isUniqueViolation } from '../../store/database.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { Platform } from '../platform/model.js';
import type { LandingZone, LandingZoneInput } from './model.js';
import { LandingZoneStore, type LandingZoneFilter } from './store.js';
import { eventOf } from '../eventlog/titles.js';
import { LANDING_ZONE_EVENTS } from './wire/index.js';
import { LANDING_ZONE_TITLES } from './events.js';

/** Landing zones without any notion of who asks (AuthorizedLandingZoneService adds that). */
export class LandingZoneService {
  private readonly store: LandingZoneStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
  ) {
    this.store = new LandingZoneStore(db);
  }

  find(name: string) {
    return this.store.find(name);
  }

  list(filter: LandingZoneFilter & { scope?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /** On `platform` (resolved by the caller), owned by its workspace. */
  async create(ctx: RequestContext, input: LandingZoneInput, platform: Platform): Promise<LandingZone> {
    const zone: LandingZone = {
      ...input,
      platformUuid: platform.uuid,
      ownedByWorkspace: platform.ownedByWorkspace,
      createdOn: new Date().toISOString(),
    };
    try {
      await this.events.change(ctx, async (trx, events) => {
        await new LandingZoneStore(trx).insert(zone);
        events.push(
          eventOf(LANDING_ZONE_TITLES.landingZoneCreated, {
            codec: LANDING_ZONE_EVENTS,
            id: zone.name,
            description: `Landing zone ${zone.name} was created`,
            workspace: zone.ownedByWorkspace,
            object: zone,
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`meshLandingZone ${input.name} already exists`);
      throw error;
    }
    return zone;
  }

  /** The platform never changes (the caller checked); a disabled zone stays disabled. */
  async update(ctx: RequestContext, existing: LandingZone, input: LandingZoneInput): Promise<LandingZone> {
    const zone: LandingZone = { ...existing, displayName: input.displayName, restricted: input.restricted, document: input.document };
    await this.events.change(ctx, async (trx, events) => {
      await new LandingZoneStore(trx).update(zone);
      events.push(
        eventOf(LANDING_ZONE_TITLES.landingZoneChanged, {
          codec: LANDING_ZONE_EVENTS,
          id: zone.name,
          description: `Landing zone ${zone.name} was changed`,
          workspace: zone.ownedByWorkspace,
          object: zone,
          previous: existing,
        }),
      );
    });
    return zone;
  }

  /** DELETE disables (OpenAPI): no new tenants; existing tenants keep it; it stays readable. */
  async disable(ctx: RequestContext, existing: LandingZone): Promise<void> {
    if (existing.disabledOn !== undefined) return;
    const zone: LandingZone = { ...existing, disabledOn: new Date().toISOString() };
    await this.events.change(ctx, async (trx, events) => {
      await new LandingZoneStore(trx).update(zone);
      events.push(
        eventOf(LANDING_ZONE_TITLES.landingZoneDeleted, {
          codec: LANDING_ZONE_EVENTS,
          id: zone.name,
          description: `Landing zone ${zone.name} was disabled`,
          workspace: zone.ownedByWorkspace,
          object: zone,
        }),
      );
    });
  }
}
