import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload, type KeyObject } from 'jose';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Tables } from '../store/schema.js';

const ALGORITHM = 'ES256';
/** A new signing key is made when the newest one is this old; older keys stay published for verification. */
const ROTATE_AFTER_MS = 30 * 86_400_000;
/** Keys older than this sign nothing and verify nothing any more (far beyond any token lifetime). */
const RETIRE_AFTER_MS = 90 * 86_400_000;
const AUDIENCE = 'blockyard-api';

/** Subject of run tokens: `run:<run uuid>` (issued when a runner claims the run). */
export const RUN_TOKEN_PREFIX = 'run:';
const VERIFIED_CACHE_LIMIT = 50_000;

export interface IssuedToken {
  access_token: string;
  expires_in: number;
}

export interface TokenClaims {
  /** The API key's client id. */
  subject: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

interface SigningKey {
  kid: string;
  createdOn: number;
  publicJwk: JWK;
  publicKey: KeyObject | Uint8Array;
  privateKey?: KeyObject | Uint8Array;
}

/**
 * The embedded identity provider's token issuer: ES256 JWTs signed with keys kept in the database, so
 * every instance verifies every other instance's tokens, and tokens survive restarts. Verification is
 * local (no database round trip); verified tokens are cached until they expire.
 */
export class TokenService {
  private keys = new Map<string, SigningKey>();
  private signer: SigningKey | undefined;
  private lastReload = 0;
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly secrets: SecretBox,
    private readonly ttlSeconds: number,
    readonly issuer: string,
    private readonly log: Logger,
  ) {}

  async init(): Promise<void> {
    await this.reload();
    if (!this.signer || Date.now() - this.signer.createdOn > ROTATE_AFTER_MS) await this.rotate();
  }

  /** Adds a new signing key; existing tokens stay valid because old keys remain published. */
  async rotate(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
    const privateJwk = await exportJWK(privateKey);
    await this.db
      .insertInto('signing_keys')
      .values({ kid, public_jwk: JSON.stringify(publicJwk), private_jwk_encrypted: this.secrets.encrypt(JSON.stringify(privateJwk)), created_on: new Date().toISOString() })
      .execute();
    this.log.info({ kid }, 'token signing key created');
    await this.reload();
  }

  private async reload(): Promise<void> {
    this.lastReload = Date.now();
    const rows = await this.db.selectFrom('signing_keys').selectAll().execute();
    const keys = new Map<string, SigningKey>();
    let signer: SigningKey | undefined;
    for (const row of rows) {
      const createdOn = Date.parse(row.created_on);
      if (Date.now() - createdOn > RETIRE_AFTER_MS) continue;
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      const key: SigningKey = { kid: row.kid, createdOn, publicJwk, publicKey: await importJWK(publicJwk, ALGORITHM) };
      keys.set(row.kid, key);
      if (!signer || createdOn > signer.createdOn) signer = key;
    }
    if (signer) {
      const kid = signer.kid;
      const row = rows.find((r) => r.kid === kid)!;
      try {
        signer.privateKey = await importJWK(JSON.parse(this.secrets.decrypt(row.private_jwk_encrypted)) as JWK, ALGORITHM);
      } catch {
        // Another instance with a different master key made it: verify its tokens, sign with our own.
        signer = undefined;
      }
    }
    this.keys = keys;
    this.signer = signer ?? this.signer;
  }

  /** A token for `subject`; `ttlSeconds` overrides the configured lifetime (run tokens live as long as runs). */
  async issue(subject: string, ttlSeconds: number = this.ttlSeconds): Promise<IssuedToken> {
    if (!this.signer?.privateKey || Date.now() - this.signer.createdOn > ROTATE_AFTER_MS) await this.rotate();
    const signer = this.signer!;
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: signer.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomUUID())
      .sign(signer.privateKey!);
    return { access_token: token, expires_in: ttlSeconds };
  }

  /** The claims of a valid, unexpired token of ours, or undefined. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const cached = this.verified.get(token);
    const nowSeconds = Date.now() / 1000;
    if (cached) {
      if (cached.expiresAt > nowSeconds) return cached;
      this.verified.delete(token);
      return undefined;
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header) => this.keyFor(header.kid), { issuer: this.issuer, audience: AUDIENCE, algorithms: [ALGORITHM] }));
    } catch {
      return undefined;
    }
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return undefined;
    const claims = { subject: payload.sub, expiresAt: payload.exp };
    if (this.verified.size >= VERIFIED_CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, claims);
    return claims;
  }

  private async keyFor(kid: string | undefined): Promise<KeyObject | Uint8Array> {
    if (kid === undefined) throw new Error('token without kid');
    let key = this.keys.get(kid);
    // A key made by another instance since our last look: reload, at most once a second.
    if (!key && Date.now() - this.lastReload > 1000) {
      await this.reload();
      key = this.keys.get(kid);
    }
    if (!key) throw new Error('unknown signing key');
    return key.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }
}
