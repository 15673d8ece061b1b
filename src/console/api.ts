/**
 * The console's only way to the server: the public API with the signed-in caller's credentials. The
 * access token (or the API user's Basic credentials) lives in this object only: never in a URL or in
 * browser storage; signing out forgets it. A person signed in with single sign-on has no credential
 * here at all: the browser sends the session's HttpOnly cookie, which survives reloads and tabs.
 */

const media = (kind: string, version: string) => `application/vnd.vendor.api.${kind}.${version}.hal+json`;

/** The representation the console reads and writes of each kind. */
export const MEDIA = {
  index: 'application/vnd.vendor.api.v1.hal+json',
  objects: 'application/vnd.vendor.api.meshobjects.v2.hal+json',
  definition: media('meshbuildingblockdefinition', 'v1-preview'),
  version: media('meshbuildingblockdefinitionversion', 'v1-preview'),
  block: media('meshbuildingblock', 'v2-preview'),
  run: media('meshbuildingblockrun', 'v1'),
  runner: media('meshbuildingblockrunner', 'v1-preview'),
  tenant: media('meshtenant', 'v4'),
  workspace: media('meshworkspace', 'v2'),
  project: media('meshproject', 'v2'),
  apiKey: media('meshapikey', 'v1-preview'),
  event: media('mesheventlog', 'v1-preview'),
} as const;

export const PATHS = {
  definitions: '/api/meshobjects/meshbuildingblockdefinitions',
  versions: '/api/meshobjects/meshbuildingblockdefinitionversions',
  blocks: '/api/meshobjects/meshbuildingblocks',
  runs: '/api/meshobjects/meshbuildingblockruns',
  runners: '/api/meshobjects/meshbuildingblockrunners',
  tenants: '/api/meshobjects/meshtenants',
  workspaces: '/api/meshobjects/meshworkspaces',
  projects: '/api/meshobjects/meshprojects',
  apiKeys: '/api/meshobjects/meshapikeys',
  events: '/api/meshobjects/mesheventlogs',
} as const;

/** An answer other than 2xx, with the server's message (`{message, errorCode}`) in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode?: string,
  ) {
    super(message);
  }
}

export type Credentials =
  { type: 'apiKey'; clientId: string; clientSecret: string } | { type: 'apiUser'; username: string; password: string };

/** Who is signed in, as far as the API tells it: a key's own record needs APIKEY_LIST. */
export interface Identity {
  /** `person`: a meshUser signed in with single sign-on. */
  type: Credentials['type'] | 'person';
  name: string;
  /** The key's (or the person's current) workspace; undefined for API users (they act in every workspace) or when unknown. */
  workspace?: string;
  /** A person's workspaces (those it holds a role binding in): it may switch between them. */
  workspaces?: string[];
  /** The key's permission codes; undefined when the key may not read itself. */
  permissions?: string[];
  /** API users and keys holding `ADM_` codes. */
  admin: boolean;
}

export interface Page<T> {
  items: T[];
  page: { size: number; totalElements: number; totalPages: number; number: number };
}

/** An API object as the server sends it (HAL+JSON); the pages read the fields they show. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- shapes are the API's, documented there
export type Json = Record<string, any>;
type FetchFn = typeof fetch;

interface RequestOptions {
  accept?: string;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
}

/** Refresh this long before the token expires, so a request never carries an expired one. */
const REFRESH_MARGIN_S = 30;

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: string; errorCode?: string };
    if (typeof body.message === 'string') return new ApiError(response.status, body.message, body.errorCode);
  } catch {
    // not the error format: the status says enough
  }
  return new ApiError(response.status, `the server answered ${response.status} ${response.statusText}`.trim());
}

/** `GET /auth/session`: whether single sign-on is configured, and the person the cookie signs in. */
interface SessionState {
  oidc: boolean;
  session: { username: string; workspace: string | null; workspaces: string[]; permissions: string[]; admin: boolean } | null;
}

/** Where single sign-on starts (the server redirects to the identity provider). */
export const SINGLE_SIGN_ON_URL = '/auth/oidc/login';

export class Session {
  private token: { value: string; expiresAt: number } | undefined;
  private refreshing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private signedOut = false;
  /** Signed in with single sign-on: the session cookie is the credential. */
  private person = false;
  identity!: Identity;
  /**
   * The relations (e.g. `meshbuildingblocks`) the caller may use, as the meshObjects index lists
   * them: the server's one rule for links, so the console offers only what will not answer 403.
   */
  relations: ReadonlySet<string> = new Set();

  private constructor(
    private credentials: Credentials | undefined,
    private readonly fetchFn: FetchFn,
  ) {}

  /** Signs in (an API key logs in for a token; an API user's credentials are checked on the index). */
  static async signIn(credentials: Credentials, fetchFn: FetchFn = fetch.bind(globalThis)): Promise<Session> {
    const session = new Session(credentials, fetchFn);
    if (credentials.type === 'apiKey') await session.login();
    else await session.request('GET', '/api', { accept: MEDIA.index });
    session.identity = await session.whoAmI();
    await session.loadRelations();
    return session;
  }

  /**
   * The single sign-on session the browser's cookie names, if any (a reload, a second tab), and
   * whether single sign-on is configured at all (the sign-in page offers it then).
   */
  static async resume(fetchFn: FetchFn = fetch.bind(globalThis)): Promise<{ oidc: boolean; session?: Session }> {
    const response = await fetchFn('/auth/session', { headers: { accept: 'application/json' } });
    if (!response.ok) throw await errorOf(response);
    const state = (await response.json()) as SessionState;
    if (!state.session) return { oidc: state.oidc };
    const session = new Session(undefined, fetchFn);
    session.person = true;
    session.identityOf(state.session);
    await session.loadRelations();
    return { oidc: state.oidc, session };
  }

