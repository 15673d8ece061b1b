import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { FailedAttemptLimiter } from './auth/failed-attempts.js';
import { PersonSignIn } from './auth/oidc.js';
import { PASSWORD_COST, type ScryptCost } from './auth/passwords.js';
import { PersonAccess } from './auth/people.js';
import { RevocationRules } from './auth/revocation.js';
import { Sessions } from './auth/sessions.js';
import { RUN_TOKEN_EXTRA_SECONDS, TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { checkMasterKeys, openSecretBox, type KeyringState } from './crypto/keyring.js';
import type { SecretBox } from './crypto/secret-box.js';
import type { Identity } from './http/app.js';
import { AuthorizedApiKeyService } from './kinds/apikey/authorized-service.js';
import { ApiKeyService } from './kinds/apikey/service.js';
import { AuthorizedApiUserService } from './kinds/apiuser/authorized-service.js';
import { ApiUserService } from './kinds/apiuser/service.js';
import { AuthorizedBindingService } from './kinds/binding/authorized-service.js';
import { BINDING_KINDS } from './kinds/binding/model.js';
import { BindingService } from './kinds/binding/service.js';
import { AuthorizedBlockService } from './kinds/block/authorized-service.js';
import { BlockLifecycle } from './kinds/block/lifecycle.js';
import { AuthorizedCollectionService } from './kinds/collection/authorized-service.js';
import { CollectionService } from './kinds/collection/service.js';
import { AuthorizedCommunicationService } from './kinds/communication/authorized-service.js';
import { CommunicationService } from './kinds/communication/service.js';
import { AuthorizedCommunicationDefinitionService } from './kinds/communicationdefinition/authorized-service.js';
import { CommunicationDefinitionService } from './kinds/communicationdefinition/service.js';
import { BlockService } from './kinds/block/service.js';
import { AuthorizedDefinitionService } from './kinds/definition/authorized-service.js';
import { DefinitionService } from './kinds/definition/service.js';
import { AuthorizedEventLogService } from './kinds/eventlog/authorized-service.js';
import type { EventDraft } from './kinds/eventlog/model.js';
import { EventRecorder } from './kinds/eventlog/recorder.js';
import { EventLogService } from './kinds/eventlog/service.js';
import { AuthorizedIntegrationService } from './kinds/integration/authorized-service.js';
import { IntegrationService } from './kinds/integration/service.js';
import { AuthorizedLandingZoneService } from './kinds/landingzone/authorized-service.js';
import { LandingZoneService } from './kinds/landingzone/service.js';
import { AuthorizedLocationService } from './kinds/location/authorized-service.js';
import { LocationService } from './kinds/location/service.js';
import { AuthorizedPaymentMethodService } from './kinds/paymentmethod/authorized-service.js';
import { PaymentMethodService } from './kinds/paymentmethod/service.js';
import { AuthorizedPlatformService } from './kinds/platform/authorized-service.js';
import { PlatformService } from './kinds/platform/service.js';
import { AuthorizedPlatformTypeService } from './kinds/platformtype/authorized-service.js';
import { PlatformTypeService } from './kinds/platformtype/service.js';
import { AuthorizedProjectService } from './kinds/project/authorized-service.js';
import { ProjectService } from './kinds/project/service.js';
import { AuthorizedProjectRoleService } from './kinds/projectrole/authorized-service.js';
import { ProjectRoleService } from './kinds/projectrole/service.js';
import { AuthorizedRunService } from './kinds/run/authorized-service.js';
import { RunService } from './kinds/run/service.js';
import { RUN_EVENTS } from './kinds/run/wire/index.js';
import { runUnit } from './kinds/run/unit.js';
import { AuthorizedRunnerService } from './kinds/runner/authorized-service.js';
import { RunnerService } from './kinds/runner/service.js';
import { ScimTokenService } from './kinds/scimtoken/service.js';
import { AuthorizedServiceInstanceService } from './kinds/serviceinstance/authorized-service.js';
import { ServiceInstanceService } from './kinds/serviceinstance/service.js';
import type { AuthorizedServices } from './kinds/services.js';
import { AuthorizedTagDefinitionService } from './kinds/tagdefinition/authorized-service.js';
import { TagDefinitionService } from './kinds/tagdefinition/service.js';
import { AuthorizedTenantService } from './kinds/tenant/authorized-service.js';
import { TenantService } from './kinds/tenant/service.js';
import { AuthorizedUserService } from './kinds/user/authorized-service.js';
import { UserService } from './kinds/user/service.js';
import { AuthorizedTerraformStateService } from './kinds/tfstate/authorized-service.js';
import { TerraformStateService } from './kinds/tfstate/service.js';
import { AuthorizedUserGroupService } from './kinds/usergroup/authorized-service.js';
import { UserGroupService } from './kinds/usergroup/service.js';
import { AuthorizedWorkspaceService } from './kinds/workspace/authorized-service.js';
import { WorkspaceService } from './kinds/workspace/service.js';
import { openDatabase, type Database } from './store/database.js';
import { KeyringTable, keyringBeforeMigrations } from './store/keyring.js';
import { SigningKeyStore } from './store/signing-keys.js';
import { UnitOfWork, type TransactionWaits } from './store/transaction.js';
import { SharedFailureLog } from './store/shared-rate-counter.js';

/**
 * The service graph, built once per process: plain services (rules, storage), each wrapped by its
 * authorized service, which depends only on other kinds' authorized services. Only the authorized
 * ones leave this function for the routes; the plain ones serve the service itself (bootstrap, the
 * admin CLI, background sweeps).
 */
export interface Services {
  secrets: SecretBox;
  /** Whether the master key opened the stored keys (`/readyz`). */
  keyring: KeyringState;
  authorized: AuthorizedServices;
  identity: Identity;
  /** The service acting on its own behalf: bootstrap and the admin CLI. */
  system: { apiKeys: ApiKeyService; apiUsers: ApiUserService; runs: RunService; events: EventLogService; scimTokens: ScimTokenService };
  /** The unit of work of every change; streams listen to its commits. */
  recorder: EventRecorder;
  /** Units of work spanning many changes (the import into a collection). */
  units: UnitOfWork;
}

/**
 * The database the services run on: connected, the master key checked against what it holds (before
 * any migration writes to it), and migrated.
 */
export function openServiceDatabase(config: Config, log: Logger, waits?: TransactionWaits): Promise<Database> {
  return openDatabase(config, log, {
    beforeMigrating: (db) => checkMasterKeys(config, keyringBeforeMigrations(db)),
    ...(waits ? { waits } : {}),
  });
}

export interface ServiceOptions {
  /** The API users' scrypt cost: PASSWORD_COST unless a test server asks for less (StartOptions). */
  passwordCost?: ScryptCost;
  /** The single sign-on provider's certificates (`loadIssuerCa`), read before the database was opened. */
  issuerCa?: string | undefined;
}

export async function createServices(
  config: Config,
  database: Database,
  log: Logger,
  { passwordCost = PASSWORD_COST, issuerCa }: ServiceOptions = {},
): Promise<Services> {
  const { db, dialect } = database;
  const { secrets, state: keyring } = await openSecretBox(config, new KeyringTable(db), log);
  const lifetimes = { tokenTtlSeconds: config.tokenTtlSeconds, runTokenTtlSeconds: config.runTimeoutSeconds + RUN_TOKEN_EXTRA_SECONDS };
  const tokens = new TokenService(new SigningKeyStore(db, dialect), secrets, lifetimes, config.publicUrl ?? 'blockyard', log);
  await tokens.init();

  const recorder = new EventRecorder(db, dialect);
  const workspaceService = new WorkspaceService(db, recorder);
  const eventLogService = new EventLogService(db, workspaceService, database.durable);
  const projectService = new ProjectService(db, workspaceService, recorder);
  const locationService = new LocationService(db, workspaceService, recorder);
  const platformService = new PlatformService(db, workspaceService, locationService, secrets, recorder);
  const tenantService = new TenantService(db, workspaceService, projectService, recorder);
  const runnerService = new RunnerService(db, workspaceService, recorder);
  const definitionService = new DefinitionService(db, workspaceService, secrets, recorder);
  const lifecycle = new BlockLifecycle(secrets, RUN_EVENTS);
  const unitOf = (trx: typeof db, events?: EventDraft[]) => runUnit(trx, dialect, events);
  const blockService = new BlockService(db, dialect, unitOf, lifecycle, secrets, recorder);
  const runService = new RunService(db, unitOf, lifecycle, runnerService, secrets, tokens, recorder, {
    runTimeoutSeconds: config.runTimeoutSeconds,
    logMaxBytes: config.runLogMaxBytes,
  });
  const apiKeyService = new ApiKeyService(db, secrets, workspaceService, recorder);
  const apiUserService = new ApiUserService(db, recorder, passwordCost);
  const scimTokens = new ScimTokenService(db, secrets);
  workspaceService.onDeleted((name) => apiKeyService.forgetWorkspace(name));
  tokens.useRevocation(new RevocationRules(apiKeyService, apiUserService, runService));

  // The platform catalogue: every change goes through the event recorder.
  const tagDefinitions = new AuthorizedTagDefinitionService(new TagDefinitionService(db, recorder));
  const paymentMethods = new AuthorizedPaymentMethodService(new PaymentMethodService(db, recorder, workspaceService), tagDefinitions);
  const platformTypes = new AuthorizedPlatformTypeService(new PlatformTypeService(db, recorder));

  const workspaces = new AuthorizedWorkspaceService(workspaceService, tagDefinitions);
  const platforms = new AuthorizedPlatformService(platformService, platformTypes);
  const landingZones = new AuthorizedLandingZoneService(new LandingZoneService(db, recorder), platforms, tagDefinitions);
  const tenants = new AuthorizedTenantService(tenantService, platforms, landingZones);
  const runners = new AuthorizedRunnerService(runnerService);
  const integrations = new AuthorizedIntegrationService(new IntegrationService(db, recorder, workspaceService, secrets), runners);
  const definitions = new AuthorizedDefinitionService(definitionService, runners, tagDefinitions, integrations);
  const userService = new UserService(db, recorder);
  const users = new AuthorizedUserService(userService, () => scimTokens.enabled());
  const userGroups = new AuthorizedUserGroupService(new UserGroupService(db, workspaceService, recorder), users);
  const projectRoles = new AuthorizedProjectRoleService(new ProjectRoleService(db, recorder));
  const bindingService = new BindingService(db, workspaceService, projectService, recorder);
  const binding = (kind: (typeof BINDING_KINDS)[keyof typeof BINDING_KINDS]) =>
    new AuthorizedBindingService(kind, bindingService, users, userGroups, projectRoles);
  const projects = new AuthorizedProjectService(projectService, paymentMethods, tagDefinitions);
  const blocks = new AuthorizedBlockService(blockService, definitions, tenants, workspaces);
  // Service instances and communications.
  const communicationDefinitions = new AuthorizedCommunicationDefinitionService(new CommunicationDefinitionService(db, recorder));
  const communications = new AuthorizedCommunicationService(new CommunicationService(db, recorder), communicationDefinitions, {
    workspaces,
    tenants,
    blocks,
  });
  const bindings = {
    meshWorkspaceUserBinding: binding(BINDING_KINDS.workspaceUser),
    meshWorkspaceGroupBinding: binding(BINDING_KINDS.workspaceGroup),
    meshProjectUserBinding: binding(BINDING_KINDS.projectUser),
    meshProjectGroupBinding: binding(BINDING_KINDS.projectGroup),
  };
  // Single sign-on for people (docs/sso.md): sessions in the database, principals from role bindings.
  const people = new PersonAccess(db);
  const sessions = new Sessions(db, config.sessions);
  const signIn = config.oidc ? new PersonSignIn(config.oidc, issuerCa, userService, people, sessions) : undefined;
  const personSessions = signIn
    ? { sessions, principalFor: (username: string, workspace: string | undefined) => people.principalFor(username, workspace) }
    : undefined;
  return {
    secrets,
    keyring,
    authorized: {
      apiKeys: new AuthorizedApiKeyService(apiKeyService),
      apiUsers: new AuthorizedApiUserService(apiUserService),
      workspaces,
      projects,
      locations: new AuthorizedLocationService(locationService),
      platforms,
      tenants,
      definitions,
      blocks,
      runners,
      runs: new AuthorizedRunService(runService, runners),
      events: new AuthorizedEventLogService(eventLogService),
      users,
      userGroups,
      projectRoles,
      bindings,
      collections: new AuthorizedCollectionService(new CollectionService(db, recorder)),
      tagDefinitions,
      paymentMethods,
      platformTypes,
      landingZones,
      integrations,
      serviceInstances: new AuthorizedServiceInstanceService(new ServiceInstanceService(db, recorder), projects, users),
      communicationDefinitions,
      communications,
      terraformStates: new AuthorizedTerraformStateService(new TerraformStateService(db, secrets), blockService, runService),
    },
    identity: {
      authenticator: new Authenticator(
        tokens,
        apiKeyService,
        apiUserService,
        new FailedAttemptLimiter(
          config.failedAttempts,
          dialect === 'postgres' ? new SharedFailureLog(db, config.failedAttempts.windowSeconds * 1000, log) : undefined,
        ),
        scimTokens,
        personSessions,
      ),
      tokens,
      ...(signIn ? { signIn } : {}),
    },
    system: { apiKeys: apiKeyService, apiUsers: apiUserService, runs: runService, events: eventLogService, scimTokens },
    recorder,
    units: new UnitOfWork(db),
  };
}
