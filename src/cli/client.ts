import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { readConfig, writeConfig, type CliConfig, type Credentials } from './config-file.js';
import { CliError } from './errors.js';

type Env = Record<string, string | undefined>;

/** Where the server is and how to trust it. */
export interface Connection {
  base: URL;
  ca?: string;
  insecure?: boolean;
}

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RequestOptions {
  accept?: string;
  contentType?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** Node's codes for a certificate the client does not trust. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** One line for a request that never got an answer: refused, unresolvable, untrusted. */
export function connectionMessage(error: NodeJS.ErrnoException, base: URL): string {
  const code = error.code ?? '';
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return `the certificate of ${base.origin} is not trusted (${code}): log in with the server's certificate or CA, a PEM file (tls/cert.pem in the server's data directory): \`blockyard login ${base.origin} --ca\` followed by its path (or --insecure for a throwaway server)`;
  }
  if (code === 'ECONNREFUSED') return `cannot connect to ${base.origin}: connection refused (is the server running, on this port?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve ${base.hostname}`;
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return `${base.origin} does not speak TLS (${code}): the server URL must be its https:// address`;
  return `cannot reach ${base.origin}: ${error.message}`;
}

/** The server's `message` of an error body, else the start of the body. */
export function messageOf(body: string): string {
  try {
    return (JSON.parse(body) as { message?: string }).message ?? body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

/**
 * One line for a refusal, saying what to do about it: log in again (401), ask for the permission
 * (403), check the name (404), wait (429, with the server's Retry-After).
 */
export function refusalMessage(what: string, answer: Answer): string {
  const message = messageOf(answer.body);
  switch (answer.status) {
    case 401:
      return `${what}: not authenticated (401): ${message}; run \`blockyard login\` again`;
    case 403:
      return `${what}: forbidden (403): ${message}; these credentials lack the permission`;
    case 404:
      return `${what}: not found (404): ${message}`;
    case 429: {
      const retryAfter = answer.headers['retry-after'];
      return `${what}: too many requests (429): ${message}; try again${retryAfter ? ` in ${String(retryAfter)} s` : ' later'}`;
    }
    default:
      return `${what} failed (${answer.status}): ${message}`;
  }
}

function send(url: URL, connection: Connection, method: string, headers: Record<string, string>, body?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers,
        ...(connection.ca === undefined ? {} : { ca: connection.ca }),
        ...(connection.insecure ? { rejectUnauthorized: false } : {}),
      },
      resolve,
    );
    req.on('error', (error: NodeJS.ErrnoException) => reject(new CliError(connectionMessage(error, connection.base))));
    req.end(body);
  });
}

export async function readBody(response: IncomingMessage): Promise<string> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk as string;
  return body;
}

/** Client credentials at /api/login (its JSON form): the token and how long it lives. */
export async function obtainToken(
  connection: Connection,
  clientId: string,
  clientSecret: string,
): Promise<{ accessToken: string; expiresAt: string }> {
  const response = await send(
    new URL('/api/login', connection.base),
    connection,
    'POST',
    { 'content-type': 'application/json', accept: 'application/json' },
    JSON.stringify({ clientId, clientSecret }),
  );
  const answer = { status: response.statusCode ?? 0, headers: response.headers, body: await readBody(response) };
  if (answer.status !== 200) throw new CliError(refusalMessage('login', answer));
  const { access_token: accessToken, expires_in: expiresIn } = JSON.parse(answer.body) as { access_token: string; expires_in: number };
  return { accessToken, expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() };
}

/** A token is renewed this long before it expires, so it does not expire on the way. */
const EXPIRY_MARGIN_MS = 10_000;

/**
 * The server as the logged-in user: every request carries the credentials (an API key's token,
 * obtained and renewed here, or an API user's Basic), and a 401 renews the token once.
 */
export class ServerClient {
  private token: CliConfig['token'];

  constructor(
    readonly connection: Connection,
    private readonly credentials: Credentials | { token: string },
    /** Keeps a renewed token (in the configuration file it came from). */
    private readonly keepToken: (token: NonNullable<CliConfig['token']>) => void = () => undefined,
    token?: CliConfig['token'],
  ) {
    this.token = token;
  }

  url(pathOrUrl: string): URL {
    return new URL(pathOrUrl, this.connection.base);
  }

  private async authorization(renew: boolean): Promise<string> {
    const credentials = this.credentials;
    if ('token' in credentials) return `Bearer ${credentials.token}`;
    if ('username' in credentials) return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    if (renew || this.token === undefined || Date.parse(this.token.expiresAt) - EXPIRY_MARGIN_MS < Date.now()) {
      this.token = await obtainToken(this.connection, credentials.clientId, credentials.clientSecret);
      this.keepToken(this.token);
    }
    return `Bearer ${this.token.accessToken}`;
  }

