import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedLandingZoneService } from './authorized-service.js';
import { LANDING_ZONES_PATH } from './model.js';
import { LANDING_ZONE_FILTERS, landingZoneConditions } from './query.js';
import { LANDING_ZONE_CODECS } from './wire/index.js';

export function landingZoneOperations(zones: AuthorizedLandingZoneService): Operation[] {
  return crudOperations(zones, LANDING_ZONE_CODECS, {
    path: LANDING_ZONES_PATH,
    embedded: 'meshLandingZones',
    filters: LANDING_ZONE_FILTERS,
    filter: landingZoneConditions,
    resource: 'LANDINGZONE',
    put: 'upsert',
  });
}
