import { CrudService } from '../crud/service.js';
import { column, type KindManifest, deprecated } from '../manifest.js';
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
      index: ['displayName', 'ownedByWorkspace', 'type'],
      cli: { columns: [column('TYPE', 'spec.config.type')] },
    },
  ],
  events: INTEGRATION_TITLES,
  lifecycle: [deprecated('meshIntegration.v1-preview', 'v1', { successor: 'v1' })],
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
