import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { sql } from 'kysely';
import { runAdminCommand } from '../src/admin-cli.js';
import { loadConfig } from '../src/config.js';
import type { ApiClient } from './support/client.js';
import { skipUnless } from './support/databases.js';
import { API_KEY, clientWithKey, login, type KeyCredentials } from './support/identity.js';
import { forgeToken, kidOf, publishedKids, sealWith, signWith, sleep, storedSigningKeys, TEST_MASTER_KEY } from './support/keys.js';
import { describeEachDatabase, startTestServer, startInstanceOf, type TestServer } from './support/server.js';
import { unique } from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
/** Short-lived tokens, so the tests see tokens from before a rotation expire. */
const TTL_SECONDS = 5;
/** A retired key's tokens are trusted until its retirement + 10 s (instances follow within 5 s, plus clock skew) + their lifetime (README "Tokens"). */
const HANDOVER_MS = 10_000;

const listKeys = (client: ApiClient, token: string) => client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } });

/** `blockyard admin rotate-signing-key` against the server's database, called as the CLI calls it; answers the new kid and the retired ones. */
async function rotateSigningKey(server: TestServer): Promise<{ kid: string; retired: string[] }> {
  let printed = '';
  await runAdminCommand(loadConfig({ ...server.env, BLOCKYARD_LOG_LEVEL: 'warn' }), ['rotate-signing-key'], (line) => (printed += line));
  const kid = /new token signing key (\S+);/.exec(printed)?.[1];
  assert.ok(kid, printed);
  return { kid, retired: /retired (\S+(?:, \S+)*):/.exec(printed)?.[1]?.split(', ') ?? [] };
}

/** Logs in until the token's kid is `kid` (instances sign with the newest key within 5 s); answers that token. */
async function tokenSignedWith(client: ApiClient, key: KeyCredentials, kid: string): Promise<string> {
  const deadline = Date.now() + 6_500;
  for (;;) {
    const token = await login(client, key);
    if (kidOf(token) === kid) return token;
    assert.ok(Date.now() < deadline, `tokens are still signed with ${kidOf(token)}, not the new key ${kid}`);
    await sleep(250);
  }
}

