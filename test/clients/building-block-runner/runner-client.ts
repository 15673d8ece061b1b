/**
 * The runners' HTTP client replayed (go-meshapi-client/meshapi/client.go and auth.go at the pinned
 * commit), request by request:
 * - every request (`setHeaders`): `Authorization` from the auth provider, `Accept` and `Content-Type`
 *   the run v1 media type under the meshcloud vendor (a body-less POST too), `X-Block-Runner-Node-Id`,
 *   `User-Agent: meshcloud-<name>/<version>`, `X-Meshcloud-Runner-Name` and `-Version`;
 * - `fetchRun(runner)`: `POST …/meshbuildingblockruns/create?forRunnerUuid=<runner>` without a body;
 *   200 or 201 is a run (decoded as `meshapi.RunDetailsDTO`, which must carry a uuid), anything else
 *   a `StatusError` (204: no run waiting);
 * - `registerSource(run, registration)`: POST `…/{run}/status/source`; 409 counts as success;
 * - `patchStatus(run, source, payload)`: PATCH `…/{run}/status/source/{source}`, any 2xx; the body is
 *   returned (the Terraform runner decodes `RunUpdateResponseDTO`);
 * - auth: `ApiKeyAuth` logs in with `POST /api/login`, JSON `{"clientId","clientSecret"}` (Accept and
 *   Content-Type `application/json`), needs exactly 200 and a non-empty `access_token`, and keeps the
 *   token until `expires_in` − 30 s; `BasicAuth`; the Terraform runner's `runApiAuth` sends the run
 *   token (Bearer) once a claim gave one.
 * - the run controller's own registration (run-controller/controller/registration.go, not through the
 *   shared client): `PUT …/meshbuildingblockrunners/{uuid}` with Authorization, Accept and Content-Type
 *   the runner v1-preview media type; 404 means "create it first", anything but 200 fails.
 * Bodies are what Go's `json.Marshal` writes for the DTOs: fields in declaration order, no trailing
 * newline. Every exchange is kept for header checks and handed to the suites' secret check.
 */
import { Agent, request } from 'undici';
import { recordExchange } from '../../support/secrets.js';
import { decodeGo, go } from '../terraform-provider/go-json.js';
import { RunDetails, type RunDetailsValue } from './dtos.js';

export const RUN_MEDIA_TYPE = 'application/vnd.meshcloud.api.meshbuildingblockrun.v1.hal+json';
export const RUNNER_MEDIA_TYPE = 'application/vnd.meshcloud.api.meshbuildingblockrunner.v1-preview.hal+json';

export interface AuthProvider {
  authHeader(): Promise<string>;
}

export class StatusError extends Error {
  constructor(readonly status: number) {
    super(`unexpected HTTP status: ${status}`);
  }
}

export interface RunnerExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseText: string;
}

const LoginResponse = go.struct('meshapi.apiKeyLoginResponse', { access_token: go.string, expires_in: go.int });

/** Connections that trust the test server's certificate (Go's http.Client with the server's CA). */
export class RunnerTransport {
  readonly exchanges: RunnerExchange[] = [];
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    ca: string,
  ) {
    this.agent = new Agent({ connect: { ca } });
  }

  async send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
    const response = await request(url, { method: method as 'GET', headers: { 'accept-encoding': 'gzip', ...headers }, ...(body === undefined ? {} : { body }), dispatcher: this.agent });
    const text = await response.body.text();
    this.exchanges.push({ method, url, requestHeaders: headers, ...(body === undefined ? {} : { requestBody: body }), status: response.statusCode, responseText: text });
    recordExchange(new URL(url).pathname, body, text);
    return { status: response.statusCode, text };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export const basicAuth = (username: string, password: string): AuthProvider => ({
  authHeader: async () => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});

/** `meshapi.ApiKeyAuth`; a failed login is logged and sends an empty Authorization, as the Go client does. */
export function apiKeyAuth(transport: RunnerTransport, clientId: string, clientSecret: string): AuthProvider & { failures: string[] } {
  let token = '';
  let expiresAt = 0;
  const failures: string[] = [];
  return {
    failures,
    async authHeader() {
      if (Date.now() < expiresAt && token !== '') return `Bearer ${token}`;
      const answer = await transport.send('POST', `${transport.baseUrl}/api/login`, { 'content-type': 'application/json', accept: 'application/json' }, JSON.stringify({ clientId, clientSecret }));
      if (answer.status !== 200) {
        failures.push(`login returned HTTP ${answer.status}: ${answer.text}`);
        return '';
      }
      const login = decodeGo<{ access_token: string; expires_in: number }>(LoginResponse, answer.text);
      if (login.access_token === '') {
        failures.push('login response contained empty access_token');
        return '';
      }
      token = login.access_token;
      expiresAt = Date.now() + Math.max(login.expires_in * 1000 - 30_000, 1000);
      return `Bearer ${token}`;
    },
  };
}

