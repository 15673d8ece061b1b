import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { loadSecretBox, type SecretBox } from './crypto/secret-box.js';
import { AuthorizedApiKeyService } from './kinds/apikey/authorized-service.js';
import { ApiKeyService } from './kinds/apikey/service.js';
import { ApiKeyStore } from './kinds/apikey/store.js';
import { ApiUserService } from './kinds/apiuser/service.js';
import type { Database } from './store/database.js';

/** The service graph: plain services, their authorized wrappers, identity. Built once per process. */
export interface Services {
  secrets: SecretBox;
  tokens: TokenService;
  authenticator: Authenticator;
  apiKeyService: ApiKeyService;
  apiKeys: AuthorizedApiKeyService;
  apiUsers: ApiUserService;
}

export async function createServices(config: Config, database: Database, log: Logger): Promise<Services> {
  const secrets = loadSecretBox(config);
  const tokens = new TokenService(database.db, secrets, config.tokenTtlSeconds, config.publicUrl ?? 'blockyard', log);
  await tokens.init();
  const apiKeyService = new ApiKeyService(new ApiKeyStore(database.db), secrets);
  const apiUsers = new ApiUserService(database.db);
  return {
    secrets,
    tokens,
    authenticator: new Authenticator(tokens, apiKeyService, apiUsers),
    apiKeyService,
    apiKeys: new AuthorizedApiKeyService(apiKeyService),
    apiUsers,
  };
}
