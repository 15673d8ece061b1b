import { isIP } from 'node:net';
import path from 'node:path';
import { passwordProblem, usernameProblem } from './kinds/apiuser/model.js';
import { EXIT_CODES, StartFailure } from './lib/start-failure.js';

/**
 * The whole configuration of a Blockyard process, read once from `BLOCKYARD_*` variables.
 * Every variable is documented in the README; a bad value stops the start with a one-line
 * message naming the variable (ConfigError).
 */
export interface Config {
  host: string;
  port: number;
  /** Base of every absolute link; when unset, derived from the listening port. */
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  tls: { certFile: string; keyFile: string } | undefined;
  mediaVendors: readonly string[];
  logLevel: LogLevel;
  bodyLimitBytes: number;
  tokenTtlSeconds: number;
  rateLimit: { max: number; windowSeconds: number };
  /** Failed authentication allowed per client address and per presented identity within a window. */
  failedAttempts: { perAddress: number; perIdentity: number; windowSeconds: number };
  /**
   * Addresses (or CIDR ranges) of reverse proxies whose `X-Forwarded-For` names the client: the
   * address limits then apply to the client, not to the proxy. Empty: the peer is the client.
   */
  trustedProxies: readonly string[];
  bootstrap: {
    adminClientId: string | undefined;
    adminClientSecret: string | undefined;
    adminUsername: string | undefined;
    adminPassword: string | undefined;
  };
  masterKey: string | undefined;
  /**
   * Further master keys that may decrypt (never encrypt): the keys before a rotation, while
   * `blockyard admin rotate-master-key` re-encrypts what they sealed (README "Rotating the master key").
   */
  previousMasterKeys: readonly string[];
  /**
   * Start although the master key opens none of the keys the database holds, sealing the keyring anew
   * under it: every secret and signing key sealed before is given up (docs/operations.md, "The master key").
   */
  abandonSealedSecrets: boolean;
  runTimeoutSeconds: number;
  /** Bytes of step messages a run keeps (beyond: cut, with a visible marker). */
  runLogMaxBytes: number;
  /** Events older than this many days are pruned in the background. */
  eventRetentionDays: number;
  dbPoolSize: number;
  dbTimeoutMs: number;
  /**
   * Limits against slow clients: the request head must arrive within
   * `headersSeconds` (the TLS handshake too), the whole request with its body within
   * `requestSeconds`; a kept-alive connection without a request is closed after `idleSeconds`.
   */
  clientTimeouts: { headersSeconds: number; requestSeconds: number; idleSeconds: number };
  /**
   * The event stream: open streams per credential and instance, the heartbeat
   * comment's interval, the bytes a stream may hold for a reader that does not read, and how often
   * an instance looks for events no wake-up announced (other processes on SQLite, lost notifications).
   */
  eventStreams: { perCredential: number; heartbeatSeconds: number; bufferBytes: number; pollSeconds: number };
  /**
   * The workspace of SCIM groups whose `displayName` names none (`<workspace>.<group>` names one);
   * unset: such a group is refused (400).
   */
  scimGroupWorkspace: string | undefined;
  /** Single sign-on for people (OpenID Connect, docs/sso.md); unset: people sign in with API keys or users only. */
  oidc: OidcConfig | undefined;
  /** Sign-in sessions of people: they end after `idleSeconds` without a request, and `maxSeconds` after sign-in at the latest. */
  sessions: { idleSeconds: number; maxSeconds: number };
  /**
   * A plain-HTTP listener serving only `GET /metrics`, without credentials, for a Prometheus server
   * (docs/metrics.md); unset port: none (admins read `/metrics` on the API's own port).
   */
  metrics: { port: number | undefined; host: string };
}

