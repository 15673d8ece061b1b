import { column, queryTemplate, type KindManifest } from '../manifest.js';
import { AuthorizedIntegrationService } from './authorized-service.js';
import { INTEGRATION_TITLES } from './events.js';
import { integrationOperations } from './routes.js';
import { IntegrationService } from './service.js';
import { INTEGRATION_CODECS } from './wire/index.js';
import { INTEGRATIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    integrations: AuthorizedIntegrationService;
  }
}

export const integrationKind: KindManifest<'integrations'> = {
  name: 'integrations',
  resources: [
    {
      path: INTEGRATIONS_PATH,
      codecs: INTEGRATION_CODECS,
      relation: { rel: 'meshintegrations', template: queryTemplate('displayName', 'ownedByWorkspace', 'type') },
      cli: { columns: [column('TYPE', 'spec.config.type')] },
    },
  ],
  events: INTEGRATION_TITLES,
  lifecycle: [
    {
      kind: 'meshintegration',
      version: 'v1-preview',
      replacedBy: 'meshIntegration.v1',
      successor: { kind: 'meshintegration', version: 'v1' },
    },
  ],
  references: [{ to: 'workspace', kind: 'meshIntegrations', table: 'integrations', columns: ['owned_by_workspace'] }],
  build(context) {
    const plain = new IntegrationService(context.db, context.recorder, context.plain('workspaces'), context.secrets);
    return { authorized: new AuthorizedIntegrationService(plain, context.authorized('runners')) };
  },
  operations: (services) => integrationOperations(services.integrations),
};