  private identityOf(person: NonNullable<SessionState['session']>): void {
    this.identity = {
      type: 'person',
      name: person.username,
      ...(person.workspace ? { workspace: person.workspace } : {}),
      workspaces: person.workspaces,
      permissions: person.permissions,
      admin: person.admin,
    };
  }

  private async loadRelations(): Promise<void> {
    const index = await this.get<{ _links?: Record<string, unknown> }>('/api/meshobjects', MEDIA.objects);
    this.relations = new Set(Object.keys(index._links ?? {}));
  }

  /** A person acts in one workspace at a time: the session acts in `workspace` from now on. */
  async switchWorkspace(workspace: string): Promise<void> {
    const state = await this.request<SessionState>('POST', '/auth/session/workspace', {
      accept: 'application/json',
      body: { workspace },
      contentType: 'application/json',
    });
    if (state.session) this.identityOf(state.session);
    await this.loadRelations();
  }

  private async login(): Promise<void> {
    const credentials = this.credentials;
    if (credentials?.type !== 'apiKey') throw new ApiError(401, 'signed out');
    // The runners' JSON form answers with the token directly (no redirect to follow).
    const response = await this.fetchFn('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
    });
    if (!response.ok) throw await errorOf(response);
    const token = (await response.json()) as { access_token: string; expires_in: number };
    this.token = { value: token.access_token, expiresAt: Date.now() + token.expires_in * 1000 };
    clearTimeout(this.timer);
    const refreshIn = Math.max(5, token.expires_in - REFRESH_MARGIN_S) * 1000;
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), refreshIn);
  }

  private refresh(): Promise<void> {
    return (this.refreshing ??= this.login().finally(() => (this.refreshing = undefined)));
  }

  private async whoAmI(): Promise<Identity> {
    const credentials = this.credentials!;
    if (credentials.type === 'apiUser') return { type: 'apiUser', name: credentials.username, admin: true };
    try {
      const key = await this.get<Json>(`${PATHS.apiKeys}/${encodeURIComponent(credentials.clientId)}`, MEDIA.apiKey);
      const permissions = ((key.spec as Json).permissions as string[]) ?? [];
      const workspace = (key.metadata as Json).ownedByWorkspace as string;
      return {
        type: 'apiKey',
        name: (key.spec as Json).displayName as string,
        workspace,
        permissions,
        admin: permissions.some((code) => code.startsWith('ADM_')),
      };
    } catch {
      return { type: 'apiKey', name: credentials.clientId, admin: false };
    }
  }

  /** The Authorization header value, refreshing an expiring token first; empty for a person (the cookie signs in). */
  async authorization(): Promise<string> {
    if (this.person) {
      if (this.signedOut) throw new ApiError(401, 'you are signed out');
      return '';
    }
    const credentials = this.credentials;
    if (!credentials || this.signedOut) throw new ApiError(401, 'you are signed out');
    if (credentials.type === 'apiUser')
      return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${credentials.username}:${credentials.password}`)))}`;
    if (!this.token || this.token.expiresAt - Date.now() < REFRESH_MARGIN_S * 1000) await this.refresh();
    return `Bearer ${this.token!.value}`;
  }

  /** One API call; a 401 with a token (revoked signing key, clock skew) logs in once more and retries. */
  async request<T = Json>(method: string, path: string, options: RequestOptions = {}, retried = false): Promise<T> {
    const authorization = await this.authorization();
    const headers: Record<string, string> = authorization ? { authorization } : {};
    if (options.accept) headers.accept = options.accept;
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? options.accept ?? 'application/json';
    const response = await this.fetchFn(path, {
      method,
      headers,
      signal: options.signal,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    if (response.status === 401 && this.credentials?.type === 'apiKey' && !retried) {
      await this.refresh();
      return this.request(method, path, options, true);
    }
    if (!response.ok) throw await errorOf(response);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T = Json>(path: string, accept: string, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { accept, ...(signal ? { signal } : {}) });
  }

  /** A paged list: its embedded items (under `embedded`) and the page. */
  async list<T = Json>(path: string, accept: string, embedded: string, signal?: AbortSignal): Promise<Page<T>> {
    const body = await this.get<{ _embedded?: Record<string, T[]>; page: Page<T>['page'] }>(path, accept, signal);
    return { items: body._embedded?.[embedded] ?? [], page: body.page };
  }

  /** Every item of a list, page after page (bounded: what a select box can show). */
  async all<T = Json>(path: string, accept: string, embedded: string, limit = 1000): Promise<T[]> {
    const items: T[] = [];
    for (let page = 0; items.length < limit; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const result = await this.list<T>(`${path}${separator}size=350&page=${page}`, accept, embedded);
      items.push(...result.items);
      if (page + 1 >= result.page.totalPages) break;
    }
    return items;
  }

  /** Forgets the credentials and the token; a person's session ends on the server (its cookie is refused from then on). */
  async signOut(): Promise<void> {
    if (this.person && !this.signedOut) await this.request('POST', '/auth/logout').catch(() => undefined);
    this.signedOut = true;
    this.credentials = undefined;
    this.token = undefined;
    clearTimeout(this.timer);
  }
}

/** A list query string from the filled-in filters (empty ones left out). */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