export interface OidcConfig {
  /** The issuer identifier exactly as the provider's discovery document names it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A PEM file of certificates trusted for the issuer's TLS (a private CA); unset: the system's. */
  caFile: string | undefined;
  /** The claim naming the meshUser; unset: `preferred_username`, else `email`. */
  usernameClaim: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A setting that cannot be used: exit code 2, one line naming the variable. */
export class ConfigError extends StartFailure {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(EXIT_CODES.configuration, `${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

/** A master key: 32 bytes in base64. */
const MASTER_KEY = /^[A-Za-z0-9+/]{43}=$/;

/** Addresses, CIDR ranges, or the names proxy-addr knows (`loopback`, `linklocal`, `uniquelocal`). */
function proxyList(env: Env, name: string): string[] {
  const entries = (read(env, name) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!named && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError(
        name,
        `expected a comma-separated list of IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal), got "${entry}"`,
      );
    }
  }
  return entries;
}

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** `true` or `false` (also 1/0, yes/no); `fallback` when unset. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** An https:// URL without query, fragment or credentials (`what` says what it must be), as written; undefined when unset. */
function plainHttpsUrl(env: Env, name: string, what: string): { raw: string; url: URL } | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'https:') throw new ConfigError(name, `must be an https:// URL (the service speaks HTTPS only), got "${raw}"`);
  if (url.search !== '' || url.hash !== '' || url.username !== '')
    throw new ConfigError(name, `must be ${what} without query, fragment or credentials, got "${raw}"`);
  return { raw, url };
}

function httpsUrl(env: Env, name: string): string | undefined {
  return plainHttpsUrl(env, name, 'a plain base URL')?.url.toString().replace(/\/+$/, '');
}

/** An issuer identifier, kept as written (a trailing slash is part of some issuers). */
function issuerUrl(env: Env, name: string): string | undefined {
  return plainHttpsUrl(env, name, 'the issuer identifier')?.raw;
}

function oidcConfig(env: Env): OidcConfig | undefined {
  const names = ['BLOCKYARD_OIDC_ISSUER', 'BLOCKYARD_OIDC_CLIENT_ID', 'BLOCKYARD_OIDC_CLIENT_SECRET'] as const;
  const issuer = issuerUrl(env, names[0]);
  const [clientId, clientSecret] = [read(env, names[1]), read(env, names[2])];
  const given = [issuer, clientId, clientSecret];
  if (given.every((value) => value === undefined)) {
    for (const name of ['BLOCKYARD_OIDC_CA', 'BLOCKYARD_OIDC_USERNAME_CLAIM']) {
      if (read(env, name) !== undefined)
        throw new ConfigError(name, 'needs BLOCKYARD_OIDC_ISSUER, BLOCKYARD_OIDC_CLIENT_ID and BLOCKYARD_OIDC_CLIENT_SECRET');
    }
    return undefined;
  }
  const missing = names.filter((_, index) => given[index] === undefined);
  if (missing.length > 0)
    throw new ConfigError(missing[0]!, `must be set together with ${names.filter((name) => name !== missing[0]).join(' and ')}`);
  const usernameClaim = read(env, 'BLOCKYARD_OIDC_USERNAME_CLAIM');
  if (usernameClaim !== undefined && !/^[A-Za-z0-9_.:-]{1,100}$/.test(usernameClaim)) {
    throw new ConfigError('BLOCKYARD_OIDC_USERNAME_CLAIM', `expected a claim name (letters, digits, _ . : -), got "${usernameClaim}"`);
  }
  return { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret!, caFile: read(env, 'BLOCKYARD_OIDC_CA'), usernameClaim };
}

function postgresUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(name, 'must start with postgres:// or postgresql://');
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  return raw;
}

function pair(env: Env, a: string, b: string): [string, string] | [undefined, undefined] {
  const first = read(env, a);
  const second = read(env, b);
  if ((first === undefined) !== (second === undefined)) {
    throw new ConfigError(first === undefined ? a : b, `must be set together with ${first === undefined ? b : a}`);
  }
  return [first, second] as [string, string] | [undefined, undefined];
}

