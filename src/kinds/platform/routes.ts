import type { Platform } from './model.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { filterValue, registerResourceRoutes, versionOf, type Query } from '../../http/resource-routes.js';
import { parseFullPlatformIdentifier } from './model.js';
import type { PlatformFilter } from './store.js';
import { decodePlatform, encodePlatform, PLATFORM_VERSIONS, PLATFORMS_PATH } from './wire.js';

/** `identifier` is the full `<platform>.<location>`; another shape matches nothing. */
function parsePlatformFilter(query: Query): PlatformFilter | 'none' {
  const filter: PlatformFilter = {};
  const identifier = filterValue(query, 'identifier');
  if (identifier !== undefined) {
    const parts = parseFullPlatformIdentifier(identifier);
    if (!parts) return 'none';
    Object.assign(filter, parts);
  }
  const location = filterValue(query, 'locationIdentifier');
  if (location !== undefined) {
    if (filter.location !== undefined && filter.location !== location) return 'none';
    filter.location = location;
  }
  const owner = filterValue(query, 'ownedByWorkspace');
  if (owner !== undefined) filter.ownedByWorkspace = owner;
  const type = filterValue(query, 'platformTypeIdentifier');
  if (type !== undefined) filter.platformType = type.toUpperCase();
  return filter;
}

export async function platformRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const platforms = context.services.platforms;
  registerResourceRoutes<Platform>(app, context, {
    path: PLATFORMS_PATH,
    versions: PLATFORM_VERSIONS,
    embedded: 'meshPlatforms',
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    encode: (platform, request) => encodePlatform(platform, versionOf(request), context.baseUrl(), platforms.mayReadConfig(request.principal, platform)),
    get: (request, uuid) => platforms.get(request.principal, uuid),
    list: async (request, query, page) => {
      const filter = parsePlatformFilter(query);
      return filter === 'none' ? { items: [], total: 0 } : platforms.list(request.principal, filter, page);
    },
    create: (request, body) => platforms.create(request.principal, decodePlatform(body).input),
    update: (request, uuid, body) => {
      const { input, uuid: sentUuid } = decodePlatform(body);
      return platforms.update(request.principal, uuid, input, sentUuid);
    },
    remove: { status: 204, run: (request, uuid) => platforms.delete(request.principal, uuid) },
  });
}
