import { CrudService } from '../crud/service.js';
import { column, type KindManifest, deprecated } from '../manifest.js';
import { AuthorizedPlatformTypeService } from './authorized-service.js';
import { PLATFORM_TYPE_TITLES } from './events.js';
import { platformTypeOperations } from './routes.js';
import { PLATFORM_TYPE_STRATEGY } from './strategy.js';
import { PLATFORM_TYPE_CODECS } from './wire/index.js';
import { PLATFORM_TYPES_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    platformTypes: AuthorizedPlatformTypeService;
  }
}

export const platformTypeKind: KindManifest<'platformTypes'> = {
  name: 'platformTypes',
  resources: [
    {
      path: PLATFORM_TYPES_PATH,
      codecs: PLATFORM_TYPE_CODECS,
      index: ['category', 'lifecycleStatus'],
      cli: { columns: [column('CATEGORY', 'spec.category')] },
    },
  ],
  events: PLATFORM_TYPE_TITLES,
  lifecycle: [deprecated('meshPlatformType.v1-preview', 'v1', { successor: 'v1' })],
  build: (context) => ({
    authorized: new AuthorizedPlatformTypeService(
      new CrudService(context.db, context.recorder, context.references, PLATFORM_TYPE_STRATEGY),
    ),
  }),
  operations: (services) => platformTypeOperations(services.platformTypes),
};
