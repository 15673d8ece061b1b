import { emptyPage } from '../../lib/paging.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedLandingZoneService } from './authorized-service.js';
import type { LandingZone } from './model.js';
import { LANDING_ZONE_FILTERS, parseLandingZoneFilter } from './query.js';
import { LANDING_ZONE_CODECS } from './wire/index.js';
import { LANDING_ZONES_PATH } from './model.js';

export function landingZoneOperations(zones: AuthorizedLandingZoneService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => LANDING_ZONE_CODECS.of(version).decode(body);
  return resourceOperations<LandingZone>({
    path: LANDING_ZONES_PATH,
    codecs: LANDING_ZONE_CODECS.codecs,
    embedded: 'meshLandingZones',
    filters: LANDING_ZONE_FILTERS,
    resource: 'LANDINGZONE',
    encode: (zone, call) => LANDING_ZONE_CODECS.of(versionOf(call)).encode(zone, call),
    get: (call, name) => zones.get(call.ctx, name),
    list: async (call, page) => {
      const filter = parseLandingZoneFilter(call.query);
      return filter === 'none' ? emptyPage() : zones.list(call.ctx, filter, page);
    },
    create: (call) => zones.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: (call, name) => zones.save(call.ctx, name, decode(call.consumes?.version, call.body)),
    remove: { status: 204, run: (call, name) => zones.disable(call.ctx, name) },
  });
}
