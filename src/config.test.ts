import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MASTER_KEY = 'q83vEjRWeJq8A2kX8iZy4K2gQ5cQn7jvY0X3bS1tN8o=';
const PREVIOUS_KEY = 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=';

/** Asserts that loadConfig(env) throws a ConfigError for `variable` whose message starts with it. */
function rejects(env: Record<string, string>, variable: string, detail?: RegExp): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      assert.equal(error.variable, variable);
      assert.ok(error.message.startsWith(`${variable}: `), `message "${error.message}" should start with ${variable}`);
      assert.ok(!error.message.includes('\n'), 'message should be a single line');
      if (detail) assert.match(error.message, detail);
      return true;
    },
  );
}

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it('listens on 0.0.0.0:8443 without a public URL, TLS files or database URL', () => {
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8443);
    assert.equal(config.publicUrl, undefined);
    assert.equal(config.tls, undefined);
    assert.equal(config.databaseUrl, undefined);
  });
  it('resolves the data directory ./data against the working directory', () => {
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.ok(path.isAbsolute(config.dataDir));
  });
  it('accepts the vendor segments "vendor" and "meshcloud"', () => {
    assert.deepEqual(config.mediaVendors, ['vendor', 'meshcloud']);
  });
  it('has the documented limits and timeouts', () => {
    assert.equal(config.logLevel, 'info');
    assert.equal(config.tokenTtlSeconds, 300);
    assert.equal(config.bodyLimitBytes, 1024 * 1024);
    assert.deepEqual(config.rateLimit, { max: 1200, windowSeconds: 60 });
    assert.deepEqual(config.failedAttempts, { perAddress: 50, perIdentity: 10, windowSeconds: 300 });
    assert.deepEqual(config.trustedProxies, []);
    assert.equal(config.runTimeoutSeconds, 3 * 3600);
    assert.equal(config.runLogMaxBytes, 4 * 1024 * 1024);
    assert.equal(config.eventRetentionDays, 400);
    assert.equal(config.dbPoolSize, 10);
    assert.equal(config.dbTimeoutMs, 5000);
    assert.deepEqual(config.clientTimeouts, { headersSeconds: 10, requestSeconds: 30, idleSeconds: 72 });
    assert.deepEqual(config.eventStreams, { perCredential: 10, heartbeatSeconds: 15, bufferBytes: 1024 * 1024, pollSeconds: 5 });
  });
  it('has no bootstrap credentials and no master key', () => {
    assert.deepEqual(config.bootstrap, {
      adminClientId: undefined,
      adminClientSecret: undefined,
      adminUsername: undefined,
      adminPassword: undefined,
    });
    assert.equal(config.masterKey, undefined);
    assert.deepEqual(config.previousMasterKeys, []);
  });
  it('treats empty and blank variables as unset', () => {
    assert.deepEqual(
      loadConfig({ BLOCKYARD_PORT: '', BLOCKYARD_MEDIA_VENDORS: '  ', BLOCKYARD_LOG_LEVEL: '', BLOCKYARD_TLS_CERT: ' ' }),
      config,
    );
  });
});

