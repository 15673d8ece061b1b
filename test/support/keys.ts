import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { sql } from 'kysely';
import type { ApiClient, Response } from './client.js';
import type { TestServer } from './server.js';
import { blockyardArgs } from './blockyard-command.js';

/** The master key every test server starts with (test/support/server.ts). */
export const TEST_MASTER_KEY = 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=';

/** The id the server writes into every value it seals under this master key (`v2:<key id>:…`, README "Secrets"). */
export const keyIdOf = (masterKeyBase64: string) =>
  createHmac('sha256', Buffer.from(masterKeyBase64, 'base64')).update('blockyard/key-id').digest('hex').slice(0, 16);

/**
 * Opens a value sealed at rest as someone holding the database and the master key could: AES-256-GCM
 * under HMAC-SHA256(master key, "blockyard/encryption"), base64 of IV ‖ tag ‖ ciphertext.
 */
export function openSealed(masterKeyBase64: string, sealed: string): string {
  const body = /^v1:(.*)$/s.exec(sealed)?.[1] ?? /^v2:[0-9a-f]{16}:(.*)$/s.exec(sealed)?.[1];
  assert.ok(body !== undefined, `a sealed value: ${sealed.slice(0, 20)}`);
  const raw = Buffer.from(body, 'base64');
  const key = createHmac('sha256', Buffer.from(masterKeyBase64, 'base64')).update('blockyard/encryption').digest();
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The key id (`kid`) in a token's header. */
export const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;

/** The kids the server publishes at `/oauth/jwks`. */
export async function publishedKids(client: ApiClient): Promise<string[]> {
  const response = await client.get('/oauth/jwks', { anonymous: true });
  assert.equal(response.status, 200, response.text);
  return (response.json.keys as { kid: string }[]).map((key) => key.kid).sort();
}

export interface StoredSigningKey {
  kid: string;
  publicJwk: JWK;
  sealedPrivateJwk: string;
  createdOn: string;
  retiredOn: string | null;
}

/** The signing keys as stored, read from the server's database (what a copy of the database holds). */
export async function storedSigningKeys(server: TestServer): Promise<StoredSigningKey[]> {
  const { rows } = await sql<{
    kid: string;
    public_jwk: string;
    private_jwk_encrypted: string;
    created_on: string;
    retired_on: string | null;
  }>`select * from signing_keys order by created_on`.execute(server.server.database.db);
  return rows.map((row) => ({
    kid: row.kid,
    publicJwk: JSON.parse(row.public_jwk) as JWK,
    sealedPrivateJwk: row.private_jwk_encrypted,
    createdOn: row.created_on,
    retiredOn: row.retired_on,
  }));
}

/**
 * A token forged as an attacker with a copy of the database and the master key it was sealed under
 * would: the private signing key opened, the claims of a real token with a fresh id and lifetime.
 */
/** Seals a value as the server does under `masterKeyBase64` (the inverse of openSealed). */
export function sealWith(masterKeyBase64: string, plaintext: string): string {
  const iv = randomBytes(12);
  const key = createHmac('sha256', Buffer.from(masterKeyBase64, 'base64')).update('blockyard/encryption').digest();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v2:${keyIdOf(masterKeyBase64)}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export async function forgeToken(
  key: StoredSigningKey,
  masterKeyBase64: string,
  like: string,
  claims: Record<string, unknown> = {},
): Promise<string> {
  const privateJwk = JSON.parse(openSealed(masterKeyBase64, key.sealedPrivateJwk)) as JWK;
  return signWith(privateJwk, key.kid, like, claims);
}

/** A token like `like` (issuer, audience, subject, revision), signed with this private key under this kid, valid from now for as long as `like` was. */
export async function signWith(privateJwk: JWK, kid: string, like: string, claims: Record<string, unknown> = {}): Promise<string> {
  const original = decodeJwt(like);
  const now = Math.floor(Date.now() / 1000);
  const lifetime = (original.exp ?? now + 300) - (original.iat ?? now);
  return new SignJWT({ ...original, iat: now, exp: now + lifetime, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .sign(await importJWK(privateJwk, 'ES256'));
}

/** Runs `blockyard admin <args>` as an operator would, as a child process with the server's configuration (and `env` on top). */
export function runAdmin(
  server: TestServer,
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, blockyardArgs(['admin', ...args]), {
    env: { ...process.env, ...server.env, BLOCKYARD_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every sealed value stored anywhere in the database (each table's rows as text), with its master key id (`v1` for values from before key ids). */
export async function sealedValuesAtRest(server: TestServer): Promise<{ table: string; keyId: string }[]> {
  const { db, dialect } = server.server.database;
  const tables =
    dialect === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(db))
          .rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
  const found: { table: string; keyId: string }[] = [];
  for (const { name } of tables) {
    const { rows } = await sql`select * from ${sql.table(name)}`.execute(db);
    const text = JSON.stringify(rows);
    for (const match of text.matchAll(/(?<![A-Za-z0-9])v([12]):(?:([0-9a-f]{16}):)?[A-Za-z0-9+/]{16,}/g))
      found.push({ table: name, keyId: match[1] === '1' ? 'v1' : match[2]! });
  }
  return found;
}

/** Polls `attempt` every 200 ms until its response has `status`, for at most `withinMs`; answers how long that took. */
export async function untilStatus(what: string, status: number, attempt: () => Promise<Response>, withinMs: number): Promise<number> {
  const start = Date.now();
  let last: Response | undefined;
  for (;;) {
    last = await attempt();
    if (last.status === status) return Date.now() - start;
    if (Date.now() - start > withinMs)
      assert.fail(`${what}: still ${last.status} after ${withinMs} ms, expected ${status}: ${last.text.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
