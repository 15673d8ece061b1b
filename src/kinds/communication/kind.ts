import { column, type KindManifest } from '../manifest.js';
import { AuthorizedCommunicationService } from './authorized-service.js';
import { COMMUNICATION_TITLES } from './events.js';
import { communicationOperations } from './routes.js';
import { CommunicationService } from './service.js';
import { COMMUNICATION_CODECS } from './wire/index.js';
import { COMMUNICATIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    communications: AuthorizedCommunicationService;
  }
}

export const communicationKind: KindManifest<'communications'> = {
  name: 'communications',
  resources: [
    {
      path: COMMUNICATIONS_PATH,
      codecs: COMMUNICATION_CODECS,
      index: ['communicationDefinitionUuid', 'resolutionStatus', 'communicationType'],
      cli: {
        columns: [
          column('TITLE', 'status.meshCommunicationDefinition.title'),
          column('TARGET', 'spec.targetMeshObjectRef.name'),
          column('STATUS', 'status.resolutionStatus'),
        ],
      },
    },
  ],
  events: COMMUNICATION_TITLES,
  references: [
    { to: 'workspace', kind: 'meshCommunications', table: 'communications', columns: ['workspace'] },
    { to: 'communicationDefinition', kind: 'meshCommunications', table: 'communications', columns: ['definition_uuid'] },
  ],
  build(context) {
    const targets = {
      workspaces: context.authorized('workspaces'),
      tenants: context.authorized('tenants'),
      blocks: context.authorized('blocks'),
    };
    const authorized = new AuthorizedCommunicationService(
      new CommunicationService(context.db, context.recorder),
      context.authorized('communicationDefinitions'),
      targets,
    );
    return { authorized };
  },
  operations: (services) => communicationOperations(services.communications),
};
