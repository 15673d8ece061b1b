import { createPrivateKey, randomUUID, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SigningKeyRow, SigningKeyStore } from '../store/signing-keys.js';
import type { Principal } from './principal.js';

const ALGORITHM = 'ES256';
const AUDIENCE = 'blockyard-api';
/** The scheduled rotation: a new signing key is made when the newest one is this old (and the old one retired). */
const ROTATE_AFTER_MS = 30 * 86_400_000;
/**
 * An instance re-reads the signing keys at least this often while it issues or verifies tokens (and at
 * once when it meets an unknown key id), so it signs with the newest key within this bound.
 */
export const KEY_REFRESH_MS = 5_000;
/** At most one read of the keys a second for tokens naming a kid not known here. */
const UNKNOWN_KID_RELOAD_MS = 1_000;
/**
 * Tokens signed with a retired key are trusted until its retirement plus this plus their lifetime:
 * instances go on signing with it until they see its successor (KEY_REFRESH_MS), and clocks of
 * instances differ a little.
 */
export const RETIREMENT_HANDOVER_MS = 2 * KEY_REFRESH_MS;
/** Run tokens live as long as the run timeout plus this (a run reports again and again while it lasts). */
export const RUN_TOKEN_EXTRA_SECONDS = 3600;

/** Subject of run tokens: `run:<run uuid>` (issued when a runner claims the run). */
export const RUN_TOKEN_PREFIX = 'run:';
const VERIFIED_CACHE_LIMIT = 50_000;

export interface IssuedToken {
  access_token: string;
  expires_in: number;
}

export interface TokenClaims {
  /** The API key's client id, or `run:<run uuid>`. */
  subject: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The signing key. */
  kid: string;
  /** API key tokens: the key's revision when the token was issued (0 in tokens from before revisions). */
  revision: number;
  /** Run tokens: who claimed the run, `apiKey:<client id>` or `apiUser:<username>` (absent in tokens from before). */
  claimedBy?: string;
}

/** Decides whether a validly signed, unexpired token has been revoked since it was issued (auth/revocation.ts). */
export interface TokenRevocation {
  isRevoked(claims: TokenClaims): Promise<boolean>;
}

export interface TokenLifetimes {
  /** Tokens of API keys (`BLOCKYARD_TOKEN_TTL_SECONDS`). */
  tokenTtlSeconds: number;
  /** Run tokens: the run timeout plus RUN_TOKEN_EXTRA_SECONDS. */
  runTokenTtlSeconds: number;
}

interface SigningKey {
  kid: string;
  createdOn: number;
  /** Epoch ms of its retirement, when a newer key replaced it. */
  retiredOn: number | undefined;
  /** The private half as stored (a changed one, after a master-key rotation, is opened again). */
  sealed: string;
  publicJwk: JWK;
  /** For jose's verification. */
  publicKey: Awaited<ReturnType<typeof importJWK>>;
  /** For signing with node:crypto (signCompact). */
  privateKey: KeyObject;
  /** The encoded protected header of its tokens and the dot after it: the same for every token it signs. */
  headerPart: string;
}

/** What a rotation does: `now` (the admin command), `scheduled` (30 days), `initial` (no usable key yet). */
export type Rotation = 'now' | 'scheduled' | 'initial';

export const isRunTokenSubject = (subject: string) => subject.startsWith(RUN_TOKEN_PREFIX);

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * A compact JWS (RFC 7515) of the payload, ES256: `header.payload.signature`, the signature as the
 * raw r ‖ s that JWS requires (not DER). The same tokens jose made before, signed by node:crypto on
 * libuv's thread pool: the event loop spends about a quarter of the time of a WebCrypto signature
 * (no algorithm normalisation, no CryptoKey checks) and less than half that of a synchronous one.
 */
function signCompact(key: Pick<SigningKey, 'headerPart' | 'privateKey'>, payload: object): Promise<string> {
  const input = key.headerPart + base64url(JSON.stringify(payload));
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(input, 'latin1'), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }, (error, signature) =>
      error ? reject(error) : resolve(`${input}.${signature.toString('base64url')}`),
    ),
  );
}