export function loadConfig(env: Env = process.env): Config {
  const [certFile, keyFile] = pair(env, 'BLOCKYARD_TLS_CERT', 'BLOCKYARD_TLS_KEY');
  const [adminClientId, adminClientSecret] = pair(env, 'BLOCKYARD_ADMIN_CLIENT_ID', 'BLOCKYARD_ADMIN_CLIENT_SECRET');
  const [adminUsername, adminPassword] = pair(env, 'BLOCKYARD_ADMIN_USERNAME', 'BLOCKYARD_ADMIN_PASSWORD');
  if (adminClientId !== undefined && !/^[A-Za-z0-9._-]{1,255}$/.test(adminClientId)) {
    throw new ConfigError('BLOCKYARD_ADMIN_CLIENT_ID', 'use 1-255 letters, digits, dots, dashes or underscores');
  }
  if (adminClientSecret !== undefined && adminClientSecret.length < 16) {
    throw new ConfigError('BLOCKYARD_ADMIN_CLIENT_SECRET', 'must be at least 16 characters');
  }
  // The API's own username and password rules, so the bootstrap user could also be made through the API.
  const passwordIssue = adminPassword === undefined ? undefined : passwordProblem(adminPassword);
  if (passwordIssue) throw new ConfigError('BLOCKYARD_ADMIN_PASSWORD', `must have ${passwordIssue}`);
  const usernameIssue = adminUsername === undefined ? undefined : usernameProblem(adminUsername);
  if (usernameIssue) throw new ConfigError('BLOCKYARD_ADMIN_USERNAME', `must have ${usernameIssue}`);

  const vendorsRaw = read(env, 'BLOCKYARD_MEDIA_VENDORS') ?? 'vendor,meshcloud';
  const mediaVendors = vendorsRaw
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const badVendor = mediaVendors.find((v) => !/^[a-z0-9-]+$/.test(v));
  if (badVendor !== undefined || mediaVendors.length === 0) {
    throw new ConfigError('BLOCKYARD_MEDIA_VENDORS', `expected a comma-separated list of lower-case vendor segments, got "${vendorsRaw}"`);
  }

  const masterKey = read(env, 'BLOCKYARD_MASTER_KEY');
  if (masterKey !== undefined && !MASTER_KEY.test(masterKey)) {
    throw new ConfigError('BLOCKYARD_MASTER_KEY', 'expected 32 bytes in base64 (44 characters), e.g. from `openssl rand -base64 32`');
  }
  const databaseUrl = postgresUrl(env, 'BLOCKYARD_DATABASE_URL');
  // Every instance of a PostgreSQL deployment must seal with the same key: none may invent its own.
  if (databaseUrl !== undefined && masterKey === undefined) {
    throw new ConfigError(
      'BLOCKYARD_MASTER_KEY',
      'is required with BLOCKYARD_DATABASE_URL: every instance must share it (e.g. `openssl rand -base64 32`)',
    );
  }
  const previousMasterKeys = (read(env, 'BLOCKYARD_PREVIOUS_MASTER_KEYS') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (previousMasterKeys.some((key) => !MASTER_KEY.test(key))) {
    throw new ConfigError(
      'BLOCKYARD_PREVIOUS_MASTER_KEYS',
      'expected a comma-separated list of master keys, each 32 bytes in base64 (44 characters)',
    );
  }

  const requestSeconds = integer(env, 'BLOCKYARD_REQUEST_TIMEOUT_SECONDS', 30, 1, 3600);
  // Node requires headers timeout <= request timeout; an unset headers timeout follows a short request timeout.
  const headersSeconds = integer(env, 'BLOCKYARD_HEADERS_TIMEOUT_SECONDS', Math.min(10, requestSeconds), 1, 3600);
  if (headersSeconds > requestSeconds) {
    throw new ConfigError(
      'BLOCKYARD_HEADERS_TIMEOUT_SECONDS',
      `must not exceed BLOCKYARD_REQUEST_TIMEOUT_SECONDS (${requestSeconds}), got ${headersSeconds}`,
    );
  }

  const scimGroupWorkspace = read(env, 'BLOCKYARD_SCIM_GROUP_WORKSPACE');
  if (scimGroupWorkspace !== undefined && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(scimGroupWorkspace)) {
    throw new ConfigError('BLOCKYARD_SCIM_GROUP_WORKSPACE', `expected a workspace identifier (a-z, 0-9, -), got "${scimGroupWorkspace}"`);
  }

  const sessionIdleSeconds = integer(env, 'BLOCKYARD_SESSION_IDLE_SECONDS', 8 * 3600, 60, 30 * 86_400);
  const sessionMaxSeconds = integer(env, 'BLOCKYARD_SESSION_MAX_SECONDS', 86_400, 60, 90 * 86_400);
  if (sessionIdleSeconds > sessionMaxSeconds) {
    throw new ConfigError(
      'BLOCKYARD_SESSION_IDLE_SECONDS',
      `must not exceed BLOCKYARD_SESSION_MAX_SECONDS (${sessionMaxSeconds}), got ${sessionIdleSeconds}`,
    );
  }

  const metricsPort = read(env, 'BLOCKYARD_METRICS_PORT') === undefined ? undefined : integer(env, 'BLOCKYARD_METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== undefined && metricsPort === integer(env, 'BLOCKYARD_PORT', 8443, 0, 65535)) {
    throw new ConfigError(
      'BLOCKYARD_METRICS_PORT',
      `must differ from BLOCKYARD_PORT (${metricsPort}): the metrics listener is a plain-HTTP port of its own`,
    );
  }

  return {
    host: read(env, 'BLOCKYARD_HOST') ?? '0.0.0.0',
    port: integer(env, 'BLOCKYARD_PORT', 8443, 0, 65535),
    publicUrl: httpsUrl(env, 'BLOCKYARD_PUBLIC_URL'),
    dataDir: path.resolve(read(env, 'BLOCKYARD_DATA_DIR') ?? './data'),
    databaseUrl,
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
    mediaVendors,
    logLevel: oneOf(env, 'BLOCKYARD_LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: integer(env, 'BLOCKYARD_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    tokenTtlSeconds: integer(env, 'BLOCKYARD_TOKEN_TTL_SECONDS', 300, 1, 86_400),
    rateLimit: {
      max: integer(env, 'BLOCKYARD_RATE_LIMIT_MAX', 1200, 1, 10_000_000),
      windowSeconds: integer(env, 'BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    },
    failedAttempts: {
      perAddress: integer(env, 'BLOCKYARD_AUTH_FAILURES_PER_ADDRESS', 50, 1, 1_000_000),
      perIdentity: integer(env, 'BLOCKYARD_AUTH_FAILURES_PER_IDENTITY', 10, 1, 1_000_000),
      windowSeconds: integer(env, 'BLOCKYARD_AUTH_FAILURE_WINDOW_SECONDS', 300, 1, 86_400),
    },
    trustedProxies: proxyList(env, 'BLOCKYARD_TRUSTED_PROXIES'),
    bootstrap: { adminClientId, adminClientSecret, adminUsername, adminPassword },
    masterKey,
    previousMasterKeys,
    abandonSealedSecrets: flag(env, 'BLOCKYARD_ABANDON_SEALED_SECRETS', false),
    runTimeoutSeconds: integer(env, 'BLOCKYARD_RUN_TIMEOUT_SECONDS', 3 * 3600, 1, 30 * 86_400),
    runLogMaxBytes: integer(env, 'BLOCKYARD_RUN_LOG_MAX_BYTES', 4 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    eventRetentionDays: integer(env, 'BLOCKYARD_EVENT_RETENTION_DAYS', 400, 1, 36_500),
    dbPoolSize: integer(env, 'BLOCKYARD_DB_POOL_SIZE', 10, 1, 500),
    dbTimeoutMs: integer(env, 'BLOCKYARD_DB_TIMEOUT_MS', 5000, 100, 600_000),
    clientTimeouts: { headersSeconds, requestSeconds, idleSeconds: integer(env, 'BLOCKYARD_IDLE_TIMEOUT_SECONDS', 72, 1, 3600) },
    eventStreams: {
      perCredential: integer(env, 'BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL', 10, 1, 10_000),
      heartbeatSeconds: integer(env, 'BLOCKYARD_EVENT_STREAM_HEARTBEAT_SECONDS', 15, 1, 300),
      bufferBytes: integer(env, 'BLOCKYARD_EVENT_STREAM_BUFFER_BYTES', 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
      pollSeconds: integer(env, 'BLOCKYARD_EVENT_POLL_SECONDS', 5, 1, 3600),
    },
    scimGroupWorkspace,
    oidc: oidcConfig(env),
    sessions: { idleSeconds: sessionIdleSeconds, maxSeconds: sessionMaxSeconds },
    metrics: { port: metricsPort, host: read(env, 'BLOCKYARD_METRICS_HOST') ?? '127.0.0.1' },
  };
}
