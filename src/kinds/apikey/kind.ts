import { column, type KindManifest, example } from '../manifest.js';
import { AuthorizedApiKeyService } from './authorized-service.js';
import { API_KEY_TITLES } from './events.js';
import { apiKeyOperations } from './routes.js';
import { ApiKeyService, deleteKeysOfWorkspace } from './service.js';
import { API_KEY_CODECS } from './wire/index.js';
import { API_KEYS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    apiKeys: AuthorizedApiKeyService;
  }
  interface PlainServices {
    apiKeys: ApiKeyService;
  }
}

export const apiKeyKind: KindManifest<'apiKeys'> = {
  name: 'apiKeys',
  resources: [
    {
      path: API_KEYS_PATH,
      codecs: API_KEY_CODECS,
      index: ['workspaceIdentifier'],
      cli: { aliases: ['keys', 'key'], columns: [column('EXPIRES', 'spec.expiresAt')] },
    },
  ],
  events: API_KEY_TITLES,
  examples: [
    example('meshApiKey.v1-preview', {
      metadata: { ownedByWorkspace: 'platform-team' },
      spec: { displayName: 'CI pipeline', permissions: ['WORKSPACE_LIST'], expiresAt: '2099-12-31' },
    }),
  ],
  // A workspace's keys go with it.
  references: [
    {
      to: 'workspace',
      kind: 'meshApiKeys',
      table: 'api_keys',
      columns: ['owned_by_workspace'],
      onDelete: 'cascade',
      cascade: deleteKeysOfWorkspace,
    },
  ],
  build(context) {
    const plain = new ApiKeyService(context.db, context.secrets, context.plain('workspaces'), context.recorder);
    return { plain, authorized: new AuthorizedApiKeyService(plain) };
  },
  operations: (services) => apiKeyOperations(services.apiKeys),
};
