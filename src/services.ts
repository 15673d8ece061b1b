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
import type { ApiKeyService } from './kinds/apikey/service.js';
import type { ApiUserService } from './kinds/apiuser/service.js';
import { buildKinds } from './kinds/build.js';
import { EventRecorder } from './kinds/eventlog/recorder.js';
import type { EventLogService } from './kinds/eventlog/service.js';
import type { KindManifest } from './kinds/manifest.js';
import { ReferenceGraph } from './kinds/references.js';
import { KINDS } from './kinds/registry.js';
import type { RunService } from './kinds/run/service.js';
import { ScimTokenService } from './kinds/scimtoken/service.js';
import type { AuthorizedServices } from './kinds/services.js';
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
  /** The kinds served (their manifests): routes, the index and the import are derived from them. */
  kinds: readonly KindManifest[];
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
export function openServiceDatabase(
  config: Config,
  log: Logger,
  waits?: TransactionWaits,
  kinds: readonly KindManifest[] = KINDS,
): Promise<Database> {
  return openDatabase(config, log, {
    beforeMigrating: (db) => checkMasterKeys(config, keyringBeforeMigrations(db)),
    ...(waits ? { waits } : {}),
    kindMigrations: Object.assign({}, ...kinds.map((kind) => kind.migrations ?? {})),
  });
}

export interface ServiceOptions {
  /** The API users' scrypt cost: PASSWORD_COST unless a test server asks for less (StartOptions). */
  passwordCost?: ScryptCost;
  /** The single sign-on provider's certificates (`loadIssuerCa`), read before the database was opened. */
  issuerCa?: string | undefined;
  /** The kinds served: the registry's, or a test server's with kinds of its own. */
  kinds?: readonly KindManifest[];
}

export async function createServices(
  config: Config,
  database: Database,
  log: Logger,
  { passwordCost = PASSWORD_COST, issuerCa, kinds = KINDS }: ServiceOptions = {},
): Promise<Services> {
  const { db, dialect } = database;
  const { secrets, state: keyring } = await openSecretBox(config, new KeyringTable(db), log);
  const lifetimes = { tokenTtlSeconds: config.tokenTtlSeconds, runTokenTtlSeconds: config.runTimeoutSeconds + RUN_TOKEN_EXTRA_SECONDS };
  const tokens = new TokenService(new SigningKeyStore(db, dialect), secrets, lifetimes, config.publicUrl ?? 'blockyard', log);
  await tokens.init();

  const recorder = new EventRecorder(db, dialect);
  const scimTokens = new ScimTokenService(db, secrets);
  const { authorized, plain } = buildKinds(kinds, {
    db,
    dialect,
    config,
    secrets,
    recorder,
    tokens,
    passwordCost,
    durable: database.durable,
    references: new ReferenceGraph(kinds.flatMap((kind) => kind.references ?? [])),
    scimEnabled: () => scimTokens.enabled(),
  });
  plain.workspaces.onDeleted((name) => plain.apiKeys.forgetWorkspace(name));
  tokens.useRevocation(new RevocationRules(plain.apiKeys, plain.apiUsers, plain.runs));
  // Single sign-on for people (docs/sso.md): sessions in the database, principals from role bindings.
  const people = new PersonAccess(db);
  const sessions = new Sessions(db, config.sessions);
  const signIn = config.oidc ? new PersonSignIn(config.oidc, issuerCa, plain.users, people, sessions) : undefined;
  const personSessions = signIn
    ? { sessions, principalFor: (username: string, workspace: string | undefined) => people.principalFor(username, workspace) }
    : undefined;
  return {
    secrets,
    keyring,
    authorized,
    kinds,
    identity: {
      authenticator: new Authenticator(
        tokens,
        plain.apiKeys,
        plain.apiUsers,
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
    system: { apiKeys: plain.apiKeys, apiUsers: plain.apiUsers, runs: plain.runs, events: plain.events, scimTokens },
    recorder,
    units: new UnitOfWork(db),
  };
}
