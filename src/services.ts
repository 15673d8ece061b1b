import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { FailedAttemptLimiter } from './auth/failed-attempts.js';
import { RevocationRules } from './auth/revocation.js';
import { RUN_TOKEN_EXTRA_SECONDS, TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { openSecretBox } from './crypto/keyring.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Identity } from './http/app.js';
import { AuthorizedApiKeyService } from './kinds/apikey/authorized-service.js';
import { ApiKeyService } from './kinds/apikey/service.js';
import { AuthorizedApiUserService } from './kinds/apiuser/authorized-service.js';
import { ApiUserService } from './kinds/apiuser/service.js';
import { AuthorizedBindingService } from './kinds/binding/authorized-service.js';
import { BINDING_KINDS } from './kinds/binding/holders.js';
import { BindingService } from './kinds/binding/service.js';
import { AuthorizedBlockService } from './kinds/block/authorized-service.js';
import { BlockLifecycle } from './kinds/block/lifecycle.js';
import { AuthorizedCollectionService } from './kinds/collection/authorized-service.js';
import { CollectionService } from './kinds/collection/service.js';
import { BlockService } from './kinds/block/service.js';
import { AuthorizedDefinitionService } from './kinds/definition/authorized-service.js';
import { DefinitionService } from './kinds/definition/service.js';
import { AuthorizedLocationService } from './kinds/location/authorized-service.js';
import { LocationService } from './kinds/location/service.js';
import { AuthorizedPlatformService } from './kinds/platform/authorized-service.js';
import { PlatformService } from './kinds/platform/service.js';
import { AuthorizedProjectService } from './kinds/project/authorized-service.js';
import { ProjectService } from './kinds/project/service.js';
import { AuthorizedProjectRoleService } from './kinds/projectrole/authorized-service.js';
import { ProjectRoleService } from './kinds/projectrole/service.js';
import { AuthorizedRunService } from './kinds/run/authorized-service.js';
import { RunService } from './kinds/run/service.js';
import { runUnit } from './kinds/run/unit.js';
import { AuthorizedRunnerService } from './kinds/runner/authorized-service.js';
import { RunnerService } from './kinds/runner/service.js';
import { ScimTokenService } from './kinds/scimtoken/service.js';
import type { AuthorizedServices } from './kinds/services.js';
import { AuthorizedTenantService } from './kinds/tenant/authorized-service.js';
import { TenantService } from './kinds/tenant/service.js';
import { AuthorizedUserService } from './kinds/user/authorized-service.js';
import { UserService } from './kinds/user/service.js';
import { AuthorizedUserGroupService } from './kinds/usergroup/authorized-service.js';
import { UserGroupService } from './kinds/usergroup/service.js';
import { AuthorizedWorkspaceService } from './kinds/workspace/authorized-service.js';
import { WorkspaceService } from './kinds/workspace/service.js';
import type { Database } from './store/database.js';
import { KeyringTable } from './store/keyring.js';
import { SigningKeyStore } from './store/signing-keys.js';

/**
 * The service graph, built once per process: plain services (rules, storage), each wrapped by its
 * authorized service, which depends only on other kinds' authorized services. Only the authorized
 * ones leave this function for the routes; the plain ones serve the service itself (bootstrap, the
 * admin CLI, background sweeps).
 */
export interface Services {
  secrets: SecretBox;
  authorized: AuthorizedServices;
  identity: Identity;
  /** The service acting on its own behalf: bootstrap and the admin CLI. */
  system: { apiKeys: ApiKeyService; apiUsers: ApiUserService; runs: RunService; scimTokens: ScimTokenService };
}

export async function createServices(config: Config, database: Database, log: Logger): Promise<Services> {
  const { db, dialect } = database;
  const secrets = await openSecretBox(config, new KeyringTable(db), log);
  const lifetimes = { tokenTtlSeconds: config.tokenTtlSeconds, runTokenTtlSeconds: config.runTimeoutSeconds + RUN_TOKEN_EXTRA_SECONDS };
  const tokens = new TokenService(new SigningKeyStore(db, dialect), secrets, lifetimes, config.publicUrl ?? 'blockyard', log);
  await tokens.init();

  const workspaceService = new WorkspaceService(db);
  const projectService = new ProjectService(db, workspaceService);
  const locationService = new LocationService(db, workspaceService);
  const platformService = new PlatformService(db, workspaceService, locationService, secrets);
  const tenantService = new TenantService(db, workspaceService, projectService);
  const runnerService = new RunnerService(db, workspaceService);
  const definitionService = new DefinitionService(db, workspaceService, secrets);
  const lifecycle = new BlockLifecycle(secrets);
  const unitOf = (trx: typeof db) => runUnit(trx, dialect);
  const blockService = new BlockService(db, dialect, unitOf, lifecycle, secrets);
  const runService = new RunService(db, unitOf, lifecycle, runnerService, secrets, tokens, { runTimeoutSeconds: config.runTimeoutSeconds, logMaxBytes: config.runLogMaxBytes });
  const apiKeyService = new ApiKeyService(db, secrets, workspaceService);
  const apiUserService = new ApiUserService(db);
  const scimTokens = new ScimTokenService(db, secrets);
  workspaceService.onDeleted((name) => apiKeyService.forgetWorkspace(name));
  tokens.useRevocation(new RevocationRules(apiKeyService, apiUserService, runService));

  const workspaces = new AuthorizedWorkspaceService(workspaceService);
  const platforms = new AuthorizedPlatformService(platformService);
  const tenants = new AuthorizedTenantService(tenantService, platforms);
  const runners = new AuthorizedRunnerService(runnerService);
  const definitions = new AuthorizedDefinitionService(definitionService, runners);
  const users = new AuthorizedUserService(new UserService(db), () => scimTokens.enabled());
  const userGroups = new AuthorizedUserGroupService(new UserGroupService(db, workspaceService), users);
  const projectRoles = new AuthorizedProjectRoleService(new ProjectRoleService(db));
  const bindingService = new BindingService(db, workspaceService, projectService);
  const binding = (kind: (typeof BINDING_KINDS)[keyof typeof BINDING_KINDS]) => new AuthorizedBindingService(kind, bindingService, users, userGroups, projectRoles);
  const bindings = {
    meshWorkspaceUserBinding: binding(BINDING_KINDS.workspaceUser),
    meshWorkspaceGroupBinding: binding(BINDING_KINDS.workspaceGroup),
    meshProjectUserBinding: binding(BINDING_KINDS.projectUser),
    meshProjectGroupBinding: binding(BINDING_KINDS.projectGroup),
  };
  return {
    secrets,
    authorized: {
      apiKeys: new AuthorizedApiKeyService(apiKeyService),
      apiUsers: new AuthorizedApiUserService(apiUserService),
      workspaces,
      projects: new AuthorizedProjectService(projectService),
      locations: new AuthorizedLocationService(locationService),
      platforms,
      tenants,
      definitions,
      blocks: new AuthorizedBlockService(blockService, definitions, tenants, workspaces),
      runners,
      runs: new AuthorizedRunService(runService, runners),
      users,
      userGroups,
      projectRoles,
      bindings,
      collections: new AuthorizedCollectionService(new CollectionService(db)),
    },
    identity: { authenticator: new Authenticator(tokens, apiKeyService, apiUserService, new FailedAttemptLimiter(config.failedAttempts), scimTokens), tokens },
    system: { apiKeys: apiKeyService, apiUsers: apiUserService, runs: runService, scimTokens },
  };
}