/**
 * The embedded identity provider's token issuer: ES256 JWTs signed with keys kept in the database, so
 * every instance verifies every other instance's tokens, and tokens survive restarts. Verification is
 * local (no database round trip); verified tokens are cached until they expire.
 *
 * Only keys the configured master keys open are used at all: a key whose private half cannot be
 * decrypted (made under another master key, or written into the database by someone else) is neither
 * trusted nor published. The newest usable key that is not retired signs. A rotation (`blockyard admin
 * rotate-signing-key`, or every 30 days) makes a new key and retires the others in the database; a
 * retired key signs nothing more and verifies a token only until the longest such token could have
 * expired (retirement + RETIREMENT_HANDOVER_MS + the token's lifetime), and is published as long as it
 * verifies anything.
 */
export class TokenService {
  private keys = new Map<string, SigningKey>();
  private signer: SigningKey | undefined;
  /** Keys that could not be used, by kid with the stored private half (so each is reported once). */
  private readonly unusable = new Map<string, string>();
  private lastReload = 0;
  /** Kids no stored key had when a token naming them arrived (invented by whoever made the token). */
  private readonly inventedKids = new Set<string>();
  /** Reloads started so far: a request knows whether one has started since it arrived. */
  private reloads = 0;
  private reloading: Promise<void> | undefined;
  private readonly verified = new Map<string, TokenClaims>();
  private revocation: TokenRevocation | undefined;

  constructor(
    private readonly store: SigningKeyStore,
    private readonly secrets: SecretBox,
    private readonly lifetimes: TokenLifetimes,
    readonly issuer: string,
    private readonly log: Logger,
  ) {}

  /** Every verification asks `revocation` too (wired by the composition root: it needs the kinds). */
  useRevocation(revocation: TokenRevocation): void {
    this.revocation = revocation;
  }

  async init(): Promise<void> {
    await this.reload();
    if (!this.signer) await this.rotate('initial');
    else if (Date.now() - this.signer.createdOn > ROTATE_AFTER_MS) await this.rotate('scheduled');
  }

  /**
   * Makes a new signing key. `now` and `scheduled` retire every other key (`scheduled` only if no
   * instance did so meanwhile); `initial` only adds one when this process has no usable key (a new
   * database, or a master key that opens none of the stored ones: those are left to their instances).
   * Answers the new key and the retired ones, or undefined when another instance had done it.
   */
  async rotate(rotation: Rotation): Promise<{ kid: string; retired: string[] } | undefined> {
    const result = await this.store.exclusively(async (keys) => {
      await this.absorb(await keys.all());
      const now = Date.now();
      if (rotation === 'initial' && this.signer) return undefined;
      if (rotation === 'scheduled' && this.signer && now - this.signer.createdOn <= ROTATE_AFTER_MS) return undefined;
      const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
      const at = new Date(now).toISOString();
      await keys.insert({
        kid,
        public_jwk: JSON.stringify(publicJwk),
        private_jwk_encrypted: this.secrets.encrypt(JSON.stringify(await exportJWK(privateKey))),
        created_on: at,
      });
      const retired = rotation === 'initial' ? [] : await keys.retireAllBut(kid, at);
      return { kid, retired };
    });
    if (result) this.log.info({ kid: result.kid, retired: result.retired, rotation }, 'token signing key created');
    // A reload that started before the new key was committed must not be the last word.
    while (this.reloading) await this.reloading.catch(() => undefined);
    await this.reload();
    return result;
  }

  /** How long after its retirement a retired key still verifies (and is published): the longest token lifetime plus the handover. */
  retiredKeyTrustMs(): number {
    return RETIREMENT_HANDOVER_MS + Math.max(this.lifetimes.tokenTtlSeconds, this.lifetimes.runTokenTtlSeconds) * 1000;
  }

  private reload(): Promise<void> {
    return (this.reloading ??= (async () => {
      this.lastReload = Date.now();
      this.reloads++;
      await this.absorb(await this.store.all());
    })().finally(() => {
      this.reloading = undefined;
    }));
  }