/** The Terraform runner's `runApiAuth`: the run token once a claim gave one, the configured auth before. */
export function runApiAuth(base: AuthProvider): AuthProvider & { setRunToken(token: string): void; clearRunToken(): void } {
  let runToken = '';
  return {
    authHeader: () => (runToken !== '' ? Promise.resolve(`Bearer ${runToken}`) : base.authHeader()),
    setRunToken: (token) => (runToken = token),
    clearRunToken: () => (runToken = ''),
  };
}

/** `meshapi.Client`. */
export class RunnerClient {
  constructor(
    private readonly transport: RunnerTransport,
    private readonly nodeId: string,
    private readonly auth: AuthProvider,
    private readonly identity = { name: 'tf-block-runner', version: '1.0.0-555405d' },
  ) {}

  private async headers(): Promise<Record<string, string>> {
    return {
      authorization: await this.auth.authHeader(),
      accept: RUN_MEDIA_TYPE,
      'content-type': RUN_MEDIA_TYPE,
      'x-block-runner-node-id': this.nodeId,
      'user-agent': `meshcloud-${this.identity.name}/${this.identity.version}`,
      'x-meshcloud-runner-name': this.identity.name,
      'x-meshcloud-runner-version': this.identity.version,
    };
  }

  private runs(): string {
    return `${this.transport.baseUrl}/api/meshobjects/meshbuildingblockruns`;
  }

  /** The decoded run and its raw text (which the run controller hands on base64-encoded). */
  async fetchRun(runnerUuid: string): Promise<{ dto: RunDetailsValue; raw: string }> {
    const answer = await this.transport.send('POST', `${this.runs()}/create?forRunnerUuid=${runnerUuid}`, await this.headers());
    if (answer.status !== 200 && answer.status !== 201) throw new StatusError(answer.status);
    let dto: RunDetailsValue;
    try {
      dto = decodeGo<RunDetailsValue>(RunDetails, answer.text);
    } catch (error) {
      throw new Error(`failed to parse run JSON: ${(error as Error).message}`);
    }
    if (dto.metadata.uuid === '') throw new Error('fetched run has no UUID');
    return { dto, raw: answer.text };
  }

  async registerSource(runId: string, registration: unknown): Promise<void> {
    const answer = await this.transport.send('POST', `${this.runs()}/${runId}/status/source`, await this.headers(), JSON.stringify(registration));
    if (answer.status === 409) return;
    if (answer.status < 200 || answer.status >= 300) throw new Error(`register source returned HTTP ${answer.status}: ${answer.text}`);
  }

  async patchStatus(runId: string, sourceId: string, payload: unknown): Promise<string> {
    const answer = await this.transport.send('PATCH', `${this.runs()}/${runId}/status/source/${sourceId}`, await this.headers(), JSON.stringify(payload));
    if (answer.status < 200 || answer.status >= 300) throw new Error(`patch status returned HTTP ${answer.status}: ${answer.text}`);
    return answer.text;
  }
}

interface WifTarget {
  audience: string;
  tokenPath: string;
}

/** `meshapi.MeshBuildingBlockRunnerDTO`, as the controller sends it. */
export interface ControllerRegistration {
  apiVersion: string;
  kind: string;
  metadata: { uuid: string; ownedByWorkspace: string };
  spec: {
    displayName: string;
    publicKey: string;
    implementationType: string;
    workloadIdentityFederation?: { issuer: string; subject: string; gcp?: WifTarget; aws?: WifTarget; azure?: WifTarget };
  };
}

/** `RegistrationApiClient.RegisterController`: the controller updates its existing registration. */
export async function registerController(transport: RunnerTransport, auth: AuthProvider, registration: ControllerRegistration): Promise<void> {
  const headers = { authorization: await auth.authHeader(), 'content-type': RUNNER_MEDIA_TYPE, accept: RUNNER_MEDIA_TYPE };
  const answer = await transport.send('PUT', `${transport.baseUrl}/api/meshobjects/meshbuildingblockrunners/${registration.metadata.uuid}`, headers, JSON.stringify(registration));
  if (answer.status === 404) throw new Error(`controller ${registration.metadata.uuid} not found: create it before starting the run-controller`);
  if (answer.status !== 200) throw new Error(`PUT failed with status ${answer.status}: ${answer.text}`);
}
