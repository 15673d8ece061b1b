import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { filterValue, registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import { decodeLocation, encodeLocation, LOCATION_VERSIONS, LOCATIONS_PATH } from './wire.js';
import type { Location } from './model.js';

export async function locationRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const locations = context.services.locations;
  registerResourceRoutes<Location>(app, context, {
    path: LOCATIONS_PATH,
    versions: LOCATION_VERSIONS,
    embedded: 'meshLocations',
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    encode: (location, request) => encodeLocation(location, versionOf(request), context.baseUrl()),
    get: (request, name) => locations.get(request.principal, name),
    list: (request, query, page) => {
      const displayName = filterValue(query, 'displayName');
      return locations.list(request.principal, displayName === undefined ? {} : { displayName }, page);
    },
    create: (request, body) => locations.create(request.principal, decodeLocation(body)),
    update: (request, name, body) => locations.update(request.principal, name, decodeLocation(body)),
  });
}
