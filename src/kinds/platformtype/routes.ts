import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedPlatformTypeService } from './authorized-service.js';
import type { PlatformType } from './model.js';
import { PLATFORM_TYPE_FILTERS, parsePlatformTypeFilter } from './query.js';
import { PLATFORM_TYPE_CODECS } from './wire/index.js';
import { PLATFORM_TYPES_PATH } from './model.js';

export function platformTypeOperations(types: AuthorizedPlatformTypeService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => PLATFORM_TYPE_CODECS.of(version).decode(body);
  return resourceOperations<PlatformType>({
    path: PLATFORM_TYPES_PATH,
    codecs: PLATFORM_TYPE_CODECS.codecs,
    embedded: 'meshPlatformTypes',
    filters: PLATFORM_TYPE_FILTERS,
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    encode: (type, call) => PLATFORM_TYPE_CODECS.of(versionOf(call)).encode(type, call),
    get: (call, name) => types.get(call.ctx, name),
    list: (call, page) => types.list(call.ctx, parsePlatformTypeFilter(call.query), page),
    create: (call) => types.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: (call, name) => types.save(call.ctx, name, decode(call.consumes?.version, call.body)),
    remove: { status: 204, run: (call, name) => types.deactivate(call.ctx, name) },
  });
}