describeEachDatabase(
  'token signing keys',
  (ctx) => {
    let workspace: string;
    before(() => {
      workspace = unique('sign');
    });

    it('neither trusts nor publishes a signing key the master key cannot open (one written into the database by someone else)', async () => {
      const { token } = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST']);
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = randomUUID();
      const privateJwk = await exportJWK(privateKey);
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
      // Newer than every real key, its private half sealed under another master key.
      const createdOn = new Date(Date.now() + 1000).toISOString();
      await ctx.server.server.database.db
        .transaction()
        .execute((trx) =>
          sql`insert into signing_keys (kid, public_jwk, private_jwk_encrypted, created_on) values (${kid}, ${JSON.stringify(publicJwk)}, ${sealWith(randomBytes(32).toString('base64'), JSON.stringify(privateJwk))}, ${createdOn})`.execute(
            trx,
          ),
        );
      await sleep(1100); // an unknown kid makes the server read the keys again, at most once a second
      const forged = await signWith(privateJwk, kid, token);
      assert.equal((await listKeys(ctx.client, forged)).status, 401, 'a token signed with the injected key');
      assert.ok(!(await publishedKids(ctx.client)).includes(kid), 'the injected key is not published');
      assert.equal((await listKeys(ctx.client, token)).status, 200, 'real tokens still work');
      const { token: fresh } = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST']);
      assert.notEqual(kidOf(fresh), kid, 'the injected key does not sign');
      assert.equal((await listKeys(ctx.client, fresh)).status, 200);
    });

    it('rotate-signing-key: new tokens use the new key within 5 s; tokens from before work until they expire and not after; a token forged with the old key from a copy of the database is refused once its tokens have expired', async () => {
      const { key, token: earlier } = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST']);
      const oldKid = kidOf(earlier);
      const stored = (await storedSigningKeys(ctx.server)).find((k) => k.kid === oldKid)!;
      const rotated = await rotateSigningKey(ctx.server);
      const rotatedAt = Date.now();
      assert.notEqual(rotated.kid, oldKid);
      assert.ok(rotated.retired.includes(oldKid), `the old key is retired: ${JSON.stringify(rotated)}`);
      const rows = await storedSigningKeys(ctx.server);
      assert.ok(rows.find((k) => k.kid === oldKid)?.retiredOn, 'the retirement is recorded');
      assert.equal(rows.find((k) => k.kid === rotated.kid)?.retiredOn, null);

      assert.equal((await listKeys(ctx.client, earlier)).status, 200, 'a token from before the rotation works');
      const later = await tokenSignedWith(ctx.client, key, rotated.kid);
      assert.equal((await listKeys(ctx.client, later)).status, 200);
      const kids = await publishedKids(ctx.client);
      assert.ok(
        kids.includes(oldKid) && kids.includes(rotated.kid),
        `both keys are published while the old one's tokens live: ${kids.join(', ')}`,
      );

      await sleep(Math.max(0, decodeJwt(earlier).exp! * 1000 - Date.now() + 1000));
      assert.equal((await listKeys(ctx.client, earlier)).status, 401, 'the token from before, expired');
      await sleep(Math.max(0, rotatedAt + HANDOVER_MS + TTL_SECONDS * 1000 + 500 - Date.now()));
      const forged = await forgeToken(stored, TEST_MASTER_KEY, later);
      assert.equal(decodeJwt(forged).sub, key.clientId);
      assert.equal((await listKeys(ctx.client, forged)).status, 401, 'a fresh token forged with the retired key');
      assert.equal((await listKeys(ctx.client, await login(ctx.client, key))).status, 200);
    });

    it('rotates by itself when the signing key is 30 days old, retiring the old key the same way', async () => {
      const { key, token } = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST']);
      const kid = kidOf(token);
      const monthAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
      await ctx.server.server.database.db
        .transaction()
        .execute((trx) => sql`update signing_keys set created_on = ${monthAgo} where kid = ${kid}`.execute(trx));
      const deadline = Date.now() + 6_500;
      let next = token;
      while (kidOf(next) === kid) {
        assert.ok(Date.now() < deadline, 'no new signing key after 6.5 s');
        await sleep(250);
        next = await login(ctx.client, key);
      }
      const rows = await storedSigningKeys(ctx.server);
      assert.ok(rows.find((k) => k.kid === kid)?.retiredOn, 'the old key is retired');
      assert.equal(rows.find((k) => k.kid === kidOf(next))?.retiredOn, null);
      assert.equal((await listKeys(ctx.client, next)).status, 200);
      assert.ok((await publishedKids(ctx.client)).includes(kid), 'the old key stays published while its tokens may live');
    });
  },
  { BLOCKYARD_TOKEN_TTL_SECONDS: String(TTL_SECONDS) },
);

describe('token signing keys across instances on PostgreSQL', { skip: skipUnless('postgres') }, () => {
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    a = await startTestServer('postgres');
    b = await startInstanceOf(a);
  });

  after(async () => {
    await b?.server.close();
    await a?.stop();
  });

  it('every instance trusts a new signing key at once and signs with it within 5 s', async () => {
    const { key, token } = await clientWithKey(a.client, unique('sign'), ['APIKEY_LIST']);
    assert.equal((await listKeys(b.client, token)).status, 200);
    const rotated = await rotateSigningKey(a);
    const fromA = await tokenSignedWith(a.client, key, rotated.kid);
    assert.equal((await listKeys(b.client, fromA)).status, 200, 'the other instance verifies the new key’s tokens');
    const fromB = await tokenSignedWith(b.client, key, rotated.kid);
    assert.equal((await listKeys(a.client, fromB)).status, 200);
    assert.equal((await listKeys(b.client, token)).status, 200, 'tokens from before still work everywhere');
    for (const server of [a, b])
      assert.ok((await publishedKids(server.client)).includes(rotated.kid), 'both instances publish the new key');
  });
});
