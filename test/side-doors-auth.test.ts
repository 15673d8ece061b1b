/**
 * Authentication's side doors: every failed authentication counts against the client address, whatever
 * the scheme (Basic, client credentials, API key tokens, run tokens, SCIM tokens), so neither another
 * scheme nor a rotation of presented key ids and usernames gives an address more tries than its budget;
 * the budget is the deployment's, not an instance's, on PostgreSQL. Each attack as an attacker would
 * try it: forged tokens that look valid, naming keys and runs that may exist.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ApiClient, Response } from './support/client.js';
import { media } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { RUN, RUNS } from './support/runs.js';
import { basic, describeEachDatabase, startInstanceOf, startTestServer, type TestServer } from './support/server.js';
import { createWorkspace, unique } from './support/structure.js';

// The documented defaults (docs/security.md "Authentication throttling"): the suite runs with them.
const ADDRESS_LIMIT = 50;
const WINDOW_SECONDS = 300;
const USERS = '/api/admin/apiusers';
const USER = media('apiuser', 'v1');
const TRUSTING_LOOPBACK = { BLOCKYARD_TRUSTED_PROXIES: '127.0.0.1' };

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
// One invented signing key id for the file: the first token naming it waits for a reload of the keys
// (at most one a second), later ones are refused at once, which keeps the file fast.
const INVENTED_KID = randomUUID();
/** A token as ours look (ES256, a key id, our audience), signed by nobody: what a guesser sends. */
function forgedToken(subject: string): string {
  const now = Math.floor(Date.now() / 1000);
  const header = encode({ alg: 'ES256', kid: INVENTED_KID, typ: 'JWT' });
  const payload = encode({ iss: 'blockyard', aud: 'blockyard-api', sub: subject, iat: now, exp: now + 300, jti: randomUUID() });
  return `${header}.${payload}.${randomBytes(64).toString('base64url')}`;
}
const forgedScimToken = () => `byscim_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)}`;

/** One failed authentication of each kind, from `address`, each naming an identity of its own. */
function attempts(client: ApiClient, address: string) {
  const from = { 'x-forwarded-for': address };
  return {
    basic: () => client.get(USERS, { headers: { ...from, accept: USER, authorization: basic(unique('guessed-user'), 'wrong-password') } }),
    clientCredentials: () =>
      client.post(
        '/api/login',
        { client_id: unique('guessed-client'), client_secret: 'wrong-secret' },
        { anonymous: true, headers: { ...from, 'content-type': 'application/json' } },
      ),
    apiKeyToken: () => client.get(USERS, { headers: { ...from, accept: USER, authorization: `Bearer ${forgedToken(randomUUID())}` } }),
    runToken: () =>
      client.get(`${RUNS}/${randomUUID()}`, {
        headers: { ...from, accept: RUN, authorization: `Bearer ${forgedToken(`run:${randomUUID()}`)}` },
      }),
    stateBackendRunToken: () =>
      client.get(`/api/terraform/state/workspace/${unique('ws')}/buildingBlock/${randomUUID()}`, {
        headers: { ...from, authorization: basic(unique('runner'), forgedToken(`run:${randomUUID()}`)) },
      }),
    scimToken: () =>
      client.get('/scim/v2/Users', { headers: { ...from, accept: 'application/scim+json', authorization: `Bearer ${forgedScimToken()}` } }),
  };
}

function assertThrottled(answer: Response, what: string): void {
  assert.equal(answer.status, 429, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  const retryAfter = Number(answer.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_SECONDS, `${what}: Retry-After ${answer.headers['retry-after']}`);
  assert.match(answer.text, /too many failed authentication attempts/);
}

/**
 * An instance judges by the other instances' failures as they are in the database at its last read of
 * them: each failure is written as it happens, a view is at most 250 ms old and waited for at most
 * 200 ms (src/auth/failed-attempts.ts), so on a busy database (CI's, with every suite's commits) a
 * check may still be judged without the latest. After another instance spent the budget, an instance
 * must refuse within this many attempts a quarter of a second apart: far fewer than its own failures
 * would need to reach the limit alone, so a refusal within them is the shared budget's.
 */
const OTHERS_VIEW_ATTEMPTS = 10;

async function throttledWithin(attempt: () => Promise<Response>, what: string): Promise<void> {
  for (let tried = 1; tried <= OTHERS_VIEW_ATTEMPTS; tried++) {
    const answer = await attempt();
    if (answer.status === 429) return assertThrottled(answer, what);
    assert.ok([200, 401].includes(answer.status), `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${what}: not refused within ${OTHERS_VIEW_ATTEMPTS} attempts`);
}

async function fail(times: number, attempt: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await attempt()).status);
  return statuses;
}