describe('loadConfig values', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      BLOCKYARD_HOST: '127.0.0.1',
      BLOCKYARD_PORT: ' 9443 ',
      BLOCKYARD_PUBLIC_URL: 'https://blocks.example.com/',
      BLOCKYARD_DATA_DIR: '/var/lib/blockyard',
      BLOCKYARD_DATABASE_URL: 'postgresql://u:p@db:5432/blockyard',
      BLOCKYARD_TLS_CERT: '/etc/tls/cert.pem',
      BLOCKYARD_TLS_KEY: '/etc/tls/key.pem',
      BLOCKYARD_MEDIA_VENDORS: 'Vendor, acme-corp ,',
      BLOCKYARD_LOG_LEVEL: 'DEBUG',
      BLOCKYARD_BODY_LIMIT_BYTES: '2048',
      BLOCKYARD_TOKEN_TTL_SECONDS: '600',
      BLOCKYARD_RATE_LIMIT_MAX: '10',
      BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS: '1',
      BLOCKYARD_AUTH_FAILURES_PER_ADDRESS: '7',
      BLOCKYARD_AUTH_FAILURES_PER_IDENTITY: '3',
      BLOCKYARD_AUTH_FAILURE_WINDOW_SECONDS: '30',
      BLOCKYARD_TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16,loopback,::1',
      BLOCKYARD_ADMIN_CLIENT_ID: 'admin-client_1.x',
      BLOCKYARD_ADMIN_CLIENT_SECRET: 's'.repeat(16),
      BLOCKYARD_ADMIN_USERNAME: 'admin',
      BLOCKYARD_ADMIN_PASSWORD: 'p'.repeat(12),
      BLOCKYARD_MASTER_KEY: MASTER_KEY,
      BLOCKYARD_PREVIOUS_MASTER_KEYS: ` ${PREVIOUS_KEY}, ${MASTER_KEY.slice(0, 40)}abc= `,
      BLOCKYARD_ABANDON_SEALED_SECRETS: 'Yes',
      BLOCKYARD_RUN_TIMEOUT_SECONDS: '60',
      BLOCKYARD_RUN_LOG_MAX_BYTES: '65536',
      BLOCKYARD_EVENT_RETENTION_DAYS: '30',
      BLOCKYARD_DB_POOL_SIZE: '3',
      BLOCKYARD_DB_TIMEOUT_MS: '100',
      BLOCKYARD_HEADERS_TIMEOUT_SECONDS: '5',
      BLOCKYARD_REQUEST_TIMEOUT_SECONDS: '120',
      BLOCKYARD_IDLE_TIMEOUT_SECONDS: '15',
      BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL: '2',
      BLOCKYARD_EVENT_STREAM_HEARTBEAT_SECONDS: '1',
      BLOCKYARD_EVENT_STREAM_BUFFER_BYTES: '16384',
      BLOCKYARD_EVENT_POLL_SECONDS: '2',
      BLOCKYARD_SCIM_GROUP_WORKSPACE: 'people',
      BLOCKYARD_OIDC_ISSUER: 'https://login.example.com/realms/people/',
      BLOCKYARD_OIDC_CLIENT_ID: 'blockyard',
      BLOCKYARD_OIDC_CLIENT_SECRET: 'oidc-secret',
      BLOCKYARD_OIDC_CA: '/etc/tls/idp-ca.pem',
      BLOCKYARD_OIDC_USERNAME_CLAIM: 'upn',
      BLOCKYARD_SESSION_IDLE_SECONDS: '600',
      BLOCKYARD_SESSION_MAX_SECONDS: '3600',
      BLOCKYARD_METRICS_PORT: '9464',
      BLOCKYARD_METRICS_HOST: '10.0.3.17',
    });
    assert.deepEqual(config, {
      host: '127.0.0.1',
      port: 9443,
      publicUrl: 'https://blocks.example.com',
      dataDir: '/var/lib/blockyard',
      databaseUrl: 'postgresql://u:p@db:5432/blockyard',
      tls: { certFile: '/etc/tls/cert.pem', keyFile: '/etc/tls/key.pem' },
      mediaVendors: ['vendor', 'acme-corp'],
      logLevel: 'debug',
      bodyLimitBytes: 2048,
      tokenTtlSeconds: 600,
      rateLimit: { max: 10, windowSeconds: 1 },
      failedAttempts: { perAddress: 7, perIdentity: 3, windowSeconds: 30 },
      trustedProxies: ['10.0.0.1', '10.1.0.0/16', 'loopback', '::1'],
      bootstrap: {
        adminClientId: 'admin-client_1.x',
        adminClientSecret: 's'.repeat(16),
        adminUsername: 'admin',
        adminPassword: 'p'.repeat(12),
      },
      masterKey: MASTER_KEY,
      previousMasterKeys: [PREVIOUS_KEY, `${MASTER_KEY.slice(0, 40)}abc=`],
      abandonSealedSecrets: true,
      runTimeoutSeconds: 60,
      runLogMaxBytes: 65536,
      eventRetentionDays: 30,
      dbPoolSize: 3,
      dbTimeoutMs: 100,
      clientTimeouts: { headersSeconds: 5, requestSeconds: 120, idleSeconds: 15 },
      eventStreams: { perCredential: 2, heartbeatSeconds: 1, bufferBytes: 16384, pollSeconds: 2 },
      scimGroupWorkspace: 'people',
      oidc: {
        issuer: 'https://login.example.com/realms/people/',
        clientId: 'blockyard',
        clientSecret: 'oidc-secret',
        caFile: '/etc/tls/idp-ca.pem',
        usernameClaim: 'upn',
      },
      sessions: { idleSeconds: 600, maxSeconds: 3600 },
      metrics: { port: 9464, host: '10.0.3.17' },
    });
  });
  it('opens no metrics port unless BLOCKYARD_METRICS_PORT names one (1–65535, not the API’s); it listens on 127.0.0.1 by default', () => {
    assert.deepEqual(loadConfig({}).metrics, { port: undefined, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ BLOCKYARD_METRICS_PORT: '65535' }).metrics, { port: 65535, host: '127.0.0.1' });
    rejects({ BLOCKYARD_METRICS_PORT: '0' }, 'BLOCKYARD_METRICS_PORT', /between 1 and 65535/);
    rejects({ BLOCKYARD_METRICS_PORT: '65536' }, 'BLOCKYARD_METRICS_PORT', /between 1 and 65535/);
    rejects({ BLOCKYARD_METRICS_PORT: 'http' }, 'BLOCKYARD_METRICS_PORT', /expected an integer/);
    rejects({ BLOCKYARD_METRICS_PORT: '8443' }, 'BLOCKYARD_METRICS_PORT', /must differ from BLOCKYARD_PORT/);
    rejects({ BLOCKYARD_PORT: '9000', BLOCKYARD_METRICS_PORT: '9000' }, 'BLOCKYARD_METRICS_PORT', /must differ/);
  });
  it('refuses single sign-on settings that are incomplete, not https, or an idle time beyond the maximum', () => {
    const oidc = {
      BLOCKYARD_OIDC_ISSUER: 'https://idp.example.com',
      BLOCKYARD_OIDC_CLIENT_ID: 'blockyard',
      BLOCKYARD_OIDC_CLIENT_SECRET: 'secret',
    };
    rejects({ BLOCKYARD_OIDC_ISSUER: 'https://idp.example.com' }, 'BLOCKYARD_OIDC_CLIENT_ID', /set together/);
    rejects({ ...oidc, BLOCKYARD_OIDC_ISSUER: 'http://idp.example.com' }, 'BLOCKYARD_OIDC_ISSUER', /https/);
    rejects({ BLOCKYARD_OIDC_CA: '/ca.pem' }, 'BLOCKYARD_OIDC_CA', /BLOCKYARD_OIDC_ISSUER/);
    rejects({ ...oidc, BLOCKYARD_OIDC_USERNAME_CLAIM: 'a b' }, 'BLOCKYARD_OIDC_USERNAME_CLAIM');
    rejects({ BLOCKYARD_SESSION_IDLE_SECONDS: '7200', BLOCKYARD_SESSION_MAX_SECONDS: '3600' }, 'BLOCKYARD_SESSION_IDLE_SECONDS');
    assert.equal(loadConfig({}).oidc, undefined);
  });
  it('accepts the port bounds 0 and 65535', () => {
    assert.equal(loadConfig({ BLOCKYARD_PORT: '0' }).port, 0);
    assert.equal(loadConfig({ BLOCKYARD_PORT: '65535' }).port, 65535);
  });
  it('accepts postgres:// as well as postgresql://', () => {
    assert.equal(
      loadConfig({ BLOCKYARD_DATABASE_URL: 'postgres://localhost/db', BLOCKYARD_MASTER_KEY: MASTER_KEY }).databaseUrl,
      'postgres://localhost/db',
    );
  });
  it('lets an unset headers timeout follow a request timeout shorter than its default', () => {
    assert.deepEqual(loadConfig({ BLOCKYARD_REQUEST_TIMEOUT_SECONDS: '4' }).clientTimeouts, {
      headersSeconds: 4,
      requestSeconds: 4,
      idleSeconds: 72,
    });
    assert.equal(loadConfig({ BLOCKYARD_HEADERS_TIMEOUT_SECONDS: '30' }).clientTimeouts.headersSeconds, 30);
  });
  it('resolves a relative data directory', () => {
    assert.equal(loadConfig({ BLOCKYARD_DATA_DIR: 'state' }).dataDir, path.resolve('state'));
  });
  it('keeps a public URL path but drops trailing slashes', () => {
    assert.equal(loadConfig({ BLOCKYARD_PUBLIC_URL: 'https://h.example/base//' }).publicUrl, 'https://h.example/base');
  });
});

