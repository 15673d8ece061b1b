import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ApiKeyService } from '../kinds/apikey/service.js';
import type { ApiUserService } from '../kinds/apiuser/service.js';
import { ADMIN_WORKSPACE } from '../kinds/workspace/model.js';
import { SYSTEM } from './context.js';
import { PERMISSION_CODES } from './permissions.js';

export const ALL_PERMISSIONS = () => [...PERMISSION_CODES].sort();

/** An admin key made because the database had no credentials and none were configured. */
export interface GeneratedAdminKey {
  clientId: string;
  clientSecret: string;
}

/**
 * First credentials (DESIGN.md "Bootstrap"): the configured admin key and API user are created or
 * updated at every start; an empty database with neither configured gets a generated admin key, which
 * the start announces once (announce.ts) and never logs.
 */
export async function bootstrapCredentials(
  config: Config,
  apiKeys: ApiKeyService,
  apiUsers: ApiUserService,
  log: Logger,
): Promise<GeneratedAdminKey | undefined> {
  const { adminClientId, adminClientSecret, adminUsername, adminPassword } = config.bootstrap;
  const adminKey = { ownedByWorkspace: ADMIN_WORKSPACE, displayName: 'Bootstrap admin key', permissions: ALL_PERMISSIONS() };
  if (adminClientId && adminClientSecret) {
    await apiKeys.put(SYSTEM, adminClientId, adminKey, adminClientSecret);
    log.info({ clientId: adminClientId }, 'bootstrap admin API key ready');
  }
  if (adminUsername && adminPassword) {
    await apiUsers.put(SYSTEM, adminUsername, adminPassword);
    log.info({ username: adminUsername }, 'bootstrap API user ready');
  }
  if (!adminClientId && !adminUsername && (await apiKeys.count()) === 0 && (await apiUsers.list()).length === 0) {
    const { key, secret } = await apiKeys.create(SYSTEM, { ...adminKey, displayName: 'Generated admin key' });
    log.info({ clientId: key.uuid }, 'generated an admin API key (credentials printed once on stdout)');
    return { clientId: key.uuid, clientSecret: secret };
  }
  return undefined;
}
