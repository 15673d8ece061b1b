import type { Operation } from '../operation.js';
import type { AuthorizedCrudService } from '../crud/authorized-service.js';
import { crudOperations } from '../crud/routes.js';
import { LOCATIONS_PATH, type Location, type LocationInput } from './model.js';
import { LOCATION_FILTERS, parseLocationFilter } from './query.js';
import { LOCATION_CODECS } from './wire/index.js';

export function locationOperations(locations: AuthorizedCrudService<Location, LocationInput>): Operation[] {
  return crudOperations(locations, LOCATION_CODECS, {
    path: LOCATIONS_PATH,
    embedded: 'meshLocations',
    filters: LOCATION_FILTERS,
    filter: (query) => ({ display_name: parseLocationFilter(query).displayName }),
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    put: 'update',
  });
}
