import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { ApiClient } from './support/client.js';
import { media } from './support/client.js';
import { skipUnless } from './support/databases.js';
import { API_KEY, clientWithKey, createKey, login, type KeyCredentials } from './support/identity.js';
import { untilStatus } from './support/keys.js';
import {
  asRun,
  claimRun,
  createBlock,
  getRun,
  registerRunner,
  report,
  runnerDefinition,
  runWorld,
  tenantTarget,
  type RunWorld,
} from './support/runs.js';
import { basic, describeEachDatabase, startTestServer, startInstanceOf, type TestServer } from './support/server.js';
import { unique, type Json } from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
const USERS = '/api/admin/apiusers';
const USER = media('apiuser', 'v1');
const BLOCK_LIST = `/api/meshobjects/meshbuildingblocks?workspaceIdentifier=`;
const BLOCK = media('meshbuildingblock', 'v2-preview');
/** Every instance follows a change within 5 s (README "Tokens"); polls allow this much for slow machines. */
const WITHIN_MS = 6_500;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const listKeys = (client: ApiClient, token: string) => client.get(KEYS, { headers: { accept: API_KEY, ...bearer(token) } });
const listBlocks = (client: ApiClient, token: string, workspace: string) =>
  client.get(`${BLOCK_LIST}${workspace}`, { headers: { accept: BLOCK, ...bearer(token) } });
const keyBody = (workspace: string, permissions: string[], expiresAt?: string) => ({
  metadata: { ownedByWorkspace: workspace },
  spec: { displayName: 'revocation', permissions, ...(expiresAt ? { expiresAt } : {}) },
});
const putKey = (client: ApiClient, uuid: string, body: Json) =>
  client.put(`${KEYS}/${uuid}`, body, { headers: { accept: API_KEY, 'content-type': API_KEY } });

/** Moves a run's end into the past in the database (runs end for real only now; the grace period is 10 minutes). */
async function endedMinutesAgo(server: TestServer, runUuid: string, minutes: number): Promise<void> {
  const at = new Date(Date.now() - minutes * 60_000).toISOString();
  await server.server.database.db
    .transaction()
    .execute((trx) => sql`update runs set ended_on = ${at}, updated_on = ${at} where uuid = ${runUuid}`.execute(trx));
}

/** A run of a fresh block on a fresh private runner of the world's provider, claimed by `claimer`. */
async function claimedRun(
  admin: ApiClient,
  w: RunWorld,
  claimer: ApiClient,
): Promise<{ uuid: string; token: string; asRunner: ApiClient }> {
  const runner = (await registerRunner(admin, w.provider)).metadata.uuid as string;
  const definition = await runnerDefinition(admin, w.provider, runner);
  await createBlock(admin, { versionUuid: definition.versionUuid, target: tenantTarget(w.tenantUuid) });
  const run = await claimRun(claimer, runner);
  return { uuid: run.metadata.uuid as string, token: run.spec.runToken as string, asRunner: asRun(admin, run) };
}