describeEachDatabase(
  'failed authentication is limited per client address, whatever the scheme',
  (ctx) => {
    let lastAddress = 0;
    const newAddress = () => `203.0.113.${++lastAddress}`;
    let validToken: string;
    const readAs = (client: ApiClient, token: string, address: string) =>
      client.get(USERS, { headers: { accept: USER, authorization: `Bearer ${token}`, 'x-forwarded-for': address } });

    before(async () => {
      const workspace = unique('side-doors');
      await createWorkspace(ctx.client, workspace);
      ({ token: validToken } = await clientWithKey(ctx.client, workspace, ['ADM_USER_LIST']));
    });

    it('forged API key tokens, each naming another key: 401 up to the address limit, then 429 before the token is looked at', async () => {
      const attacker = newAddress();
      const { apiKeyToken } = attempts(ctx.client, attacker);
      assert.deepEqual(await fail(ADDRESS_LIMIT, apiKeyToken), Array(ADDRESS_LIMIT).fill(401));
      for (let i = 0; i < 3; i++) assertThrottled(await apiKeyToken(), 'a forged token over the limit');
      // The address is refused before its credential is checked: a valid token too (else the limit would be an oracle).
      assertThrottled(await readAs(ctx.client, validToken, attacker), 'a valid token from the throttled address');
      assert.equal((await readAs(ctx.client, validToken, newAddress())).status, 200, 'the key works from elsewhere: it failed nowhere');
    });

    it('rotating schemes and identities does not multiply the budget: usernames, client ids, key tokens, run tokens and SCIM tokens share one', async () => {
      const attacker = newAddress();
      const kinds = Object.entries(attempts(ctx.client, attacker));
      const statuses: number[] = [];
      for (let i = 0; i < ADDRESS_LIMIT; i++) statuses.push((await kinds[i % kinds.length]![1]()).status);
      assert.deepEqual(statuses, Array(ADDRESS_LIMIT).fill(401));
      for (const [kind, attempt] of kinds) assertThrottled(await attempt(), kind);
    });

    it('invalid run tokens and SCIM tokens alone exhaust the address; the SCIM refusal is in SCIM’s format', async () => {
      const attacker = newAddress();
      const { runToken, scimToken } = attempts(ctx.client, attacker);
      assert.deepEqual(await fail(ADDRESS_LIMIT / 2, runToken), Array(ADDRESS_LIMIT / 2).fill(401));
      assert.deepEqual(await fail(ADDRESS_LIMIT / 2, scimToken), Array(ADDRESS_LIMIT / 2).fill(401));
      assertThrottled(await runToken(), 'a forged run token');
      const scim = await scimToken();
      assertThrottled(scim, 'a forged SCIM token');
      assert.equal(scim.json.status, '429');
      assert.deepEqual(scim.json.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
    });

    it('a success from the address does not give back the failures before it', async () => {
      const attacker = newAddress();
      const { apiKeyToken } = attempts(ctx.client, attacker);
      assert.deepEqual(await fail(ADDRESS_LIMIT - 1, apiKeyToken), Array(ADDRESS_LIMIT - 1).fill(401));
      assert.equal((await readAs(ctx.client, validToken, attacker)).status, 200);
      assert.equal((await apiKeyToken()).status, 401);
      assertThrottled(await apiKeyToken(), 'the failure after the success');
    });

    it('PostgreSQL: a second instance on the same database spends the same address budget', async (t) => {
      if (ctx.server.dialect !== 'postgres') return t.skip('one instance per SQLite database');
      const second = await startInstanceOf(ctx.server, { env: TRUSTING_LOOPBACK });
      try {
        const attacker = newAddress();
        const [first, other] = [attempts(ctx.client, attacker), attempts(second.client, attacker)];
        assert.deepEqual(await fail(30, first.apiKeyToken), Array(30).fill(401));
        await new Promise((resolve) => setTimeout(resolve, 600));
        assert.deepEqual(await fail(ADDRESS_LIMIT - 30, other.runToken), Array(ADDRESS_LIMIT - 30).fill(401));
        await new Promise((resolve) => setTimeout(resolve, 600));
        // Each instance alone has failed 30 and 20 times of the 50: only the other's count refuses it.
        await throttledWithin(first.basic, 'the first instance, after the second spent the rest');
        await throttledWithin(other.scimToken, 'the second instance');
        assertThrottled(await readAs(second.client, validToken, attacker), 'a valid token on the second instance');
      } finally {
        await second.stop();
      }
    });

    describe('without a trusted proxy', () => {
      let untrusting: TestServer;
      before(async () => {
        untrusting = await startTestServer(ctx.server.dialect);
      });
      after(async () => {
        await untrusting?.stop();
      });

      it('X-Forwarded-For does not let a client choose its address: the peer is throttled', async () => {
        let spoofed = 0;
        const forged = () => attempts(untrusting.client, `198.18.0.${++spoofed}`).apiKeyToken();
        assert.deepEqual(await fail(ADDRESS_LIMIT, forged), Array(ADDRESS_LIMIT).fill(401));
        assertThrottled(await forged(), 'a forged token under yet another X-Forwarded-For');
      });
    });
  },
  TRUSTING_LOOPBACK,
);
