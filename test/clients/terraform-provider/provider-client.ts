/**
 * The provider's HTTP client replayed (client/internal/*.go, client/client.go, client/mesh_info.go):
 * what it sends, byte for byte where it matters, and what it accepts back.
 *
 * - `ProviderClient.connect(target, auth)` does what `client.New` does: `GET /mesh/info` without
 *   credentials or Accept, decoded as `client.MeshInfo`, and refuses a version below
 *   MIN_MESH_VERSION (unless `skipVersionCheck`, MESHSTACK_SKIP_VERSION_CHECK).
 * - Authorization (auth.go): an API key logs in with `POST /api/login`, JSON
 *   `{"clientId","clientSecret"}` (Accept and Content-Type `application/json`), reads only
 *   `access_token` (string) and `expires_in` (int), and logs in again when under 30 s remain; never
 *   on a 401. A token is sent as it is (`Bearer`).
 * - Every request (http_client.go) carries the User-Agent; Go's http.Client adds
 *   `Accept-Encoding: gzip` and follows redirects (307/308 keep method and body; 301/302/303 turn a
 *   POST into a body-less GET). A body is `json.Encoder` output: HTML characters escaped, a trailing
 *   newline. A 2xx with an empty body is an error unless the call expects no result; any other
 *   status is an `HttpError` (`http error <code>, response '<body>'`).
 * - Retries (retry.go, client.go): GET, PUT, DELETE and the login POST, on network errors,
 *   429/503 (Retry-After, at most 5 minutes) and 502/504, up to 12 times with 1, 2, 4, … 30 s.
 * - `objects(kind, version, type)` is a `MeshObjectClient` (mesh_object_client.go): the path
 *   `/api/meshobjects/<lower-case kind>s`, media type `application/vnd.meshcloud.api.<kind>.<version>.hal+json`
 *   as Accept (and Content-Type with a body); POST and PUT bodies get `apiVersion` and `kind`
 *   injected after a round trip through `map[string]any`, so every object's keys are sorted; `get`
 *   answers null on 404; `list` pages with `page=0,1,…` (no size) until
 *   `page.number >= page.totalPages - 1` and fails when `_embedded.<kind>s` is missing; `delete`
 *   sends the media type as Accept.
 * - `doAuthorizedRequest(method, url, type, options)` / `doRequest` for the calls outside a
 *   MeshObjectClient (trigger-run, run logs); `type` undefined is `DoRequest[any]`.
 * Every exchange is kept in `exchanges` (for header checks) and handed to the suites' secret check.
 *
 * The types of client/types and client/refs.go live here too, for every struct to use: `Secret`,
 * `SecretOrAny` (the Variant: `{X: secret, Y: any}`), `sensitiveInput` (the UnmarshalJSON of inputs
 * with SecretOrAny values), `UuidRef`, `NamedRef`.
 *
 * `describeProvider(title, body)` declares a suite per database whose server has the admin API key
 * PROVIDER_KEY, with `provider` connected as the provider would be (`MESHSTACK_API_KEY` and
 * `MESHSTACK_API_SECRET`); `connectProvider(server, auth)` connects another one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { recordExchange } from '../../support/secrets.js';
import { describeEachDatabase, type TestServer } from '../../support/server.js';
import { decodeGo, go, isZeroGo, tryDecodeGo, type GoFields, type GoType } from './go-json.js';
import { MIN_MESH_VERSION, USER_AGENT } from './pin.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly responseBody: string,
  ) {
    super(`http error ${statusCode}, response '${responseBody}'`);
  }
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
}

export type Auth = { clientId: string; clientSecret: string } | { token: string };

export interface RequestOptions {
  accept?: string;
  /** A JSON payload with its media type (sent as Content-Type and Accept, as withPayload does). */
  payload?: { body: unknown; contentType: string; sortKeys?: boolean };
  /** WithUrlQuery of a map: every non-nil value sent as `%v`. */
  query?: Record<string, unknown>;
  pathElems?: string[];
}

/** client.MeshInfo */
export const MeshInfoType = go.struct('client.MeshInfo', {
  version: go.string,
  is4EPEnabled: go.bool,
  metadata: go.map(go.string),
  adminWorkspaceIdentifier: go.string,
});
export interface MeshInfo {
  version: string;
  is4EPEnabled: boolean;
  metadata: Record<string, string> | null;
  adminWorkspaceIdentifier: string;
}

