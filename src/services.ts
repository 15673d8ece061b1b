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
import { AuthorizedWorkspaceService } from './kinds/workspace/authorized-service.js';
import { WorkspaceService } from './kinds/workspace/service.js';
import { WorkspaceStore } from './kinds/workspace/store.js';
import { AuthorizedProjectService } from './kinds/project/authorized-service.js';
import { ProjectService } from './kinds/project/service.js';
import { ProjectStore } from './kinds/project/store.js';
import { AuthorizedLocationService } from './kinds/location/authorized-service.js';
import { LocationService } from './kinds/location/service.js';
import { LocationStore } from './kinds/location/store.js';
import { AuthorizedPlatformService } from './kinds/platform/authorized-service.js';
import { PlatformService } from './kinds/platform/service.js';
import { PlatformStore } from './kinds/platform/store.js';
import { AuthorizedTenantService } from './kinds/tenant/authorized-service.js';
import { TenantService } from './kinds/tenant/service.js';
import { TenantStore } from './kinds/tenant/store.js';
import { AuthorizedDefinitionService } from './kinds/definition/authorized-service.js';
import { DefinitionService } from './kinds/definition/service.js';
import { DefinitionStore } from './kinds/definition/store.js';
import { RunnerStore } from './kinds/runner/store.js';
import { AuthorizedBlockService } from './kinds/block/authorized-service.js';
import { BlockService } from './kinds/block/service.js';
import { BlockLifecycle } from './runs/lifecycle.js';
import { Repositories } from './store/repositories.js';
import { AuthorizedRunService } from './runs/authorized-service.js';
import { RunService } from './runs/service.js';
import { AuthorizedRunnerService } from './kinds/runner/authorized-service.js';
import { RunnerService } from './kinds/runner/service.js';

/** The service graph: plain services, their authorized wrappers, identity. Built once per process. */
export interface Services {
  secrets: SecretBox;
  tokens: TokenService;
  authenticator: Authenticator;
  apiKeyService: ApiKeyService;
  apiKeys: AuthorizedApiKeyService;
  apiUsers: ApiUserService;
  workspaceService: WorkspaceService;
  workspaces: AuthorizedWorkspaceService;
  projects: AuthorizedProjectService;
  locations: AuthorizedLocationService;
  platformService: PlatformService;
  platforms: AuthorizedPlatformService;
  tenants: AuthorizedTenantService;
  definitionService: DefinitionService;
  definitions: AuthorizedDefinitionService;
  repositories: Repositories;
  lifecycle: BlockLifecycle;
  blocks: AuthorizedBlockService;
  runs: AuthorizedRunService;
  runners: AuthorizedRunnerService;
  runService: RunService;
}

export async function createServices(config: Config, database: Database, log: Logger): Promise<Services> {
  const secrets = loadSecretBox(config);
  const tokens = new TokenService(database.db, secrets, config.tokenTtlSeconds, config.publicUrl ?? 'blockyard', log);
  await tokens.init();
  const { db } = database;
  const workspaceService = new WorkspaceService(new WorkspaceStore(db));
  const projectService = new ProjectService(new ProjectStore(db), workspaceService);
  const locationService = new LocationService(new LocationStore(db), workspaceService);
  const platformService = new PlatformService(new PlatformStore(db), workspaceService, locationService, secrets);
  const tenantService = new TenantService(new TenantStore(db), workspaceService, projectService, platformService);
  const runnerStore = new RunnerStore(db);
  const definitionService = new DefinitionService(new DefinitionStore(db), workspaceService, runnerStore, secrets);
  const repositories = new Repositories(db, database.dialect);
  const lifecycle = new BlockLifecycle(secrets);
  const blockService = new BlockService(repositories, lifecycle, workspaceService, tenantService, definitionService, secrets);
  const runService = new RunService(repositories, lifecycle, runnerStore, secrets, tokens, config.runTimeoutSeconds);
  const apiKeyService = new ApiKeyService(new ApiKeyStore(db), secrets, workspaceService);
  workspaceService.onDeleted((name) => apiKeyService.forgetWorkspace(name));
  const apiUsers = new ApiUserService(db);
  return {
    secrets,
    tokens,
    authenticator: new Authenticator(tokens, apiKeyService, apiUsers),
    apiKeyService,
    apiKeys: new AuthorizedApiKeyService(apiKeyService),
    apiUsers,
    workspaceService,
    workspaces: new AuthorizedWorkspaceService(workspaceService),
    projects: new AuthorizedProjectService(projectService),
    locations: new AuthorizedLocationService(locationService),
    platformService,
    platforms: new AuthorizedPlatformService(platformService),
    tenants: new AuthorizedTenantService(tenantService),
    definitionService,
    definitions: new AuthorizedDefinitionService(definitionService),
    repositories,
    lifecycle,
    blocks: new AuthorizedBlockService(blockService, definitionService),
    runs: new AuthorizedRunService(runService, runnerStore),
    runners: new AuthorizedRunnerService(new RunnerService(runnerStore, workspaceService)),
    runService,
  };
}
