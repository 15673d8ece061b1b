import { createSecureContext } from 'node:tls';
import { Agent, request } from 'undici';
import { recordExchange } from './secrets.js';
import type { ServedOpenApi } from './served-openapi.js';

export interface Response {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RequestOptions {
  headers?: Record<string, string | undefined>;
  /** Objects are sent as JSON text; strings and buffers as they are. */
  body?: unknown;
  /** Send no Authorization header even when the client has default credentials. */
  anonymous?: boolean;
}

/** A real HTTPS client that trusts the test server's certificate and speaks to it over the network. */
export class ApiClient {
  readonly agent: Agent;
  /** The served OpenAPI document every answer is checked against (test/support/served-openapi.ts), once fetched. */
  openapi?: ServedOpenApi;

  constructor(
    readonly baseUrl: string,
    ca: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {
    // One TLS context for all its connections: given `ca` instead, every connection parses the
    // certificate again (undici closes the connection after each HEAD, so suites open thousands).
    this.agent = new Agent({ connect: { secureContext: createSecureContext({ ca }) }, keepAliveTimeout: 10_000 });
  }

  /** The same connection pool with other default headers (e.g. another credential). */
  with(headers: Record<string, string>): ApiClient {
    const client = Object.create(ApiClient.prototype) as ApiClient;
    Object.assign(client, this, { defaultHeaders: { ...this.defaultHeaders, ...headers } });
    return client;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.defaultHeaders };
    if (options.anonymous) delete headers.authorization;
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      if (value === undefined) delete headers[key.toLowerCase()];
      else headers[key.toLowerCase()] = value;
    }
    const body =
      options.body === undefined || typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
    const url = path.startsWith('https://') ? path : `${this.baseUrl}${path}`;
    const response = await request(url, {
      method: method as 'GET',
      headers,
      body: body as string | Buffer | undefined,
      dispatcher: this.agent,
    });
    const text = await response.body.text();
    recordExchange(path, typeof body === 'string' ? body : undefined, text);
    const problem = this.openapi?.check(method, url, response.statusCode, headerValue(response.headers['content-type']), text);
    if (problem) throw new Error(problem);
    const flat: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) flat[key] = Array.isArray(value) ? value.join(', ') : String(value);
    return {
      status: response.statusCode,
      headers: flat,
      text,
      get json() {
        return JSON.parse(text);
      },
    };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }
  post(path: string, body: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, body });
  }
  put(path: string, body: unknown, options: RequestOptions = {}) {
    return this.request('PUT', path, { ...options, body });
  }
  patch(path: string, body: unknown, options: RequestOptions = {}) {
    return this.request('PATCH', path, { ...options, body });
  }
  delete(path: string, options?: RequestOptions) {
    return this.request('DELETE', path, options);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `application/vnd.vendor.api.<kind>.<version>.hal+json` */
export const media = (kind: string, version: string, vendor = 'vendor') =>
  kind === '' ? `application/vnd.${vendor}.api.${version}.hal+json` : `application/vnd.${vendor}.api.${kind}.${version}.hal+json`;