describeEachDatabase('revocation that takes effect', (ctx) => {
  let world: Promise<RunWorld> | undefined;
  const runs = () => (world ??= runWorld(ctx.client));

  it('refuses tokens obtained with a secret once it is rotated (rotate-secret, and a PUT changing expiresAt), at once', async () => {
    const workspace = (await runs()).provider;
    const key = await createKey(ctx.client, workspace, ['APIKEY_LIST'], { expiresAt: '2099-12-31' });
    const first = await login(ctx.client, key);
    assert.equal((await listKeys(ctx.client, first)).status, 200);

    const rotated = await ctx.client.post(`${KEYS}/${key.uuid}/rotate-secret`, undefined, { headers: { accept: API_KEY } });
    assert.equal(rotated.status, 200, rotated.text);
    const refused = await listKeys(ctx.client, first);
    assert.equal(refused.status, 401, `a token of the rotated secret: ${refused.text}`);
    assert.equal(refused.json.errorCode, 'Unauthorized');
    const second = await login(ctx.client, { clientId: key.clientId, clientSecret: rotated.json.status.clientSecret });
    assert.equal((await listKeys(ctx.client, second)).status, 200, 'a token of the new secret works');

    // A rename keeps the secret and its tokens; a changed expiresAt rotates it (COMPAT §5).
    assert.equal(
      (
        await putKey(ctx.client, key.uuid, {
          ...keyBody(workspace, ['APIKEY_LIST'], '2099-12-31'),
          spec: { displayName: 'renamed', permissions: ['APIKEY_LIST'], expiresAt: '2099-12-31' },
        })
      ).status,
      200,
    );
    assert.equal((await listKeys(ctx.client, second)).status, 200, 'a rename does not revoke');
    const extended = await putKey(ctx.client, key.uuid, keyBody(workspace, ['APIKEY_LIST'], '2100-01-31'));
    assert.equal(extended.status, 200, extended.text);
    assert.match(extended.json.status.clientSecret, /^[A-Za-z0-9]{40}$/);
    assert.equal((await listKeys(ctx.client, second)).status, 401, 'a token of the secret a PUT rotated');
    const third = await login(ctx.client, { clientId: key.clientId, clientSecret: extended.json.status.clientSecret });
    assert.equal((await listKeys(ctx.client, third)).status, 200);
  });

  it('takes a permission removed from a key away from its existing token at once, and keeps the rest', async () => {
    const workspace = (await runs()).provider;
    const { key, token } = await clientWithKey(ctx.client, workspace, ['APIKEY_LIST', 'BUILDINGBLOCK_LIST']);
    assert.equal((await listBlocks(ctx.client, token, workspace)).status, 200);
    const shrunk = await putKey(ctx.client, key.uuid, keyBody(workspace, ['APIKEY_LIST']));
    assert.equal(shrunk.status, 200, shrunk.text);
    assert.equal(shrunk.json.status.clientSecret, null, 'no rotation');
    assert.equal((await listBlocks(ctx.client, token, workspace)).status, 403, 'the removed permission is gone from the token');
    assert.equal((await listKeys(ctx.client, token)).status, 200, 'the token itself still works');
  });

  it('accepts a run token for final reports after its run ended, and refuses it once the grace period (10 minutes) has passed', async () => {
    const w = await runs();
    const claimer = (await clientWithKey(ctx.client, w.provider, ['MANAGED_BUILDINGBLOCKRUN_SAVE'])).client;
    const run = await claimedRun(ctx.client, w, claimer);
    assert.equal(await report(run.asRunner, run.uuid, 'ci', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED' }] }), false);
    // CI actions report once more after the end (the last step, logs): answered, nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    assert.equal(
      await report(run.asRunner, run.uuid, 'ci', { steps: [{ id: 'logs', status: 'SUCCEEDED', systemMessage: 'done' }] }),
      false,
    );
    assert.equal((await getRun(run.asRunner, run.uuid)).status, 200);

    await endedMinutesAgo(ctx.server, run.uuid, 9);
    assert.equal((await getRun(run.asRunner, run.uuid)).status, 200, 'nine minutes after the end');
    await endedMinutesAgo(ctx.server, run.uuid, 11);
    await untilStatus('the run token 11 minutes after its run ended', 401, () => getRun(run.asRunner, run.uuid), WITHIN_MS);
    const late = await run.asRunner.patch(
      `/api/meshobjects/meshbuildingblockruns/${run.uuid}/status/source/ci`,
      { steps: [] },
      { headers: { accept: media('meshbuildingblockrun', 'v1'), 'content-type': media('meshbuildingblockrun', 'v1') } },
    );
    assert.equal(late.status, 401, late.text);
  });

  it('refuses a run token at once when the API key that claimed the run is deleted, or the API user', async () => {
    const w = await runs();
    const claimer = await clientWithKey(ctx.client, w.provider, ['MANAGED_BUILDINGBLOCKRUN_SAVE']);
    const byKey = await claimedRun(ctx.client, w, claimer.client);
    assert.equal((await getRun(byKey.asRunner, byKey.uuid)).status, 200);
    assert.equal((await ctx.client.delete(`${KEYS}/${claimer.key.uuid}`)).status, 204);
    assert.equal((await getRun(byKey.asRunner, byKey.uuid)).status, 401, 'the claiming key is gone');

    const username = unique('runner-user');
    const password = `pw-${unique('secret')}`;
    assert.equal((await ctx.client.post(USERS, { username, password }, { headers: { accept: USER, 'content-type': USER } })).status, 201);
    const byUser = await claimedRun(ctx.client, w, ctx.client.with({ authorization: basic(username, password) }));
    assert.equal((await getRun(byUser.asRunner, byUser.uuid)).status, 200);
    assert.equal((await ctx.client.delete(`${USERS}/${username}`)).status, 204);
    assert.equal((await getRun(byUser.asRunner, byUser.uuid)).status, 401, 'the claiming API user is gone');
  });
});

/**
 * The same on every instance within 5 s: two instances on one PostgreSQL database;
 * each change is made on the first and must reach the second, whose caches were warm.
 */
describe('revocation across instances on PostgreSQL', { skip: skipUnless('postgres') }, () => {
  let a: TestServer;
  let b: TestServer;
  let w: RunWorld;

  before(async () => {
    a = await startTestServer('postgres');
    b = await startInstanceOf(a);
    w = await runWorld(a.client);
  });

  after(async () => {
    await b?.server.close();
    await a?.stop();
  });

  it('refuses a token of a rotated secret on the other instance within 5 s', async () => {
    const key: KeyCredentials = await createKey(a.client, w.provider, ['APIKEY_LIST']);
    const token = await login(a.client, key);
    assert.equal((await listKeys(b.client, token)).status, 200);
    assert.equal((await a.client.post(`${KEYS}/${key.uuid}/rotate-secret`, undefined, { headers: { accept: API_KEY } })).status, 200);
    assert.equal((await listKeys(a.client, token)).status, 401, 'at once on the instance that rotated');
    await untilStatus('a token of the rotated secret on the other instance', 401, () => listKeys(b.client, token), WITHIN_MS);
  });

  it('takes a removed permission away from a token on the other instance within 5 s', async () => {
    const { key, token } = await clientWithKey(a.client, w.provider, ['APIKEY_LIST', 'BUILDINGBLOCK_LIST']);
    assert.equal((await listBlocks(b.client, token, w.provider)).status, 200);
    assert.equal((await putKey(a.client, key.uuid, keyBody(w.provider, ['APIKEY_LIST']))).status, 200);
    await untilStatus('the removed permission on the other instance', 403, () => listBlocks(b.client, token, w.provider), WITHIN_MS);
    assert.equal((await listKeys(b.client, token)).status, 200);
  });

  it('refuses a deleted API user, and an API user’s old password, on the other instance within 5 s', async () => {
    const username = unique('user');
    const password = `pw-${unique('secret')}`;
    assert.equal((await a.client.post(USERS, { username, password }, { headers: { accept: USER, 'content-type': USER } })).status, 201);
    const asUser = (server: TestServer, pass: string) =>
      server.client.get(KEYS, { headers: { accept: API_KEY, authorization: basic(username, pass) } });
    assert.equal((await asUser(b, password)).status, 200);
    assert.equal((await a.client.delete(`${USERS}/${username}`)).status, 204);
    assert.equal((await asUser(a, password)).status, 401, 'at once on the instance that deleted it');
    await untilStatus('a deleted API user on the other instance', 401, () => asUser(b, password), WITHIN_MS);

    // A new password, set by an instance starting with it as its bootstrap user (a rolling restart).
    const admin = `admin-${unique('u')}`;
    const oldPassword = `old-${unique('password')}`;
    const newPassword = `new-${unique('password')}`;
    assert.equal(
      (await a.client.post(USERS, { username: admin, password: oldPassword }, { headers: { accept: USER, 'content-type': USER } })).status,
      201,
    );
    const asAdmin = (server: TestServer, pass: string) =>
      server.client.get(KEYS, { headers: { accept: API_KEY, authorization: basic(admin, pass) } });
    assert.equal((await asAdmin(a, oldPassword)).status, 200);
    assert.equal((await asAdmin(b, oldPassword)).status, 200);
    const c = await startInstanceOf(a, { env: { BLOCKYARD_ADMIN_USERNAME: admin, BLOCKYARD_ADMIN_PASSWORD: newPassword } });
    await c.server.close();
    for (const server of [a, b])
      await untilStatus('the old password on an instance that had verified it', 401, () => asAdmin(server, oldPassword), WITHIN_MS);
    assert.equal((await asAdmin(b, newPassword)).status, 200);
  });

  it('refuses a run token on the other instance within 5 s when the API key that claimed the run is deleted', async () => {
    const claimer = await clientWithKey(a.client, w.provider, ['MANAGED_BUILDINGBLOCKRUN_SAVE']);
    const run = await claimedRun(a.client, w, claimer.client);
    const onB = () => getRun(b.client.with(bearer(run.token)), run.uuid);
    assert.equal((await onB()).status, 200);
    assert.equal((await a.client.delete(`${KEYS}/${claimer.key.uuid}`)).status, 204);
    await untilStatus('a run token of a deleted claimer on the other instance', 401, onB, WITHIN_MS);
  });
});