  /** Re-reads the keys in the background when the last look is KEY_REFRESH_MS old (the request goes on meanwhile). */
  private refreshInBackground(): void {
    if (Date.now() - this.lastReload < KEY_REFRESH_MS) return;
    this.reload().catch((error: unknown) => this.log.warn({ err: error }, 'reading the token signing keys failed'));
  }

  /** Takes the stored keys as they are: the usable ones, each with its retirement; the newest usable one not retired signs. */
  private async absorb(rows: SigningKeyRow[]): Promise<void> {
    const keys = new Map<string, SigningKey>();
    let signer: SigningKey | undefined;
    for (const row of rows) {
      const known = this.keys.get(row.kid);
      const opened = known?.sealed === row.private_jwk_encrypted ? known : await this.open(row);
      if (!opened) continue;
      const key: SigningKey = {
        ...opened,
        createdOn: Date.parse(row.created_on),
        retiredOn: row.retired_on === null ? undefined : Date.parse(row.retired_on),
      };
      keys.set(key.kid, key);
      if (key.retiredOn === undefined && (!signer || key.createdOn >= signer.createdOn)) signer = key;
    }
    this.keys = keys;
    this.signer = signer;
  }

  /** A stored key, if the configured master keys open its private half and that half belongs to its public one. */
  private async open(row: SigningKeyRow): Promise<Omit<SigningKey, 'createdOn' | 'retiredOn'> | undefined> {
    if (this.unusable.get(row.kid) === row.private_jwk_encrypted) return undefined;
    try {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      const privateJwk = JSON.parse(this.secrets.decrypt(row.private_jwk_encrypted)) as JWK;
      if (
        publicJwk.kid !== row.kid ||
        publicJwk.kty !== 'EC' ||
        publicJwk.crv !== 'P-256' ||
        privateJwk.x !== publicJwk.x ||
        privateJwk.y !== publicJwk.y
      ) {
        throw new Error('the private half does not belong to the public one');
      }
      return {
        kid: row.kid,
        sealed: row.private_jwk_encrypted,
        publicJwk,
        publicKey: await importJWK(publicJwk, ALGORITHM),
        privateKey: createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' }),
        headerPart: `${base64url(JSON.stringify({ alg: ALGORITHM, kid: row.kid, typ: 'JWT' }))}.`,
      };
    } catch (error) {
      this.unusable.set(row.kid, row.private_jwk_encrypted);
      this.log.warn(
        { kid: row.kid, reason: (error as Error).message },
        'a token signing key cannot be opened with the configured master keys: it is neither trusted nor published',
      );
      return undefined;
    }
  }

  /** A token of an API key, carrying the key's revision (a secret rotation refuses older ones). */
  issueForKey(key: { uuid: string; revision: number }): Promise<IssuedToken> {
    return this.issue(key.uuid, { rev: key.revision }, this.lifetimes.tokenTtlSeconds);
  }

  /** The token of a claimed run, naming who claimed it (the token stops working when that key or user is gone). */
  issueForRun(runUuid: string, claimedBy: Principal): Promise<IssuedToken> {
    const claims: Record<string, string> =
      claimedBy.type === 'apiKey' || claimedBy.type === 'apiUser' ? { claimed_by: `${claimedBy.type}:${claimedBy.id}` } : {};
    return this.issue(`${RUN_TOKEN_PREFIX}${runUuid}`, claims, this.lifetimes.runTokenTtlSeconds);
  }

  private async issue(subject: string, claims: Record<string, string | number>, ttlSeconds: number): Promise<IssuedToken> {
    if (Date.now() - this.lastReload >= KEY_REFRESH_MS)
      await this.reload().catch((error: unknown) => this.log.warn({ err: error }, 'reading the token signing keys failed'));
    if (!this.signer) await this.rotate('initial');
    else if (Date.now() - this.signer.createdOn > ROTATE_AFTER_MS) await this.rotate('scheduled');
    const signer = this.signer;
    if (!signer) throw new Error('no token signing key');
    const now = Math.floor(Date.now() / 1000);
    const payload = { ...claims, iss: this.issuer, aud: AUDIENCE, sub: subject, iat: now, exp: now + ttlSeconds, jti: randomUUID() };
    return { access_token: await signCompact(signer, payload), expires_in: ttlSeconds };
  }