  /** Whether a 401 may be a token that expired: only an API key's token can be renewed. */
  get renewable(): boolean {
    return 'clientId' in this.credentials;
  }

  /** Sends the request; on a 401 with a renewable token, renews it and sends once more. The raw response. */
  async open(method: string, pathOrUrl: string, options: RequestOptions = {}, renew = false): Promise<IncomingMessage> {
    const headers: Record<string, string> = { ...options.headers, authorization: await this.authorization(renew) };
    if (options.accept) headers.accept = options.accept;
    if (options.contentType) headers['content-type'] = options.contentType;
    const response = await send(this.url(pathOrUrl), this.connection, method, headers, options.body);
    if (response.statusCode === 401 && this.renewable && !renew) {
      response.resume();
      return this.open(method, pathOrUrl, options, true);
    }
    return response;
  }

  async request(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<Answer> {
    const response = await this.open(method, pathOrUrl, options);
    return { status: response.statusCode ?? 0, headers: response.headers, body: await readBody(response) };
  }

  /** GETs JSON; anything but 200 is a CliError naming `what`. */
  async getJson<T>(pathOrUrl: string, accept: string, what: string): Promise<T> {
    const answer = await this.request('GET', pathOrUrl, { accept });
    if (answer.status !== 200) throw new CliError(refusalMessage(what, answer));
    return JSON.parse(answer.body) as T;
  }
}

/**
 * The client of the stored login (`configFile`), with the environment on top for scripts and CI:
 * `BLOCKYARD_URL` and `BLOCKYARD_CA_FILE` replace the server and its certificate;
 * `BLOCKYARD_CLIENT_ID` + `BLOCKYARD_CLIENT_SECRET`, `BLOCKYARD_USERNAME` + `BLOCKYARD_PASSWORD` or
 * `BLOCKYARD_TOKEN` replace the credentials.
 */
export function clientFrom(configFile: string, env: Env = process.env): ServerClient {
  const saved = readConfig(configFile);
  const url = env.BLOCKYARD_URL ?? saved?.server;
  if (url === undefined)
    throw new CliError(
      `not logged in (no ${configFile}): run \`blockyard login\` with the server's https:// address and an API key (--client-id, --client-secret) or an API user (--username, --password); \`blockyard login --help\` says more`,
    );
  const base = serverUrl(url);
  // The stored certificate and credentials belong to the stored server: never sent to another one.
  const stored = saved?.server === base.origin ? saved : undefined;
  const ca = env.BLOCKYARD_CA_FILE ? readCaFile(env.BLOCKYARD_CA_FILE, 'BLOCKYARD_CA_FILE') : stored?.ca;
  const connection: Connection = {
    base,
    ...(ca === undefined ? {} : { ca }),
    ...(stored?.insecure && !env.BLOCKYARD_CA_FILE ? { insecure: true } : {}),
  };
  const fromEnv: Credentials | { token: string } | undefined =
    env.BLOCKYARD_CLIENT_ID && env.BLOCKYARD_CLIENT_SECRET
      ? { clientId: env.BLOCKYARD_CLIENT_ID, clientSecret: env.BLOCKYARD_CLIENT_SECRET }
      : env.BLOCKYARD_USERNAME && env.BLOCKYARD_PASSWORD
        ? { username: env.BLOCKYARD_USERNAME, password: env.BLOCKYARD_PASSWORD }
        : env.BLOCKYARD_TOKEN
          ? { token: env.BLOCKYARD_TOKEN }
          : undefined;
  if (fromEnv) return new ServerClient(connection, fromEnv);
  if (!stored) {
    const login = saved
      ? `the login in ${configFile} is for ${saved.server}, not ${base.origin}: run \`blockyard login ${base.origin} …\``
      : 'run `blockyard login`';
    throw new CliError(
      `no credentials: ${login}, or set BLOCKYARD_CLIENT_ID and BLOCKYARD_CLIENT_SECRET (an API key), BLOCKYARD_USERNAME and BLOCKYARD_PASSWORD (an API user), or BLOCKYARD_TOKEN`,
    );
  }
  // Only a token of the stored key is kept in the stored file.
  const keep = (token: NonNullable<CliConfig['token']>) => writeConfig(configFile, { ...stored, token });
  return new ServerClient(connection, stored.credentials, keep, stored.token);
}

/** A PEM file to trust; `source` names where its path came from (`--ca`, `BLOCKYARD_CA_FILE`). */
export function readCaFile(file: string, source: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${source} ${file}: ${(error as Error).message}`);
  }
}

/** The server's base URL: https only (the server speaks nothing else), any path dropped. */
export function serverUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`not a URL: "${text}" (e.g. https://localhost:8443)`);
  }
  if (url.protocol !== 'https:') throw new CliError(`the server URL must be https://, got ${url.href}`);
  return new URL(url.origin);
}
