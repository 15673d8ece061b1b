import { emptyPage } from '../../lib/paging.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedPlatformService } from './authorized-service.js';
import type { Platform } from './model.js';
import { PLATFORM_FILTERS, parsePlatformFilter } from './query.js';
import { PLATFORM_CODECS } from './wire/index.js';
import { PLATFORMS_PATH } from './model.js';

export function platformOperations(platforms: AuthorizedPlatformService): Operation[] {
  return resourceOperations<Platform>({
    path: PLATFORMS_PATH,
    codecs: PLATFORM_CODECS.codecs,
    embedded: 'meshPlatforms',
    filters: PLATFORM_FILTERS,
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    encode: (platform, call) =>
      PLATFORM_CODECS.of(versionOf(call)).encode(platform, {
        baseUrl: call.baseUrl,
        collections: call.collections,
        withConfig: platforms.mayReadConfig(call.ctx, platform),
      }),
    get: (call, uuid) => platforms.get(call.ctx, uuid),
    list: async (call, page) => {
      const filter = parsePlatformFilter(call.query);
      return filter === 'none' ? emptyPage() : platforms.list(call.ctx, filter, page);
    },
    create: (call) => platforms.create(call.ctx, PLATFORM_CODECS.of(call.consumes?.version).decode(call.body).input),
    update: (call, uuid) => {
      const { input, uuid: sentUuid } = PLATFORM_CODECS.of(call.consumes?.version).decode(call.body);
      return platforms.update(call.ctx, uuid, input, sentUuid);
    },
    remove: { status: 204, run: (call, uuid) => platforms.delete(call.ctx, uuid) },
  });
}
