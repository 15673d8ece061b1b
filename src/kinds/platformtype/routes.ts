import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedPlatformTypeService } from './authorized-service.js';
import { PLATFORM_TYPES_PATH } from './model.js';
import { PLATFORM_TYPE_FILTERS, parsePlatformTypeFilter } from './query.js';
import { PLATFORM_TYPE_CODECS } from './wire/index.js';

export function platformTypeOperations(types: AuthorizedPlatformTypeService): Operation[] {
  return crudOperations(types, PLATFORM_TYPE_CODECS, {
    path: PLATFORM_TYPES_PATH,
    embedded: 'meshPlatformTypes',
    filters: PLATFORM_TYPE_FILTERS,
    filter: (query) => {
      const { category, lifecycleState } = parsePlatformTypeFilter(query);
      return { category, lifecycle_state: lifecycleState };
    },
    resource: 'PLATFORMINSTANCE',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    put: 'upsert',
  });
}