/** The admin API key the suites' servers are started with, the provider's MESHSTACK_API_KEY / _SECRET. */
export const PROVIDER_KEY = { clientId: 'terraform-provider-admin', clientSecret: 'tfProviderSecret0123456789abcdef' };
const PROVIDER_KEY_ENV = { BLOCKYARD_ADMIN_CLIENT_ID: PROVIDER_KEY.clientId, BLOCKYARD_ADMIN_CLIENT_SECRET: PROVIDER_KEY.clientSecret };

/** A provider client for a test server, trusting its certificate. */
export async function connectProvider(server: TestServer, auth: Auth = PROVIDER_KEY, options: { skipVersionCheck?: boolean } = {}): Promise<ProviderClient> {
  const ca = await readFile(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8');
  return ProviderClient.connect({ url: server.url, ca }, auth, options);
}

/** describeEachDatabase with the provider's admin key and a connected provider client. */
export function describeProvider(title: string, body: (ctx: { readonly server: TestServer; readonly provider: ProviderClient }) => void): void {
  describeEachDatabase(
    `Terraform provider: ${title}`,
    (ctx) => {
      let provider: ProviderClient | undefined;
      before(async () => {
        provider = await connectProvider(ctx.server);
      });
      after(() => provider?.close());
      body({
        get server() {
          return ctx.server;
        },
        get provider() {
          return provider!;
        },
      });
    },
    PROVIDER_KEY_ENV,
  );
}

const LOGIN_PATH = '/api/login';
const MAX_RETRIES = 12;
const MAX_REDIRECTS = 10;

/** version.Parse: three non-negative integers (strconv.Atoi), compared part by part. */
export function parseMeshVersion(text: string): [number, number, number] {
  const parts = text.split('.');
  if (parts.length !== 3) throw new Error(`cannot parse '${text}' as version: expected 3, got ${parts.length} fields separated by '.'`);
  const numbers = parts.map((part, i) => {
    if (!/^[+-]?\d+$/.test(part) || Number(part) < 0) throw new Error(`cannot parse '${text}' as version: part i=${i}: invalid '${part}'`);
    return Number(part);
  });
  return numbers as [number, number, number];
}

const compareVersions = (a: number[], b: number[]) => a.map((part, i) => part - b[i]!).find((d) => d !== 0) ?? 0;

/** json.Encoder: `<`, `>`, `&`, U+2028 and U+2029 escaped, a newline at the end. */
export function goJsonEncode(value: unknown, sortKeys: boolean): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((key) => [key, sorted((v as Record<string, unknown>)[key])]));
    return v;
  };
  const text = JSON.stringify(sortKeys ? sorted(value) : value);
  return `${text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** url.JoinPath: elements appended with single slashes. */
function joinPath(base: URL, ...elems: string[]): URL {
  const url = new URL(base);
  const path = [url.pathname.replace(/\/+$/, ''), ...elems.map((e) => e.split('/').filter(Boolean).map(encodeURIComponent).join('/'))].join('/');
  url.pathname = path.replace(/\/{2,}/g, '/');
  return url;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ProviderClient {
  readonly exchanges: Exchange[] = [];
  private token: string | undefined;
  private expiresAt = 0;

  private constructor(
    readonly rootUrl: URL,
    private readonly agent: Agent,
    private readonly auth: Auth,
  ) {
    if ('token' in auth) this.token = auth.token;
  }

  /** client.New: the version check, then a ready client. */
  static async connect(target: { url: string; ca: string }, auth: Auth, options: { skipVersionCheck?: boolean } = {}): Promise<ProviderClient> {
    const client = new ProviderClient(new URL(target.url), new Agent({ connect: { ca: target.ca } }), auth);
    if (!options.skipVersionCheck) {
      const info = await client.meshInfo();
      let version: [number, number, number];
      try {
        version = parseMeshVersion(info.version);
      } catch (error) {
        throw new Error(`failed to parse meshStack version "${info.version}": ${(error as Error).message}`);
      }
      const min = parseMeshVersion(MIN_MESH_VERSION);
      if (compareVersions(version, min) < 0) throw new Error(`unsupported meshStack version: meshStack is running version ${version.join('.')}, but this client requires version ${MIN_MESH_VERSION} or higher`);
    }
    return client;
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** meshInfoClient.Read */
  async meshInfo(): Promise<MeshInfo> {
    const url = joinPath(this.rootUrl, '/mesh/info');
    try {
      return await this.doRequest<MeshInfo>('GET', url, MeshInfoType, {});
    } catch (error) {
      throw new Error(`failed to retrieve meshStack instance information from ${url} endpoint: ${(error as Error).message}`);
    }
  }

  /** NewMeshObjectClient: the kind's path is its lower-cased plural unless given. */
  objects<M>(kind: string, apiVersion: string, type: GoType, ...explicitPathElems: string[]): MeshObjectClient<M> {
    const elems = explicitPathElems.length > 0 ? explicitPathElems : [`${kind}s`.toLowerCase()];
    return new MeshObjectClient<M>(this, kind, apiVersion, type, joinPath(this.rootUrl, '/api/meshobjects', ...elems));
  }

  /** DoAuthorizedRequest: the Authorization header (logging in first when needed), then DoRequest. */
  async doAuthorizedRequest<R>(method: string, url: URL, type: GoType | undefined, options: RequestOptions): Promise<R> {
    return this.doRequest<R>(method, url, type, options, await this.authorizationHeader());
  }

  private async authorizationHeader(): Promise<string> {
    if ('clientId' in this.auth && (this.token === undefined || this.expiresAt - Date.now() <= 30_000)) {
      const url = joinPath(this.rootUrl, LOGIN_PATH);
      const LoginResponse = go.struct('internal.loginResponse', { access_token: go.string, expires_in: go.int });
      let answer: { access_token: string; expires_in: number };
      try {
        answer = await this.doRequest('POST', url, LoginResponse, { payload: { body: { clientId: this.auth.clientId, clientSecret: this.auth.clientSecret }, contentType: 'application/json' } });
      } catch (error) {
        throw new Error(`login at ${url} with client id '${this.auth.clientId}' failed: ${(error as Error).message}`);
      }
      this.token = answer.access_token;
      this.expiresAt = Date.now() + answer.expires_in * 1000;
    }
    return `Bearer ${this.token}`;
  }

  /** DoRequest: `type` undefined is `DoRequest[any]`, which accepts an empty body. */
  async doRequest<R>(method: string, url: URL, type: GoType | undefined, options: RequestOptions, authorization?: string): Promise<R> {
    const target = new URL(url);
    if (options.pathElems?.length) target.pathname = joinPath(target, ...options.pathElems).pathname;
    if (options.query) {
      const params = new URLSearchParams(target.search);
      for (const [key, value] of Object.entries(options.query)) {
        if (value === null || value === undefined) continue;
        params.set(key, String(value));
      }
      params.sort();
      target.search = params.toString();
    }
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, 'accept-encoding': 'gzip' };
    let body: string | undefined;
    if (options.payload) {
      body = goJsonEncode(options.payload.body, options.payload.sortKeys ?? false);
      headers.accept = options.payload.contentType;
      headers['content-type'] = options.payload.contentType;
    }
    if (options.accept) headers.accept = options.accept;
    if (authorization) headers.authorization = authorization;

    const { status, text } = await this.send(method, target, headers, body);
    if (status < 200 || status > 299) throw new HttpError(status, text);
    if (text.length === 0) {
      if (type === undefined) return undefined as R;
      throw new Error(`unexpected empty response body from ${method} ${target}`);
    }
    return (type === undefined ? JSON.parse(text) : decodeGo(type, text)) as R;
  }

  /** http.Client.Do through the retrying round tripper, following redirects as Go does. */
  private async send(method: string, url: URL, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
    let current = { method, url, body };
    for (let redirects = 0; ; redirects++) {
      const response = await this.roundTripWithRetries(current.method, current.url, headers, current.body);
      const location = response.headers.location;
      if (![301, 302, 303, 307, 308].includes(response.status) || !location) return response;
      if (redirects >= MAX_REDIRECTS) throw new Error(`${method} "${url}": stopped after 10 redirects`);
      const next = new URL(location, current.url);
      if ([307, 308].includes(response.status)) current = { ...current, url: next };
      else current = { method: current.method === 'HEAD' ? 'HEAD' : 'GET', url: next, body: undefined };
      if (current.body === undefined) delete headers['content-type'];
      if (next.host !== url.host) delete headers.authorization;
    }
  }

  private retryable(method: string, url: URL): boolean {
    return ['GET', 'PUT', 'DELETE'].includes(method) || (method === 'POST' && url.toString() === joinPath(this.rootUrl, LOGIN_PATH).toString());
  }

  private async roundTripWithRetries(method: string, url: URL, headers: Record<string, string>, body: string | undefined) {
    for (let attempt = 1; ; attempt++) {
      let response: { status: number; text: string; headers: Record<string, string> } | undefined;
      let failure: unknown;
      try {
        response = await this.roundTrip(method, url, headers, body);
      } catch (error) {
        failure = error;
      }
      const backoff = (n: number) => Math.min(2 ** (n - 1), 30) * 1000;
      let wait: number | undefined;
      if (failure !== undefined) wait = backoff(attempt);
      else if (response!.status === 429 || response!.status === 503) {
        const header = response!.headers['retry-after'];
        const seconds = header !== undefined && /^\d+$/.test(header) ? Number(header) * 1000 : header ? Date.parse(header) - Date.now() : NaN;
        wait = Number.isNaN(seconds) || seconds < 0 ? backoff(attempt) : Math.min(seconds, 5 * 60_000);
      } else if (response!.status === 502 || response!.status === 504) wait = backoff(attempt);
      if (wait === undefined || !this.retryable(method, url) || attempt > MAX_RETRIES) {
        if (failure !== undefined) throw failure;
        return response!;
      }
      await sleep(wait);
    }
  }

  private async roundTrip(method: string, url: URL, headers: Record<string, string>, body: string | undefined) {
    const response = await request(url, { method: method as 'GET', headers: { ...headers }, body, dispatcher: this.agent });
    let buffer = Buffer.from(await response.body.arrayBuffer());
    const responseHeaders: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) responseHeaders[key] = Array.isArray(value) ? value.join(', ') : String(value);
    if (responseHeaders['content-encoding'] === 'gzip') buffer = gunzipSync(buffer);
    const text = buffer.toString('utf8');
    const exchange: Exchange = { method, url: url.toString(), requestHeaders: { ...headers }, requestBody: body, status: response.statusCode, responseHeaders, responseText: text };
    this.exchanges.push(exchange);
    recordExchange(`${url.pathname}${url.search}`, body, text);
    return { status: response.statusCode, text, headers: responseHeaders };
  }
}

/** internal.MeshObjectClient[M] */
export class MeshObjectClient<M> {
  readonly mimeType: string;
  private readonly pageType: GoType;

  constructor(
    readonly client: ProviderClient,
    readonly kind: string,
    readonly apiVersion: string,
    readonly type: GoType,
    readonly apiUrl: URL,
  ) {
    this.mimeType = `application/vnd.meshcloud.api.${kind}.${apiVersion}.hal+json`;
    this.pageType = go.struct('internal.paginatedResponse', {
      _embedded: go.map(go.slice(type)),
      page: go.struct({ totalPages: go.int, number: go.int }),
    });
  }

  url(...elems: string[]): URL {
    return joinPath(this.apiUrl, ...elems);
  }

  /** Get: a 404 is "gone" (null); any other failure is an error. */
  async get(id: string): Promise<M | null> {
    try {
      return await this.client.doAuthorizedRequest<M>('GET', this.url(id), this.type, { accept: this.mimeType });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /** The payload as withMeshObjectPayload sends it: apiVersion and kind injected, keys sorted. */
  payload(body: unknown): RequestOptions['payload'] {
    return { body: { ...(body as Record<string, unknown>), apiVersion: this.apiVersion, kind: this.kind }, contentType: this.mimeType, sortKeys: true };
  }

  post(body: unknown, options: RequestOptions = {}): Promise<M> {
    return this.client.doAuthorizedRequest<M>('POST', this.apiUrl, this.type, { ...options, payload: this.payload(body) });
  }

  put(id: string, body: unknown): Promise<M> {
    return this.client.doAuthorizedRequest<M>('PUT', this.url(id), this.type, { payload: this.payload(body) });
  }

  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.client.doAuthorizedRequest<unknown>('DELETE', this.url(id), undefined, { ...options, accept: this.mimeType });
  }

  /** List: every page from 0, filters as a struct (zero values left out). */
  async list(filter: Record<string, unknown> = {}): Promise<M[]> {
    const result: M[] = [];
    const key = `${this.kind}s`;
    for (let page = 0; ; page++) {
      let response: { _embedded: Record<string, M[] | null> | null; page: { totalPages: number; number: number } };
      try {
        response = await this.client.doAuthorizedRequest('GET', this.apiUrl, this.pageType, { accept: this.mimeType, query: { ...withoutZero(filter), page } });
      } catch (error) {
        throw new Error(`error getting page ${page}: ${(error as Error).message}`);
      }
      if (!response._embedded || !Object.hasOwn(response._embedded, key)) throw new Error(`embedded key ${key} not found in paginated response`);
      result.push(...(response._embedded[key] ?? []));
      if (response.page.number >= response.page.totalPages - 1) return result;
    }
  }
}

/** WithUrlQuery of a struct passed by value: zero-value fields are not sent. */
const withoutZero = (filter: Record<string, unknown>) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== null && v !== undefined && v !== '' && v !== 0 && v !== false));

// client/types (clienttypes.go, variant/variant.go) and client/refs.go: shared by many structs.

/** types.Secret: `{plaintext}` sent, `{hash}` answered. */
export const Secret = go.struct('types.Secret', { plaintext: go.ptr(go.string), hash: go.ptr(go.string) });
export interface SecretValue {
  plaintext: string | null;
  hash: string | null;
}

/** variant.Variant[types.Secret, any] (types.SecretOrAny) as decoded: X the secret, Y anything else. */
export interface SecretOrAnyValue {
  X: SecretValue;
  Y: unknown;
}
const zeroSecret = (): SecretValue => ({ plaintext: null, hash: null });

/** Variant.UnmarshalJSON: both decodes are tried; X (a non-zero secret) wins over Y (any non-nil value). */
export const SecretOrAny = go.custom(
  'variant.Variant[types.Secret,interface {}]',
  (text) => {
    const x = tryDecodeGo<SecretValue>(Secret, text);
    const y = tryDecodeGo<unknown>(go.any, text);
    const hasX = !isZeroGo(Secret, x.value);
    const hasY = y.value !== null;
    if (hasX) {
      if (x.error) throw x.error;
      return { X: x.value, Y: null };
    }
    if (hasY) {
      if (y.error) throw y.error;
      return { X: zeroSecret(), Y: y.value };
    }
    if (text.trim() === 'null') return { X: zeroSecret(), Y: null };
    throw new Error([`variant[types.Secret, <nil>]: cannot unmarshal '${text}' to any field`, x.error?.message, y.error?.message].filter(Boolean).join('\n'));
  },
  () => ({ X: zeroSecret(), Y: null }),
  (value) => isZeroGo(Secret, (value as SecretOrAnyValue).X) && (value as SecretOrAnyValue).Y === null,
);

/**
 * The UnmarshalJSON of an input with SecretOrAny fields (MeshBuildingBlockDefinitionInput,
 * MeshBuildingBlockInput): when `isSensitive` is false a secret-shaped value moves to Y as a map;
 * when true, a Y value is an error.
 */
export function sensitiveInput(name: string, fields: GoFields, variantFields: readonly string[]): GoType {
  const wrapped = go.struct(`${name.slice(0, name.lastIndexOf('.') + 1)}wrapped`, fields);
  return go.custom(
    name,
    (text) => {
      const value = decodeGo<Record<string, unknown>>(wrapped, text);
      for (const field of variantFields) {
        const variant = value[field] as SecretOrAnyValue;
        if (!value.isSensitive && !isZeroGo(Secret, variant.X)) {
          // json.Marshal of the Secret (omitempty fields), decoded again into any.
          value[field] = { X: zeroSecret(), Y: Object.fromEntries(Object.entries(variant.X).filter(([, v]) => v !== null)) };
        } else if (value.isSensitive && variant.Y !== null) throw new Error('got sensitive argument or default_value but variant Y is set instead');
      }
      return value;
    },
    () => wrapped.zero(),
    (value) => wrapped.isZero(value),
  );
}

export const UuidRef = go.struct('client.UuidRef', { uuid: go.string, kind: go.string });
export const NamedRef = go.struct('client.NamedRef', { name: go.string, kind: go.string });
export interface UuidRefValue {
  uuid: string;
  kind: string;
}
