import { column, type KindManifest } from '../manifest.js';
import { AuthorizedCommunicationDefinitionService } from './authorized-service.js';
import { COMMUNICATION_DEFINITION_TITLES } from './events.js';
import { communicationDefinitionOperations } from './routes.js';
import { CommunicationDefinitionService } from './service.js';
import { COMMUNICATION_DEFINITION_CODECS } from './wire/index.js';
import { COMMUNICATION_DEFINITIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    communicationDefinitions: AuthorizedCommunicationDefinitionService;
  }
}

export const communicationDefinitionKind: KindManifest<'communicationDefinitions'> = {
  name: 'communicationDefinitions',
  resources: [
    {
      path: COMMUNICATION_DEFINITIONS_PATH,
      codecs: COMMUNICATION_DEFINITION_CODECS,
      index: ['type'],
      cli: {
        columns: [
          column('TITLE', 'spec.communication.title'),
          column('TYPE', 'spec.communication.type'),
          column('DUE', 'spec.communication.dueDate'),
          column('TOTAL', 'status.communicationsTotal'),
        ],
      },
    },
  ],
  events: COMMUNICATION_DEFINITION_TITLES,
  build: (context) => ({
    authorized: new AuthorizedCommunicationDefinitionService(
      new CommunicationDefinitionService(context.db, context.recorder, context.references),
    ),
  }),
  operations: (services) => communicationDefinitionOperations(services.communicationDefinitions),
};
