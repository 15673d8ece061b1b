import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import * as client from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { ConfigError, type OidcConfig } from '../config.js';
import { badRequest, forbidden } from '../lib/errors.js';
import { normalizeUsername, usernameProblem } from '../kinds/apiuser/model.js';
import type { UserService } from '../kinds/user/service.js';
import { SYSTEM } from './context.js';
import type { PersonAccess } from './people.js';
import type { Sessions } from './sessions.js';

/** The cookie carrying a sign-in under way (PKCE verifier, state, nonce) from the login to the callback. */
export const PENDING_COOKIE = '__Host-blockyard-oidc';
/** How long a person may take at the provider's pages. */
export const PENDING_SECONDS = 600;

/** What a sign-in under way keeps in the browser: only that browser can finish it. */
interface Pending {
  verifier: string;
  state: string;
  nonce: string;
}

/** Who signed in, as the provider's claims say. */
interface Person {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The certificates `BLOCKYARD_OIDC_CA` names, read once at start before the database is opened (a
 * missing file stops the start), then handed to the sign-in.
 */
export function loadIssuerCa(settings: OidcConfig | undefined): string | undefined {
  if (settings?.caFile === undefined) return undefined;
  try {
    return readFileSync(settings.caFile, 'utf8');
  } catch (error) {
    throw new ConfigError('BLOCKYARD_OIDC_CA', `cannot read ${settings.caFile}: ${(error as Error).message}`);
  }
}

/**
 * The relying party of OpenID Connect (openid-client): the authorization code flow with PKCE, a nonce
 * and state, and the client secret at the token endpoint. The provider's metadata is discovered at the
 * first sign-in (and again after a failure), so a provider that is down does not stop the service.
 */
class RelyingParty {
  private configuration: Promise<client.Configuration> | undefined;
  private readonly fetchFn: client.CustomFetch | undefined;

  constructor(
    private readonly settings: OidcConfig,
    issuerCa: string | undefined,
  ) {
    if (issuerCa !== undefined) {
      const agent = new Agent({ connect: { ca: [...rootCertificates, issuerCa] } });
      this.fetchFn = (url, options) =>
        undiciFetch(url, { ...options, dispatcher: agent } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
    }
  }

  private discovered(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        undefined,
        client.ClientSecretBasic(this.settings.clientSecret),
        this.fetchFn ? { [client.customFetch]: this.fetchFn } : {},
      )
      .then((configuration) => {
        if (this.fetchFn) configuration[client.customFetch] = this.fetchFn;
        return configuration;
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** The provider's authorization URL for a new sign-in, and what the browser keeps until the callback. */
  async begin(redirectUri: string): Promise<{ url: string; pending: string }> {
    const configuration = await this.discovered();
    const pending: Pending = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending: Buffer.from(JSON.stringify(pending)).toString('base64url') };
  }

  /** The code exchanged, the ID token checked; the person's claims (the ID token's, then the userinfo's). */
  async finish(callbackUrl: URL, pendingCookie: string | undefined): Promise<Record<string, unknown>> {
    const pending = pendingOf(pendingCookie);
    const configuration = await this.discovered();
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError)
        throw forbidden(
          `the identity provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
        );
      if (error instanceof client.ClientError || error instanceof client.ResponseBodyError)
        throw badRequest(`the sign-in could not be completed: ${error.message}; start again`);
      throw error;
    }
    const claims: Record<string, unknown> = { ...tokens.claims() };
    const wanted = this.settings.usernameClaim === undefined ? ['preferred_username', 'email'] : [this.settings.usernameClaim];
    if (!wanted.some((claim) => text(claims[claim]) !== '') && configuration.serverMetadata().userinfo_endpoint !== undefined) {
      Object.assign(claims, await client.fetchUserInfo(configuration, tokens.access_token, text(claims.sub)), { sub: claims.sub });
    }
    return claims;
  }

  /** The person the claims name: the username claim, lower-cased as SCIM takes user names. */
  personOf(claims: Record<string, unknown>): Person {
    const wanted = this.settings.usernameClaim === undefined ? ['preferred_username', 'email'] : [this.settings.usernameClaim];
    const claim = wanted.find((name) => text(claims[name]) !== '');
    if (claim === undefined)
      throw forbidden(`the identity provider sent no ${wanted.join(' or ')} claim: configure it to, or set BLOCKYARD_OIDC_USERNAME_CLAIM`);
    const username = normalizeUsername(text(claims[claim]).toLowerCase());
    const problem = usernameProblem(username);
    if (problem) throw forbidden(`the ${claim} claim "${username.slice(0, 100)}" is no meshUser name (${problem})`);
    const email = text(claims.email) || (username.includes('@') ? username : '');
    return { username, email, firstName: text(claims.given_name), lastName: text(claims.family_name) };
  }
}

function pendingOf(cookie: string | undefined): Pending {
  const none = badRequest('no sign-in is under way in this browser (or it took longer than 10 minutes): start again at /auth/oidc/login');
  if (cookie === undefined) throw none;
  try {
    const pending = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Partial<Pending>;
    if (typeof pending.verifier === 'string' && typeof pending.state === 'string' && typeof pending.nonce === 'string')
      return pending as Pending;
  } catch {
    // not ours: as if absent
  }
  throw none;
}

/**
 * Sign-in of people with single sign-on (docs/sso.md): the provider says who it is; a person unknown
 * here becomes a meshUser without bindings (who sees nothing until bound); a deactivated meshUser is
 * refused; the session acts in the first workspace the person holds a binding in.
 */
export class PersonSignIn {
  private readonly party: RelyingParty;

  constructor(
    settings: OidcConfig,
    issuerCa: string | undefined,
    private readonly users: UserService,
    readonly access: PersonAccess,
    readonly sessions: Sessions,
  ) {
    this.party = new RelyingParty(settings, issuerCa);
  }

  begin(redirectUri: string) {
    return this.party.begin(redirectUri);
  }

  /** Finishes a sign-in at the callback; returns the new session's id. */
  async finish(callbackUrl: URL, pendingCookie: string | undefined): Promise<string> {
    const person = this.party.personOf(await this.party.finish(callbackUrl, pendingCookie));
    const user = (await this.users.find(person.username)) ?? (await this.firstSignIn(person));
    if (user.active === false) throw forbidden(`meshUser ${user.username} is deactivated`);
    const [workspace] = await this.access.workspacesOf(user.username);
    return this.sessions.create(user.username, workspace);
  }

  private async firstSignIn(person: Person) {
    try {
      return await this.users.create(SYSTEM, {
        ...person,
        document: {
          metadata: { name: person.username },
          spec: { email: person.email, firstName: person.firstName, lastName: person.lastName, tags: {} },
        },
      });
    } catch (error) {
      // Signed in twice at once: the other sign-in made the user.
      const made = await this.users.find(person.username);
      if (made) return made;
      throw error;
    }
  }
}
