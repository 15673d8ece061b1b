import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import { parsePlatformFilter } from './parse-platform-filter.js';
import { decodePlatform, encodePlatform, PLATFORM_VERSIONS, PLATFORMS_PATH } from './wire.js';
import type { Platform } from './model.js';

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
