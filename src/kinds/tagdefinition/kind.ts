import { CrudService } from '../crud/service.js';
import { column, type KindManifest } from '../manifest.js';
import { AuthorizedTagDefinitionService } from './authorized-service.js';
import { TAG_DEFINITION_TITLES } from './events.js';
import { tagDefinitionOperations } from './routes.js';
import { TAG_DEFINITION_STRATEGY } from './strategy.js';
import { TAG_DEFINITION_CODECS } from './wire/index.js';
import { TAG_DEFINITIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    tagDefinitions: AuthorizedTagDefinitionService;
  }
}

export const tagDefinitionKind: KindManifest<'tagDefinitions'> = {
  name: 'tagDefinitions',
  resources: [
    {
      path: TAG_DEFINITIONS_PATH,
      codecs: TAG_DEFINITION_CODECS,
      index: [],
      cli: { aliases: ['tags', 'tag'], columns: [column('TARGET', 'spec.targetKind'), column('KEY', 'spec.key')] },
    },
  ],
  events: TAG_DEFINITION_TITLES,
  build: (context) => ({
    authorized: new AuthorizedTagDefinitionService(
      new CrudService(context.db, context.recorder, context.references, TAG_DEFINITION_STRATEGY),
    ),
  }),
  operations: (services) => tagDefinitionOperations(services.tagDefinitions),
};
