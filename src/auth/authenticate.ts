import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, forbidden, unauthorized } from '../lib/errors.js';
import type { ApiKey } from '../kinds/apikey/model.js';
import type { ApiKeyService } from '../kinds/apikey/service.js';
import { normalizeUsername } from '../kinds/apiuser/model.js';
import type { ApiUserService } from '../kinds/apiuser/service.js';
import type { ScimTokenService } from '../kinds/scimtoken/service.js';
import type { Attempt, FailedAttemptLimiter } from './failed-attempts.js';
import type { Principal } from './principal.js';
import { cookieValue, SESSION_COOKIE, type Sessions } from './sessions.js';
import { RUN_TOKEN_PREFIX, type TokenService } from './tokens.js';

/** People signed in with single sign-on: their sessions, and what they may do in a session's workspace (auth/people.ts). */
export interface PeopleAccess {
  sessions: Sessions;
  principalFor(username: string, workspace: string | undefined): Promise<Principal>;
}

/** What a request presents: its headers (Authorization, Cookie, Origin) and method. */
export interface PresentedRequest {
  headers: IncomingHttpHeaders;
  method: string;
}

/** How a refused credential was presented (the metrics count failures by it). */
export type CredentialScheme = 'bearer' | 'basic' | 'session' | 'scim' | 'client_credentials' | 'other';

/** Methods that change nothing: a session cookie opens them whatever site sent the request. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a SCIM client may do: provision users (create, replace, deactivate, delete) and workspace user groups. */
const SCIM_PERMISSIONS: ReadonlySet<string> = new Set([
  'ADM_USER_LIST',
  'ADM_USER_SAVE',
  'ADM_USER_DELETE',
  'ADM_WORKSPACEUSERGROUP_LIST',
  'ADM_WORKSPACEPRINCIPALBINDING_SAVE',
  'ADM_WORKSPACEPRINCIPALBINDING_DELETE',
]);

/**
 * Turns an Authorization header into a Principal or a 401 (spec 5.1): `Bearer <token>` of an API key
 * (a JWT from our token endpoint), or `Basic` credentials of an API user; and client credentials into
 * the API key they belong to (the token endpoint). Every presented credential that fails, whatever its
 * scheme, counts against the client address (and against the username or client id it names), and is
 * looked at only after the failed-attempt limits admit it (docs/security.md "Authentication
 * throttling"). Tokens name no identity that counts: they cannot be guessed, and an identity an
 * invalid token names is the sender's choice (counting it would let anyone lock a key out).
 */
export class Authenticator {
  /** One principal per cached key object: no per-request permission set building. */
  private readonly principals = new WeakMap<ApiKey, Principal>();
  private onFailure: (scheme: CredentialScheme) => void = () => undefined;

  constructor(
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeyService,
    private readonly apiUsers: ApiUserService,
    private readonly failedAttempts: FailedAttemptLimiter,
    private readonly scimTokens: ScimTokenService,
    /** Unset: single sign-on is not configured, and a session cookie is no credential. */
    private readonly people?: PeopleAccess,
  ) {}

  /** Tells `listener` of every refused credential, with its scheme (the metrics). */
  observeFailures(listener: (scheme: CredentialScheme) => void): void {
    this.onFailure = listener;
  }

  /**
   * An API request's credential: its Authorization header, else (people signed in with single
   * sign-on) the session cookie. Browsers send the cookie with requests other sites make them send, so
   * a cookie-only request that changes something must come from `publicOrigin` (the service's own
   * pages): another Origin, or none, is 403 before the session is looked at.
   */
  async authenticateRequest(request: PresentedRequest, address: string, publicOrigin: () => string): Promise<Principal> {
    const header = request.headers.authorization;
    const sessionId =
      this.people && (header === undefined || header.trim() === '') ? cookieValue(request.headers.cookie, SESSION_COOKIE) : undefined;
    if (sessionId === undefined || !this.people) return this.authenticate(header, address);
    const origin = publicOrigin();
    if (!SAFE_METHODS.has(request.method) && request.headers.origin !== origin) {
      throw forbidden(
        `a request signed in by the session cookie that changes something must come from ${origin} (Origin ${request.headers.origin === undefined ? 'missing' : `"${request.headers.origin.slice(0, 100)}"`})`,
      );
    }
    const admitted = this.failedAttempts.check(address);
    if (admitted) await admitted;
    const session = await this.people.sessions.find(sessionId);
    if (!session) {
      this.failedAttempts.failed(address);
      this.onFailure('session');
      // No Basic challenge: a browser would answer it with its own password dialog.
      throw new ApiError('Unauthorized', 'the session has ended (signed out, expired, or the meshUser was deactivated): sign in again', {
        'www-authenticate': 'Bearer realm="blockyard"',
      });
    }
    return this.people.principalFor(session.username, session.workspace);
  }

