import { CrudService } from '../crud/service.js';
import { column, queryTemplate, type KindManifest } from '../manifest.js';
import { AuthorizedIntegrationService } from './authorized-service.js';
import { INTEGRATION_TITLES } from './events.js';
import { integrationOperations } from './routes.js';
import { integrationStrategy } from './strategy.js';
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
    const workspaces = context.plain('workspaces');
    const strategy = integrationStrategy({
      requireWorkspace: (name, field) => workspaces.requireExists(name, field),
      secrets: context.secrets,
    });
    const plain = new CrudService(context.db, context.recorder, context.references, strategy);
    return { authorized: new AuthorizedIntegrationService(plain, context.authorized('runners')) };
  },
  operations: (services) => integrationOperations(services.integrations),
};
