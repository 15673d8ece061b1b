import { Filter, filterValue } from '../../lib/query.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { Location, LocationInput } from './model.js';
import { LOCATION_CODECS } from './wire/index.js';
import { LOCATIONS_PATH } from './model.js';

export function locationOperations(locations: AuthorizedCrudService<Location, LocationInput>): Operation[] {
  return resourceOperations<Location>({
    path: LOCATIONS_PATH,
    codecs: LOCATION_CODECS.codecs,
    embedded: 'meshLocations',
    filters: { displayName: Filter('locations with this display name') },
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    encode: (location, call) => LOCATION_CODECS.of(versionOf(call)).encode(location, call),
    get: (call, name) => locations.get(call.ctx, name),
    list: (call, page) => locations.list(call.ctx, { display_name: filterValue(call.query, 'displayName') }, page),
    create: (call) => locations.create(call.ctx, LOCATION_CODECS.of(call.consumes?.version).decode(call.body)),
    update: (call, name) => locations.update(call.ctx, name, LOCATION_CODECS.of(call.consumes?.version).decode(call.body)),
    remove: { status: 204, run: (call, name) => locations.delete(call.ctx, name) },
  });
}