describe('loadConfig validation', () => {
  for (const value of ['abc', '70000', '-1', '1.5', '65536', '8443x']) {
    it(`rejects BLOCKYARD_PORT=${value}`, () => rejects({ BLOCKYARD_PORT: value }, 'BLOCKYARD_PORT'));
  }
  it('says why a port is bad', () => {
    rejects({ BLOCKYARD_PORT: 'abc' }, 'BLOCKYARD_PORT', /integer.*"abc"/);
    rejects({ BLOCKYARD_PORT: '70000' }, 'BLOCKYARD_PORT', /between 0 and 65535.*70000/);
  });

  for (const value of ['http://blocks.example.com', 'ftp://blocks.example.com', 'blocks.example.com', 'not a url']) {
    it(`rejects BLOCKYARD_PUBLIC_URL=${value}`, () => rejects({ BLOCKYARD_PUBLIC_URL: value }, 'BLOCKYARD_PUBLIC_URL'));
  }

  it('requires a master key with PostgreSQL, before anything is opened: every instance must seal with the same key', () => {
    rejects({ BLOCKYARD_DATABASE_URL: 'postgres://localhost/db' }, 'BLOCKYARD_MASTER_KEY', /BLOCKYARD_DATABASE_URL/);
  });

  for (const value of ['maybe', 'on', '2']) {
    it(`rejects BLOCKYARD_ABANDON_SEALED_SECRETS=${value}`, () =>
      rejects({ BLOCKYARD_ABANDON_SEALED_SECRETS: value }, 'BLOCKYARD_ABANDON_SEALED_SECRETS'));
  }

  for (const value of ['mysql://localhost/db', 'http://localhost/db', 'localhost:5432', 'postgres://[bad']) {
    it(`rejects BLOCKYARD_DATABASE_URL=${value}`, () => rejects({ BLOCKYARD_DATABASE_URL: value }, 'BLOCKYARD_DATABASE_URL'));
  }

  it('rejects a TLS certificate without a key, naming the missing key', () => {
    rejects({ BLOCKYARD_TLS_CERT: '/etc/tls/cert.pem' }, 'BLOCKYARD_TLS_KEY', /BLOCKYARD_TLS_CERT/);
  });
  it('rejects a TLS key without a certificate, naming the missing certificate', () => {
    rejects({ BLOCKYARD_TLS_KEY: '/etc/tls/key.pem' }, 'BLOCKYARD_TLS_CERT', /BLOCKYARD_TLS_KEY/);
  });
  it('rejects an admin client id without a secret, and a secret without an id', () => {
    rejects({ BLOCKYARD_ADMIN_CLIENT_ID: 'admin' }, 'BLOCKYARD_ADMIN_CLIENT_SECRET', /BLOCKYARD_ADMIN_CLIENT_ID/);
    rejects({ BLOCKYARD_ADMIN_CLIENT_SECRET: 's'.repeat(16) }, 'BLOCKYARD_ADMIN_CLIENT_ID', /BLOCKYARD_ADMIN_CLIENT_SECRET/);
  });
  it('rejects an admin username without a password, and a password without a username', () => {
    rejects({ BLOCKYARD_ADMIN_USERNAME: 'admin' }, 'BLOCKYARD_ADMIN_PASSWORD');
    rejects({ BLOCKYARD_ADMIN_PASSWORD: 'p'.repeat(12) }, 'BLOCKYARD_ADMIN_USERNAME');
  });
  it('rejects a bad admin client id, a short secret, a short password and a username with a colon', () => {
    rejects({ BLOCKYARD_ADMIN_CLIENT_ID: 'bad id', BLOCKYARD_ADMIN_CLIENT_SECRET: 's'.repeat(16) }, 'BLOCKYARD_ADMIN_CLIENT_ID');
    rejects({ BLOCKYARD_ADMIN_CLIENT_ID: 'admin', BLOCKYARD_ADMIN_CLIENT_SECRET: 's'.repeat(15) }, 'BLOCKYARD_ADMIN_CLIENT_SECRET');
    rejects({ BLOCKYARD_ADMIN_USERNAME: 'admin', BLOCKYARD_ADMIN_PASSWORD: 'p'.repeat(11) }, 'BLOCKYARD_ADMIN_PASSWORD');
    rejects({ BLOCKYARD_ADMIN_USERNAME: 'ad:min', BLOCKYARD_ADMIN_PASSWORD: 'p'.repeat(12) }, 'BLOCKYARD_ADMIN_USERNAME');
    rejects({ BLOCKYARD_ADMIN_USERNAME: 'Admin', BLOCKYARD_ADMIN_PASSWORD: 'p'.repeat(12) }, 'BLOCKYARD_ADMIN_USERNAME', /a-z, 0-9/);
  });

  for (const [label, value] of [
    ['too short', 'c2hvcnQ='],
    ['hex instead of base64', 'a'.repeat(64)],
    ['without padding', MASTER_KEY.slice(0, 43)],
    ['url-safe alphabet', `${MASTER_KEY.slice(0, 10)}-_${MASTER_KEY.slice(12)}`],
    ['one byte too many', `${MASTER_KEY.slice(0, 43)}AA=`],
  ] as const) {
    it(`rejects a master key ${label}`, () => rejects({ BLOCKYARD_MASTER_KEY: value }, 'BLOCKYARD_MASTER_KEY'));
    it(`rejects a previous master key ${label}`, () =>
      rejects({ BLOCKYARD_PREVIOUS_MASTER_KEYS: `${PREVIOUS_KEY},${value}` }, 'BLOCKYARD_PREVIOUS_MASTER_KEYS'));
  }

  for (const value of ['verbose', 'warning', '1']) {
    it(`rejects BLOCKYARD_LOG_LEVEL=${value}`, () =>
      rejects({ BLOCKYARD_LOG_LEVEL: value }, 'BLOCKYARD_LOG_LEVEL', /fatal, error, warn, info, debug, trace, silent/));
  }
  it('accepts every pino level, case-insensitively', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      assert.equal(loadConfig({ BLOCKYARD_LOG_LEVEL: level.toUpperCase() }).logLevel, level);
    }
  });

  for (const value of [',', ' , ,', 'vendor,acme corp', 'vendor.api', 'vendor;meshcloud', 'ven_dor']) {
    it(`rejects BLOCKYARD_MEDIA_VENDORS=${JSON.stringify(value)}`, () =>
      rejects({ BLOCKYARD_MEDIA_VENDORS: value }, 'BLOCKYARD_MEDIA_VENDORS'));
  }

  for (const [name, value] of [
    ['BLOCKYARD_BODY_LIMIT_BYTES', '1023'],
    ['BLOCKYARD_TOKEN_TTL_SECONDS', '0'],
    ['BLOCKYARD_TOKEN_TTL_SECONDS', '86401'],
    ['BLOCKYARD_RATE_LIMIT_MAX', '0'],
    ['BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS', 'ten'],
    ['BLOCKYARD_RUN_TIMEOUT_SECONDS', '0'],
    ['BLOCKYARD_RUN_LOG_MAX_BYTES', '1000'],
    ['BLOCKYARD_EVENT_RETENTION_DAYS', '0'],
    ['BLOCKYARD_EVENT_RETENTION_DAYS', 'a year'],
    ['BLOCKYARD_AUTH_FAILURES_PER_ADDRESS', '0'],
    ['BLOCKYARD_AUTH_FAILURES_PER_IDENTITY', 'many'],
    ['BLOCKYARD_AUTH_FAILURE_WINDOW_SECONDS', '0'],
    ['BLOCKYARD_TRUSTED_PROXIES', 'proxy.example'],
    ['BLOCKYARD_TRUSTED_PROXIES', '10.0.0.0/33'],
    ['BLOCKYARD_TRUSTED_PROXIES', '10.0.0.1,,10.0.0.2/8/1'],
    ['BLOCKYARD_DB_POOL_SIZE', '501'],
    ['BLOCKYARD_DB_TIMEOUT_MS', '99'],
    ['BLOCKYARD_HEADERS_TIMEOUT_SECONDS', '0'],
    ['BLOCKYARD_REQUEST_TIMEOUT_SECONDS', '3601'],
    ['BLOCKYARD_REQUEST_TIMEOUT_SECONDS', '2.5'],
    ['BLOCKYARD_IDLE_TIMEOUT_SECONDS', '0'],
    ['BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL', '0'],
    ['BLOCKYARD_EVENT_STREAM_HEARTBEAT_SECONDS', '301'],
    ['BLOCKYARD_EVENT_STREAM_BUFFER_BYTES', '1000'],
    ['BLOCKYARD_EVENT_POLL_SECONDS', '0'],
  ] as const) {
    it(`rejects ${name}=${value}`, () => rejects({ [name]: value }, name));
  }
  it('rejects a headers timeout longer than the request timeout, naming both', () => {
    rejects(
      { BLOCKYARD_HEADERS_TIMEOUT_SECONDS: '31' },
      'BLOCKYARD_HEADERS_TIMEOUT_SECONDS',
      /BLOCKYARD_REQUEST_TIMEOUT_SECONDS \(30\), got 31/,
    );
    rejects(
      { BLOCKYARD_HEADERS_TIMEOUT_SECONDS: '20', BLOCKYARD_REQUEST_TIMEOUT_SECONDS: '10' },
      'BLOCKYARD_HEADERS_TIMEOUT_SECONDS',
      /\(10\), got 20/,
    );
  });
});

describe('blockyard CLI', () => {
  it('exits with code 2 and one stderr line naming BLOCKYARD_PORT when the port is bad', async () => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !name.startsWith('BLOCKYARD_')) env[name] = value;
    }
    env.BLOCKYARD_PORT = 'abc';
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, s) => resolve([c, s]));
    });
    clearTimeout(timer);
    assert.equal(signal, null, 'the CLI should exit by itself');
    assert.equal(code, 2, `exit code; stderr: ${stderr}`);
    assert.equal(stdout, '');
    const lines = stderr.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, `expected one stderr line, got: ${stderr}`);
    assert.match(lines[0]!, /^blockyard: BLOCKYARD_PORT: /);
    assert.match(lines[0]!, /"abc"/);
  });
});