  /**
   * The SCIM routes' credential: `Bearer <SCIM token>` only; an API key's token,
   * Basic credentials or anything else is 401. A wrong token counts against the client address.
   */
  async authenticateScim(header: string | undefined, address: string): Promise<Principal> {
    const required = 'a SCIM token is required: send Authorization: Bearer <SCIM token> (blockyard admin scim-token create)';
    if (header === undefined || header.trim() === '') throw unauthorized(required);
    const admitted = this.failedAttempts.check(address);
    if (admitted) await admitted;
    const match = /^bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw this.refused('scim', address, required);
    const token = await this.scimTokens.verify(match[1]!);
    if (!token) throw this.refused('scim', address, 'the SCIM token is invalid or was deleted');
    return { type: 'scim', id: token.id, permissions: SCIM_PERMISSIONS };
  }

  /** `address`: the client's address, which failed attempts are limited by. */
  async authenticate(header: string | undefined, address: string): Promise<Principal> {
    // No credential at all guesses nothing: it is not a failed attempt.
    if (header === undefined || header.trim() === '')
      throw unauthorized('credentials are required: send Authorization: Bearer <token> or Basic');
    const admitted = this.failedAttempts.check(address);
    if (admitted) await admitted;
    const space = header.indexOf(' ');
    const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
    const value = space === -1 ? '' : header.slice(space + 1).trim();
    if (scheme === 'bearer') return this.bearer(value, address);
    if (scheme === 'basic') return this.basic(value, address);
    throw this.refused('other', address, 'unsupported Authorization scheme: use Bearer or Basic');
  }

  /**
   * The Terraform state backend's credentials: as `authenticate`, and a run token as the password of
   * Basic credentials (Terraform's HTTP backend sends only Basic; the original's runner puts the run
   * token there, with any username). Other Basic credentials are an API user's.
   */
  async authenticateStateBackend(header: string | undefined, address: string): Promise<Principal> {
    const basic = /^basic\s+(\S+)\s*$/i.exec(header ?? '');
    if (basic) {
      const admitted = this.failedAttempts.check(address);
      if (admitted) await admitted;
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      const claims = password.startsWith('ey') ? await this.tokens.verify(password) : undefined;
      if (claims?.subject.startsWith(RUN_TOKEN_PREFIX)) return this.bearer(password, address);
    }
    return this.authenticate(header, address);
  }

  /** A failed attempt: counted, then the 401 to throw. */
  private refused(scheme: CredentialScheme, address: string, message: string, identity?: string): ApiError {
    this.failedAttempts.failed(address, identity);
    this.onFailure(scheme);
    return unauthorized(message);
  }

  private async bearer(token: string, address: string): Promise<Principal> {
    const claims = token === '' ? undefined : await this.tokens.verify(token);
    if (!claims) throw this.refused('bearer', address, 'the access token is invalid or expired');
    if (claims.subject.startsWith(RUN_TOKEN_PREFIX)) {
      return {
        type: 'runToken',
        id: claims.subject,
        runUuid: claims.subject.slice(RUN_TOKEN_PREFIX.length),
        ...(claims.claimedBy !== undefined ? { claimedBy: claims.claimedBy } : {}),
      };
    }
    const key = await this.apiKeys.findActive(claims.subject);
    if (!key) throw this.refused('bearer', address, 'the API key of this token no longer exists or has expired');
    let principal = this.principals.get(key);
    if (!principal) {
      principal = {
        type: 'apiKey',
        id: key.uuid,
        workspace: key.ownedByWorkspace,
        permissions: new Set(key.permissions),
        displayName: key.displayName,
        ...(key.expiresAt ? { expiresAt: key.expiresAt } : {}),
      };
      this.principals.set(key, principal);
    }
    return principal;
  }

  private async basic(encoded: string, address: string): Promise<Principal> {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw this.refused('basic', address, 'malformed Basic credentials');
    const username = normalizeUsername(decoded.slice(0, colon));
    if (username.includes('\u0000')) throw this.refused('basic', address, 'invalid username or password');
    const identity = `user:${username}`;
    const admitted = this.failedAttempts.check(address, identity);
    if (admitted) await admitted;
    // The slow hash runs only as an attempt the limits admit; recently verified pairs skip it.
    let attempt: Attempt | undefined;
    const begin = () => (attempt = this.failedAttempts.begin(address, identity));
    const valid = await this.apiUsers.verify(username, decoded.slice(colon + 1), { address, begin });
    if (!valid) {
      attempt?.failed();
      this.onFailure('basic');
      throw unauthorized('invalid username or password');
    }
    return { type: 'apiUser', id: username };
  }

  /** The API key whose client credentials these are (the token endpoint), or a 401. */
  async authenticateClient(clientId: string, clientSecret: string, address: string): Promise<ApiKey> {
    const identity = `client:${clientId}`;
    const admitted = this.failedAttempts.check(address, identity);
    if (admitted) await admitted;
    const key = await this.apiKeys.verifyCredentials(clientId, clientSecret);
    if (!key) throw this.refused('client_credentials', address, 'invalid client credentials', identity);
    return key;
  }
}
