import { Filter, filterValue } from '../../lib/query.js';
import type { Operation } from '../operation.js';
import type { AuthorizedCrudService } from '../crud/authorized-service.js';
import { crudOperations } from '../crud/routes.js';
import { LOCATIONS_PATH, type Location, type LocationInput } from './model.js';
import { LOCATION_CODECS } from './wire/index.js';

export function locationOperations(locations: AuthorizedCrudService<Location, LocationInput>): Operation[] {
  return crudOperations(locations, LOCATION_CODECS, {
    path: LOCATIONS_PATH,
    embedded: 'meshLocations',
    filters: { displayName: Filter('locations with this display name') },
    filter: (query) => ({ display_name: filterValue(query, 'displayName') }),
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    put: 'update',
  });
}