  /** The claims of a valid, unexpired, unrevoked token signed with a key trusted for it, or undefined. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    this.refreshInBackground();
    let claims = this.verified.get(token);
    if (claims && claims.expiresAt <= Date.now() / 1000) {
      this.verified.delete(token);
      return undefined;
    }
    if (!claims) {
      claims = await this.verifySignature(token);
      if (!claims) return undefined;
      if (this.verified.size >= VERIFIED_CACHE_LIMIT) this.verified.clear();
      this.verified.set(token, claims);
    }
    if (!this.trusts(claims)) return undefined;
    if (this.revocation && (await this.revocation.isRevoked(claims))) return undefined;
    return claims;
  }

  private async verifySignature(token: string): Promise<TokenClaims | undefined> {
    let payload: JWTPayload;
    let protectedHeader: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader } = await jwtVerify(token, (header) => this.keyFor(header.kid), {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: [ALGORITHM],
      }));
    } catch {
      return undefined;
    }
    const { sub, exp, rev, claimed_by: claimedBy } = payload;
    if (typeof sub !== 'string' || typeof exp !== 'number' || protectedHeader.kid === undefined) return undefined;
    if (rev !== undefined && !Number.isSafeInteger(rev)) return undefined;
    if (claimedBy !== undefined && typeof claimedBy !== 'string') return undefined;
    return {
      subject: sub,
      expiresAt: exp,
      kid: protectedHeader.kid,
      revision: (rev as number | undefined) ?? 0,
      ...(claimedBy !== undefined ? { claimedBy } : {}),
    };
  }

  /** The token's signing key is usable, and not retired longer than such a token lives. */
  private trusts(claims: TokenClaims): boolean {
    const key = this.keys.get(claims.kid);
    if (!key) return false;
    if (key.retiredOn === undefined) return true;
    const lifetime = isRunTokenSubject(claims.subject) ? this.lifetimes.runTokenTtlSeconds : this.lifetimes.tokenTtlSeconds;
    return Date.now() < key.retiredOn + RETIREMENT_HANDOVER_MS + lifetime * 1000;
  }

  private async keyFor(kid: string | undefined): Promise<SigningKey['publicKey']> {
    if (kid === undefined) throw new Error('token without kid');
    const seen = this.reloads;
    let key = this.keys.get(kid);
    if (!key && !this.inventedKids.has(kid)) {
      // Perhaps a key made by another instance since our last look: read the keys again.
      await this.reloadAfter(seen);
      key = this.keys.get(kid);
      // Not there in a read that began after the token arrived: no key had that kid when it was
      // signed, and kids are random, so none ever will. Later tokens naming it are refused at once.
      if (!key) {
        if (this.inventedKids.size >= 10_000) this.inventedKids.clear();
        this.inventedKids.add(kid);
      }
    }
    if (!key) throw new Error('unknown signing key');
    return key.publicKey;
  }

  /**
   * Returns once a reload that started after `seen` has finished. Reloads for unknown kids happen at
   * most once a second and are shared by every request waiting: a flood of tokens with invented kids
   * costs one read a second, and a real new key is trusted at the latest a second after it is seen
   * (a reload that began just before the key was made does not count).
   */
  private async reloadAfter(seen: number): Promise<void> {
    while (this.reloads === seen) {
      const wait = this.lastReload + UNKNOWN_KID_RELOAD_MS - Date.now();
      if (this.reloading) await this.reloading.catch(() => undefined);
      else if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else await this.reload().catch((error: unknown) => this.log.warn({ err: error }, 'reading the token signing keys failed'));
    }
    await this.reloading?.catch(() => undefined);
  }

  /** The published keys: every usable key that still verifies some token. */
  jwks(): { keys: JWK[] } {
    const now = Date.now();
    const trustMs = this.retiredKeyTrustMs();
    return {
      keys: [...this.keys.values()]
        .filter((key) => key.retiredOn === undefined || now < key.retiredOn + trustMs)
        .map((key) => key.publicJwk),
    };
  }
}
