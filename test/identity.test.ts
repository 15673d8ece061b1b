import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { fetch } from 'undici';
import { media } from './support/client.js';
import { DIALECTS, postgresAvailable, skipUnless } from './support/databases.js';
import { API_KEY, clientWithKey, createKey, ensureWorkspace, login } from './support/identity.js';
import {
  basic,
  describeEachDatabase,
  startTestServer,
  TEST_ADMIN,
  UNLIMITED_AUTH_FAILURES,
  startInstanceOf,
  type TestServer,
} from './support/server.js';
import { blockyardArgs } from './support/blockyard-command.js';

const FORM = 'application/x-www-form-urlencoded';
const KEYS = '/api/meshobjects/meshapikeys';
const keyHeaders = { accept: API_KEY, 'content-type': API_KEY };

describeEachDatabase(
  'identity and access',
  (ctx) => {
    const secrets: string[] = [TEST_ADMIN.password];

    it('logs in with the spec form by following the 307 like a real HTTP client', async () => {
      const key = await createKey(ctx.client, 'ws-login', ['APIKEY_LIST']);
      secrets.push(key.clientSecret);
      const form = new URLSearchParams({
        client_id: key.clientId,
        client_secret: key.clientSecret,
        grant_type: 'client_credentials',
      }).toString();
      const first = await ctx.client.post('/api/login', form, { anonymous: true, headers: { 'content-type': FORM } });
      assert.equal(first.status, 307);
      assert.equal(first.headers.location, `${ctx.server.url}/oauth/token`);
      const followed = await fetch(`${ctx.server.url}/api/login`, {
        method: 'POST',
        body: form,
        headers: { 'content-type': FORM },
        dispatcher: ctx.client.agent,
        redirect: 'follow',
      });
      assert.equal(followed.status, 200);
      const token = (await followed.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(token).sort(), [
        'access_token',
        'expires_in',
        'not-before-policy',
        'refresh_expires_in',
        'scope',
        'token_type',
      ]);
      assert.equal(token.expires_in, 300);
      assert.ok(Number.isInteger(token.expires_in));
      assert.equal(token.refresh_expires_in, 0);
      assert.equal(token['not-before-policy'], 0);
      assert.equal(token.scope, 'profile email');
      assert.equal(token.token_type, 'Bearer');
      const use = await ctx.client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token.access_token as string}` } });
      assert.equal(use.status, 200);
    });

    it('answers JSON login directly with 200, and Basic client authentication at the token endpoint', async () => {
      const key = await createKey(ctx.client, 'ws-login', ['APIKEY_LIST']);
      secrets.push(key.clientSecret);
      const json = await ctx.client.post(
        '/api/login',
        { clientId: key.clientId, clientSecret: key.clientSecret },
        { anonymous: true, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(json.status, 200);
      assert.equal(json.json.expires_in, 300);
      const viaBasic = await ctx.client.post('/oauth/token', 'grant_type=client_credentials', {
        headers: { 'content-type': FORM, authorization: basic(key.clientId, key.clientSecret) },
      });
      assert.equal(viaBasic.status, 200);
      assert.equal(typeof viaBasic.json.access_token, 'string');
    });

    it('refuses a wrong secret with 401 and a missing or wrong grant_type with 400', async () => {
      const key = await createKey(ctx.client, 'ws-login', ['APIKEY_LIST']);
      secrets.push(key.clientSecret);
      const wrong = await ctx.client.post(
        '/oauth/token',
        new URLSearchParams({ client_id: key.clientId, client_secret: 'not-the-secret', grant_type: 'client_credentials' }).toString(),
        { anonymous: true, headers: { 'content-type': FORM } },
      );
      assert.equal(wrong.status, 401);
      assert.deepEqual(Object.keys(wrong.json).sort(), ['errorCode', 'errorId', 'message']);
      const json = await ctx.client.post(
        '/api/login',
        { clientId: key.clientId, clientSecret: 'nope' },
        { anonymous: true, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(json.status, 401);
      const unknown = await ctx.client.post(
        '/api/login',
        { clientId: 'no-such-client', clientSecret: 'nope' },
        { anonymous: true, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(unknown.status, 401);
      for (const grant of [undefined, 'password']) {
        const fields: Record<string, string> = { client_id: key.clientId, client_secret: key.clientSecret };
        if (grant) fields.grant_type = grant;
        const response = await ctx.client.post('/oauth/token', new URLSearchParams(fields).toString(), {
          anonymous: true,
          headers: { 'content-type': FORM },
        });
        assert.equal(response.status, 400, `grant_type ${grant}`);
        assert.match(response.json.message, /grant_type/);
      }
    });

    it('answers 401 with WWW-Authenticate for every protected route without or with bad credentials', async () => {
      const protectedRoutes = [...ctx.server.server.context.access.entries()].filter(([, access]) => access !== 'public');
      assert.ok(protectedRoutes.length > 5);
      for (const [route, access] of protectedRoutes) {
        const [method, path] = route.split(' ') as [string, string];
        if (method === 'HEAD') continue;
        const url = path.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000').replace('*', 'x');
        for (const authorization of [undefined, 'Bearer not-a-token', basic(TEST_ADMIN.username, 'wrong-password'), 'Digest abc']) {
          const response = await ctx.client.request(method, url, { headers: { authorization, accept: API_KEY } });
          assert.equal(response.status, 401, `${method} ${url} with ${authorization}`);
          assert.ok(response.headers['www-authenticate'], `${method} ${url}`);
          // SCIM routes answer in SCIM's error format.
          if (access === 'scim') assert.equal(response.json.status, '401');
          else assert.equal(response.json.errorCode, 'Unauthorized');
        }
      }
    });

    it('isolates workspaces: lists, reads, creates and deletes of another workspace are invisible or forbidden', async () => {
      const a = await clientWithKey(ctx.client, 'ws-a', ['APIKEY_LIST', 'APIKEY_SAVE', 'APIKEY_DELETE']);
      // A key grants only permissions it holds itself: B's key manager holds the code it hands on.
      const b = await clientWithKey(ctx.client, 'ws-b', ['APIKEY_LIST', 'APIKEY_SAVE', 'APIKEY_DELETE', 'BUILDINGBLOCK_LIST']);
      secrets.push(a.key.clientSecret, b.key.clientSecret);
      const inB = await createKey(b.client, 'ws-b', ['BUILDINGBLOCK_LIST']);
      secrets.push(inB.clientSecret);

      const listA = await a.client.get(KEYS, { headers: { accept: API_KEY } });
      assert.equal(listA.status, 200);
      const keysOfA: { metadata: { uuid: string; ownedByWorkspace: string } }[] = listA.json._embedded.meshApiKeys;
      assert.ok(
        keysOfA.some((k) => k.metadata.uuid === a.key.uuid),
        `A's own key is listed: ${listA.text}`,
      );
      assert.ok(keysOfA.every((k) => k.metadata.ownedByWorkspace === 'ws-a'));
      const listOther = await a.client.get(`${KEYS}?workspaceIdentifier=ws-b`, { headers: { accept: API_KEY } });
      assert.deepEqual(listOther.json._embedded.meshApiKeys, []);
      assert.equal(listOther.json.page.totalElements, 0);

      assert.equal((await a.client.get(`${KEYS}/${inB.uuid}`, { headers: { accept: API_KEY } })).status, 404);
      assert.equal((await a.client.delete(`${KEYS}/${inB.uuid}`)).status, 404);
      const put = await a.client.put(
        `${KEYS}/${inB.uuid}`,
        { metadata: { ownedByWorkspace: 'ws-b' }, spec: { displayName: 'x', permissions: [] } },
        { headers: keyHeaders },
      );
      assert.equal(put.status, 404);
      const createInB = await a.client.post(
        KEYS,
        { metadata: { ownedByWorkspace: 'ws-b' }, spec: { displayName: 'x', permissions: [] } },
        { headers: keyHeaders },
      );
      assert.equal(createInB.status, 403);
      assert.match(createInB.json.message, /you don't have sufficient permissions/);
      assert.equal((await ctx.client.get(`${KEYS}/${inB.uuid}`, { headers: { accept: API_KEY } })).status, 200, 'the key still exists');

      const own = await createKey(a.client, 'ws-a', ['APIKEY_LIST']);
      secrets.push(own.clientSecret);
      assert.equal((await a.client.delete(`${KEYS}/${own.uuid}`)).status, 204);
    });

    it('answers 403 for a missing permission and for non-admins granting ADM_ codes or using the admin area', async () => {
      const reader = await clientWithKey(ctx.client, 'ws-c', ['APIKEY_LIST']);
      const saver = await clientWithKey(ctx.client, 'ws-c', ['APIKEY_SAVE']);
      secrets.push(reader.key.clientSecret, saver.key.clientSecret);
      const create = await reader.client.post(
        KEYS,
        { metadata: { ownedByWorkspace: 'ws-c' }, spec: { displayName: 'x', permissions: [] } },
        { headers: keyHeaders },
      );
      assert.equal(create.status, 403);
      const escalate = await saver.client.post(
        KEYS,
        { metadata: { ownedByWorkspace: 'ws-c' }, spec: { displayName: 'x', permissions: ['ADM_APIKEY_SAVE'] } },
        { headers: keyHeaders },
      );
      assert.equal(escalate.status, 403);
      const users = await saver.client.get('/api/admin/apiusers', { headers: { accept: media('apiuser', 'v1') } });
      assert.equal(users.status, 403);
      const index = await reader.client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v2') } });
      // Locations and platforms (the marketplace) and project roles, platform types and tag definitions are readable by every caller.
      assert.deepEqual(Object.keys(index.json._links).sort(), [
        'meshapikeys',
        'meshlocations',
        'meshplatforms',
        'meshplatformtypes',
        'meshprojectroles',
        'meshtagdefinitions',
        'self',
      ]);
      const none = await clientWithKey(ctx.client, 'ws-c', []);
      const emptyIndex = await none.client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v2') } });
      assert.deepEqual(Object.keys(emptyIndex.json._links).sort(), [
        'meshlocations',
        'meshplatforms',
        'meshplatformtypes',
        'meshprojectroles',
        'meshtagdefinitions',
        'self',
      ]);
      // Service instances, communication definitions and communications for those who may list them.
      const communicating = await clientWithKey(ctx.client, 'ws-c', [
        'SERVICEINSTANCE_LIST',
        'COMMUNICATIONDEFINITION_LIST',
        'COMMUNICATION_LIST',
      ]);
      secrets.push(communicating.key.clientSecret);
      const issue21 = await communicating.client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v2') } });
      assert.deepEqual(Object.keys(issue21.json._links).sort(), [
        'meshcommunicationdefinitions',
        'meshcommunications',
        'meshlocations',
        'meshplatforms',
        'meshplatformtypes',
        'meshprojectroles',
        'meshserviceinstances',
        'meshtagdefinitions',
        'self',
      ]);
      assert.match(
        issue21.json._links.meshserviceinstances.href,
        /\/api\/meshobjects\/meshserviceinstances\{\?workspaceIdentifier,projectIdentifier,marketplaceIdentifier,serviceIdentifier,planIdentifier\}$/,
      );
      assert.match(issue21.json._links.meshcommunicationdefinitions.href, /\/meshcommunicationdefinitions\{\?type\}$/);
      assert.match(
        issue21.json._links.meshcommunications.href,
        /\/meshcommunications\{\?communicationDefinitionUuid,resolutionStatus,communicationType\}$/,
      );
      assert.equal(issue21.json._links.meshcommunications.templated, true);
    });

    it('lets an admin key work across workspaces and the Basic API user reach every endpoint', async () => {
      const admin = await clientWithKey(ctx.client, 'admin', ['ADM_APIKEY_LIST', 'ADM_APIKEY_SAVE', 'ADM_APIKEY_DELETE']);
      secrets.push(admin.key.clientSecret);
      await ensureWorkspace(ctx.client, 'ws-z');
      const created = await createKey(admin.client, 'ws-z', ['ADM_APIKEY_LIST']);
      secrets.push(created.clientSecret);
      assert.equal(
        (await admin.client.get(`${KEYS}?workspaceIdentifier=ws-z`, { headers: { accept: API_KEY } })).json.page.totalElements,
        1,
      );
      for (const [route, access] of ctx.server.server.context.access) {
        const [method, path] = route.split(' ') as [string, string];
        // SCIM routes open to a SCIM token only (test/scim.test.ts), never to API users.
        if (method !== 'GET' || access === 'public' || access === 'scim' || path.includes(':') || path.includes('*')) continue;
        const response = await ctx.client.get(path, { headers: { accept: 'application/vnd.vendor.api.x.v1.hal+json' } });
        assert.ok(![401, 403].includes(response.status), `${path}: ${response.status}`);
      }
    });

    it('manages API keys: 201 with the secret once, null later, rotation, validation errors naming the field', async () => {
      await ensureWorkspace(ctx.client, 'ws-k');
      const created = await ctx.client.post(
        KEYS,
        {
          apiVersion: 'v1-preview',
          kind: 'meshApiKey',
          metadata: { ownedByWorkspace: 'ws-k' },
          spec: { displayName: 'ci', permissions: ['APIKEY_LIST'], expiresAt: '2099-12-31' },
          status: null,
        },
        { headers: { accept: API_KEY, 'content-type': `${API_KEY}; charset=utf-8` } },
      );
      assert.equal(created.status, 201);
      assert.equal(created.headers.location, created.json._links.self.href);
      assert.match(created.json.status.clientSecret, /^[A-Za-z0-9]{40}$/);
      assert.equal(created.json.spec.expiresAt, '2099-12-31');
      secrets.push(created.json.status.clientSecret);
      const uuid = created.json.metadata.uuid;
      const read = await ctx.client.get(`${KEYS}/${uuid}`, { headers: { accept: API_KEY } });
      assert.equal(read.json.status.clientSecret, null);
      assert.equal(read.json.status.clientId, uuid);

      const rename = await ctx.client.put(
        `${KEYS}/${uuid}`,
        { metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'renamed', permissions: ['APIKEY_LIST'], expiresAt: '2099-12-31' } },
        { headers: keyHeaders },
      );
      assert.equal(rename.status, 200);
      assert.equal(rename.json.status.clientSecret, null);
      const extend = await ctx.client.put(
        `${KEYS}/${uuid}`,
        { metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'renamed', permissions: ['APIKEY_LIST'], expiresAt: '2100-01-31' } },
        { headers: keyHeaders },
      );
      assert.match(extend.json.status.clientSecret, /^[A-Za-z0-9]{40}$/);
      secrets.push(extend.json.status.clientSecret);
      await login(ctx.client, { clientId: uuid, clientSecret: extend.json.status.clientSecret });
      const old = await ctx.client.post(
        '/api/login',
        { clientId: uuid, clientSecret: created.json.status.clientSecret },
        { anonymous: true, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(old.status, 401);
      const rotated = await ctx.client.post(`${KEYS}/${uuid}/rotate-secret`, undefined, { headers: { accept: API_KEY } });
      assert.equal(rotated.status, 200);
      secrets.push(rotated.json.status.clientSecret);
      await login(ctx.client, { clientId: uuid, clientSecret: rotated.json.status.clientSecret });

      const cases: [unknown, RegExp][] = [
        [{ metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'x'.repeat(256), permissions: [] } }, /^spec\.displayName/],
        [
          { metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'x', permissions: ['NOT_A_PERMISSION'] } },
          /^spec\.permissions.*NOT_A_PERMISSION/,
        ],
        [{ metadata: { ownedByWorkspace: 'Not Valid' }, spec: { displayName: 'x', permissions: [] } }, /^metadata\.ownedByWorkspace/],
        [
          { metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'x', permissions: [], expiresAt: 'tomorrow' } },
          /^spec\.expiresAt/,
        ],
        [{ spec: { displayName: 'x', permissions: [] } }, /^metadata/],
      ];
      for (const [body, message] of cases) {
        const response = await ctx.client.post(KEYS, body, { headers: keyHeaders });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.match(response.json.message, message);
      }
      const malformed = await ctx.client.post(KEYS, '{"metadata": ', { headers: keyHeaders });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.json.errorCode, 'BadRequest');
      const proto = await ctx.client.post(
        KEYS,
        '{"__proto__": {"admin": true}, "metadata": {"ownedByWorkspace": "ws-k"}, "spec": {"displayName": "x", "permissions": []}}',
        { headers: keyHeaders },
      );
      assert.equal(proto.status, 400);
    });

    it('pages lists: defaults, clamping at 350, 400 for bad values, links for 0, 1 and several pages', async () => {
      for (let i = 0; i < 3; i++) secrets.push((await createKey(ctx.client, 'ws-page', ['APIKEY_LIST'])).clientSecret);
      const list = (query: string) => ctx.client.get(`${KEYS}?workspaceIdentifier=ws-page${query}`, { headers: { accept: API_KEY } });
      const whole = await list('');
      assert.deepEqual(whole.json.page, { size: 50, totalElements: 3, totalPages: 1, number: 0 });
      assert.deepEqual(Object.keys(whole.json._links), ['self']);
      const empty = await ctx.client.get(`${KEYS}?workspaceIdentifier=ws-nobody`, { headers: { accept: API_KEY } });
      assert.deepEqual(empty.json._embedded, { meshApiKeys: [] });
      assert.deepEqual(empty.json.page, { size: 50, totalElements: 0, totalPages: 0, number: 0 });
      assert.deepEqual(Object.keys(empty.json._links), ['self']);
      const first = await list('&size=2');
      assert.equal(first.json._embedded.meshApiKeys.length, 2);
      assert.deepEqual(Object.keys(first.json._links).sort(), ['first', 'last', 'next', 'self']);
      const second = await list('&size=2&page=1');
      assert.equal(second.json._embedded.meshApiKeys.length, 1);
      assert.deepEqual(Object.keys(second.json._links).sort(), ['first', 'last', 'prev', 'self']);
      const ids = [...first.json._embedded.meshApiKeys, ...second.json._embedded.meshApiKeys].map(
        (k: { metadata: { uuid: string } }) => k.metadata.uuid,
      );
      assert.deepEqual(
        ids,
        whole.json._embedded.meshApiKeys.map((k: { metadata: { uuid: string } }) => k.metadata.uuid),
        'pages follow the stable order',
      );
      const next = await ctx.client.get(first.json._links.next.href, { headers: { accept: API_KEY } });
      assert.deepEqual(next.json._embedded, second.json._embedded);
      const past = await list('&page=5');
      assert.equal(past.json.page.number, 5);
      assert.deepEqual(past.json._embedded.meshApiKeys, []);
      assert.equal((await list('&size=1000')).json.page.size, 350);
      for (const bad of ['&page=-1', '&size=0', '&size=abc', '&page=1.5']) {
        const response = await list(bad);
        assert.equal(response.status, 400, bad);
        assert.match(response.json.message, /^(page|size):/);
      }
    });

    it('answers 415 for unversioned, missing, foreign and retired body types, 406 before reading the body', async () => {
      const body = { metadata: { ownedByWorkspace: 'ws-k' }, spec: { displayName: 'x', permissions: [] } };
      for (const contentType of [
        'application/json',
        undefined,
        'text/plain',
        media('meshbuildingblock', 'v1'),
        media('meshtenant', 'v1'),
      ]) {
        const response = await ctx.client.post(KEYS, body, { headers: { accept: API_KEY, 'content-type': contentType } });
        assert.equal(response.status, 415, String(contentType));
        assert.equal(response.json.errorCode, 'UnsupportedMediaType');
      }
      const retired = await ctx.client.post(KEYS, body, { headers: { accept: API_KEY, 'content-type': media('meshtenant', 'v1') } });
      assert.match(retired.json.message, /retired/);
      const noAccept = await ctx.client.post(KEYS, body, { headers: { 'content-type': API_KEY } });
      assert.equal(noAccept.status, 406);
    });

    it('rejects tokens of deleted keys at once and expired keys at login', async () => {
      const victim = await clientWithKey(ctx.client, 'ws-d', ['APIKEY_LIST']);
      secrets.push(victim.key.clientSecret);
      assert.equal((await victim.client.get(KEYS, { headers: { accept: API_KEY } })).status, 200);
      assert.equal((await ctx.client.delete(`${KEYS}/${victim.key.uuid}`)).status, 204);
      assert.equal((await victim.client.get(KEYS, { headers: { accept: API_KEY } })).status, 401);
      assert.equal(
        (
          await ctx.client.post(
            '/api/login',
            { clientId: victim.key.clientId, clientSecret: victim.key.clientSecret },
            { anonymous: true, headers: { 'content-type': 'application/json' } },
          )
        ).status,
        401,
      );

      const expired = await createKey(ctx.client, 'ws-d', ['APIKEY_LIST'], { expiresAt: '2020-01-01' });
      secrets.push(expired.clientSecret);
      assert.equal(
        (
          await ctx.client.post(
            '/api/login',
            { clientId: expired.clientId, clientSecret: expired.clientSecret },
            { anonymous: true, headers: { 'content-type': 'application/json' } },
          )
        ).status,
        401,
      );
    });

    it('keeps tokens valid across a restart', async () => {
      const holder = await clientWithKey(ctx.client, 'ws-r', ['APIKEY_LIST']);
      secrets.push(holder.key.clientSecret);
      await ctx.server.restart();
      assert.equal((await holder.client.get(KEYS, { headers: { accept: API_KEY } })).status, 200);
    });

    it('publishes OpenID discovery and a JWKS whose key verifies issued tokens', async () => {
      const discovery = await ctx.client.get('/.well-known/openid-configuration', { anonymous: true });
      assert.equal(discovery.status, 200);
      assert.equal(discovery.json.token_endpoint, `${ctx.server.url}/oauth/token`);
      const jwks = await ctx.client.get('/oauth/jwks', { anonymous: true });
      assert.ok(jwks.json.keys.length >= 1);
      assert.ok(
        jwks.json.keys.every((k: Record<string, unknown>) => k.d === undefined),
        'no private key material',
      );
    });

    it('manages API users in the admin area', async () => {
      const users = media('apiuser', 'v1');
      const created = await ctx.client.post(
        '/api/admin/apiusers',
        { username: 'ops', password: 'ops-password-123' },
        { headers: { accept: users, 'content-type': users } },
      );
      assert.equal(created.status, 201);
      secrets.push('ops-password-123');
      const asOps = ctx.client.with({ authorization: basic('ops', 'ops-password-123') });
      assert.equal((await asOps.get(KEYS, { headers: { accept: API_KEY } })).status, 200);
      assert.equal(
        (
          await ctx.client.post(
            '/api/admin/apiusers',
            { username: 'ops', password: 'ops-password-123' },
            { headers: { accept: users, 'content-type': users } },
          )
        ).status,
        409,
      );
      assert.equal((await ctx.client.delete('/api/admin/apiusers/ops')).status, 204);
      assert.equal((await asOps.get(KEYS, { headers: { accept: API_KEY } })).status, 401);
    });

    it('reads an API user at its self link: 200 as listed, 404 in the error format for unknown names, admins only', async () => {
      const users = media('apiuser', 'v1');
      const password = 'reader-password-123';
      secrets.push(password);
      // Every character of the username set, and the longest name: the self link reaches each.
      for (const username of ['reader', 'ops.team_1-x@example.com', `${'a'.repeat(254)}z`]) {
        const created = await ctx.client.post(
          '/api/admin/apiusers',
          { username, password },
          { headers: { accept: users, 'content-type': users } },
        );
        assert.equal(created.status, 201, created.text);
        const self = created.json._links.self.href as string;
        assert.equal(created.headers.location, self);
        const read = await ctx.client.get(self, { headers: { accept: users } });
        assert.equal(read.status, 200, `${username}: ${read.text.slice(0, 200)}`);
        assert.match(String(read.headers['content-type']), /^application\/vnd\.vendor\.api\.apiuser\.v1\.hal\+json/);
        assert.deepEqual(read.json, created.json);
        const list = await ctx.client.get('/api/admin/apiusers', { headers: { accept: users } });
        assert.deepEqual(
          list.json._embedded.apiUsers.find((u: { username: string }) => u.username === username),
          read.json,
          'the list item is the same representation',
        );
        // Every link of the list and of its items is reachable.
        for (const href of [
          list.json._links.self.href,
          ...list.json._embedded.apiUsers.map((u: { _links: { self: { href: string } } }) => u._links.self.href),
        ]) {
          assert.equal((await ctx.client.get(href, { headers: { accept: users } })).status, 200, href);
        }
        const removed = await ctx.client.delete(self);
        assert.equal(removed.status, 204);
        const gone = await ctx.client.get(self, { headers: { accept: users } });
        assert.equal(gone.status, 404);
        assert.equal(gone.json.errorCode, 'NotFound');
      }
      // URL clients resolve `.` and `..` segments away (escaped too): such a user's self link could never be reached.
      for (const username of ['.', '..']) {
        const refused = await ctx.client.post(
          '/api/admin/apiusers',
          { username, password },
          { headers: { accept: users, 'content-type': users } },
        );
        assert.equal(refused.status, 400, username);
        assert.match(refused.json.message, /^username: /);
      }
      const unknown = await ctx.client.get('/api/admin/apiusers/nobody-here', { headers: { accept: users } });
      assert.equal(unknown.status, 404);
      assert.deepEqual(Object.keys(unknown.json).sort(), ['errorCode', 'errorId', 'message']);
      assert.equal((await ctx.client.get(`/api/admin/apiusers/${TEST_ADMIN.username}`, { headers: { accept: API_KEY } })).status, 406);

      const keyReader = await clientWithKey(ctx.client, 'ws-c', ['APIKEY_LIST', 'APIKEY_SAVE']);
      const admin = await clientWithKey(ctx.client, 'admin', ['ADM_USER_LIST']);
      secrets.push(keyReader.key.clientSecret, admin.key.clientSecret);
      const denied = await keyReader.client.get(`/api/admin/apiusers/${TEST_ADMIN.username}`, { headers: { accept: users } });
      assert.equal(denied.status, 403);
      assert.equal(denied.json.errorCode, 'Forbidden');
      const allowed = await admin.client.get(`/api/admin/apiusers/${TEST_ADMIN.username}`, { headers: { accept: users } });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.json.username, TEST_ADMIN.username);
    });

    it('refuses impossible calendar dates and times in expiresAt with 400 naming spec.expiresAt, storing nothing', async () => {
      await ensureWorkspace(ctx.client, 'ws-dates');
      const body = (expiresAt: string) => ({
        apiVersion: 'v1-preview',
        kind: 'meshApiKey',
        metadata: { ownedByWorkspace: 'ws-dates' },
        spec: { displayName: 'dates', permissions: ['APIKEY_LIST'], expiresAt },
      });
      const count = async () =>
        (await ctx.client.get(`${KEYS}?workspaceIdentifier=ws-dates`, { headers: { accept: API_KEY } })).json.page.totalElements as number;
      const impossible = [
        '2025-02-30',
        '2025-02-29',
        '2100-02-29',
        '2025-04-31',
        '2025-13-01',
        '2025-00-10',
        '2025-01-00',
        '2025-02-30T00:00:00Z',
        '2025-13-01T00:00:00Z',
        '2025-01-01T24:00:00Z',
        '2025-01-01T23:60:00Z',
        '2025-01-01T23:59:60Z',
        '2025-01-01T00:00:00+24:00',
        '2025-01-01T00:00:00+01:60',
      ];
      for (const expiresAt of impossible) {
        const response = await ctx.client.post(KEYS, body(expiresAt), { headers: keyHeaders });
        assert.equal(response.status, 400, `${expiresAt}: ${response.text}`);
        assert.equal(response.json.errorCode, 'BadRequest');
        assert.match(response.json.message, /^spec\.expiresAt: /, expiresAt);
        assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message']);
      }
      assert.equal(await count(), 0, 'no key was stored');

      const created = await ctx.client.post(KEYS, body('2028-02-29'), { headers: keyHeaders });
      assert.equal(created.status, 201, created.text);
      secrets.push(created.json.status.clientSecret);
      const uuid = created.json.metadata.uuid as string;
      const before = await ctx.client.get(`${KEYS}/${uuid}`, { headers: { accept: API_KEY } });
      for (const expiresAt of ['2029-02-29', '2028-02-29T25:00:00Z']) {
        const put = await ctx.client.put(`${KEYS}/${uuid}`, body(expiresAt), { headers: keyHeaders });
        assert.equal(put.status, 400, `${expiresAt}: ${put.text}`);
        assert.match(put.json.message, /^spec\.expiresAt: /);
      }
      assert.deepEqual(
        (await ctx.client.get(`${KEYS}/${uuid}`, { headers: { accept: API_KEY } })).json,
        before.json,
        'the key is unchanged',
      );
      await login(ctx.client, { clientId: uuid, clientSecret: created.json.status.clientSecret });

      // Real dates at the edges of the calendar are accepted and echoed as sent.
      for (const expiresAt of ['2000-02-29', '2099-12-31T23:59:59.999+14:00', '2099-01-31T00:00:00-23:59']) {
        const response = await ctx.client.post(KEYS, body(expiresAt), { headers: keyHeaders });
        assert.equal(response.status, 201, `${expiresAt}: ${response.text}`);
        assert.equal(response.json.spec.expiresAt, expiresAt);
        secrets.push(response.json.status.clientSecret);
      }
      assert.equal(await count(), 4);
    });

    after(async () => {
      // No secret, password or token ever reaches the log.
      const log = await readFile(ctx.server.logFile, 'utf8');
      for (const secret of secrets) assert.ok(!log.includes(secret), 'a secret appears in the server log');
      assert.ok(!/Bearer ey/.test(log), 'a token appears in the server log');
    });
  },
  UNLIMITED_AUTH_FAILURES,
); // this suite sends the bootstrap user wrong passwords on every route

for (const dialect of DIALECTS) {
  describe(`identity edge cases [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    it('expires tokens after BLOCKYARD_TOKEN_TTL_SECONDS', async () => {
      const TTL_SECONDS = 1;
      const server = await startTestServer(dialect, { env: { BLOCKYARD_TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });
      try {
        const key = await createKey(server.client, 'ws-t', ['APIKEY_LIST']);
        const list = (token: string) => server.client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } });
        const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
        /** Sleeps until this process's clock (the server's clock too) reads at least `epochMs`. */
        const sleepUntil = async (epochMs: number) => {
          while (Date.now() < epochMs) await sleep(epochMs - Date.now());
        };
        /**
         * A fresh token and the instant it stops working: its `exp` (whole seconds) times 1000. Tokens are
         * asked for early in a second, so that one rarely has only milliseconds left.
         */
        const fresh = async () => {
          if (Date.now() % 1000 > 300) await sleepUntil(Math.ceil(Date.now() / 1000) * 1000);
          const token = await login(server.client, key);
          const { iat, exp } = decodeJwt(token);
          assert.ok(Number.isInteger(iat) && Number.isInteger(exp), `whole-second iat and exp: ${iat} ${exp}`);
          assert.equal(exp! - iat!, TTL_SECONDS, 'the token lives BLOCKYARD_TOKEN_TTL_SECONDS');
          return { token, expiresAt: exp! * 1000 };
        };

        // Before its exp a token works. The server checks it between our send and its answer, so a 200
        // sent at or after exp, or a 401 answered before exp, is wrong; a 401 answered after exp (this
        // process stalled past it) proves nothing, and a new token is tried.
        let used: { token: string; expiresAt: number } | undefined;
        for (let attempt = 1; !used; attempt++) {
          const candidate = await fresh();
          const sent = Date.now();
          const response = await list(candidate.token);
          const answered = Date.now();
          if (response.status === 200) {
            assert.ok(sent < candidate.expiresAt, `accepted although sent ${sent - candidate.expiresAt} ms after its exp`);
            used = candidate;
          } else {
            assert.equal(response.status, 401, response.text);
            assert.ok(answered >= candidate.expiresAt, `refused ${candidate.expiresAt - answered} ms before its exp`);
            assert.ok(attempt < 5, `no token could be tried before its exp in ${attempt} attempts (this process stalls)`);
          }
        }

        // At and after its exp the token is refused: the one used above (which the server has verified
        // before) as much as one never shown before.
        const unused = await fresh();
        await sleepUntil(Math.max(used.expiresAt, unused.expiresAt));
        assert.equal((await list(used.token)).status, 401, 'a token used before its exp is refused after it');
        assert.equal((await list(unused.token)).status, 401, 'a token first shown after its exp is refused');
      } finally {
        await server.stop();
      }
    });

    it('answers 429 with Retry-After past the rate limit, per credential', async () => {
      const server = await startTestServer(dialect, { env: { BLOCKYARD_RATE_LIMIT_MAX: '5', BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS: '60' } });
      try {
        const statuses: number[] = [];
        let limited;
        for (let i = 0; i < 8; i++) {
          const response = await server.client.get(KEYS, { headers: { accept: API_KEY } });
          statuses.push(response.status);
          if (response.status === 429) limited = response;
        }
        assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
        assert.ok(limited, `statuses ${statuses}`);
        assert.ok(Number(limited.headers['retry-after']) >= 1);
        assert.equal(limited.json.errorCode, 'TooManyRequests');
        assert.equal((await server.client.get('/healthz', { anonymous: true })).status, 200, 'health checks are not limited');
      } finally {
        await server.stop();
      }
    });

    it('creates a working key with the `blockyard admin create-key` command on the same database', async () => {
      const server = await startTestServer(dialect);
      try {
        await ensureWorkspace(server.client, 'ws-cli');
        const result = spawnSync(
          process.execPath,
          blockyardArgs(['admin', 'create-key', '--workspace', 'ws-cli', '--permission', 'APIKEY_LIST']),
          {
            env: { ...process.env, ...server.env, BLOCKYARD_LOG_LEVEL: 'warn' },
            encoding: 'utf8',
          },
        );
        assert.equal(result.status, 0, result.stderr);
        const clientId = /client id:\s+(\S+)/.exec(result.stdout)?.[1];
        const clientSecret = /client secret:\s+(\S+)/.exec(result.stdout)?.[1];
        assert.ok(clientId && clientSecret, result.stdout);
        const token = await login(server.client, { clientId, clientSecret });
        const keys = await server.client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } });
        assert.equal(keys.status, 200);
        assert.ok(keys.json._embedded.meshApiKeys.some((k: { metadata: { uuid: string } }) => k.metadata.uuid === clientId));
        const bad = spawnSync(process.execPath, blockyardArgs(['admin', 'create-key', '--workspace', 'ws-cli', '--permission', 'NOPE']), {
          env: { ...process.env, ...server.env },
          encoding: 'utf8',
        });
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /NOPE/);
        // The command checks the expiry like the API does: an impossible date is refused, no key is made.
        const before = (await server.client.get(`${KEYS}?workspaceIdentifier=ws-cli`, { headers: { accept: API_KEY } })).json.page
          .totalElements;
        const badDate = spawnSync(
          process.execPath,
          blockyardArgs(['admin', 'create-key', '--workspace', 'ws-cli', '--permission', 'APIKEY_LIST', '--expires-at', '2025-02-30']),
          { env: { ...process.env, ...server.env }, encoding: 'utf8' },
        );
        assert.equal(badDate.status, 2, badDate.stdout);
        assert.match(badDate.stderr, /expiresAt/);
        assert.equal(
          (await server.client.get(`${KEYS}?workspaceIdentifier=ws-cli`, { headers: { accept: API_KEY } })).json.page.totalElements,
          before,
        );
      } finally {
        await server.stop();
      }
    });

    it('prints a generated admin key once on an empty database without bootstrap settings, and it works', async () => {
      const printed: string[] = [];
      const server = await startTestServer(dialect, {
        env: { BLOCKYARD_ADMIN_USERNAME: '', BLOCKYARD_ADMIN_PASSWORD: '' },
        print: (line) => printed.push(line),
      });
      try {
        const text = printed.join('');
        const clientId = /client id:\s+(\S+)/.exec(text)?.[1];
        const clientSecret = /client secret:\s+(\S+)/.exec(text)?.[1];
        assert.ok(clientId && clientSecret, text);
        const token = await login(server.client, { clientId, clientSecret });
        assert.equal((await server.client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } })).status, 200);
        printed.length = 0;
        await server.restart();
        assert.doesNotMatch(printed.join(''), /client secret/, 'printed only once');
        assert.ok(!(await readFile(server.logFile, 'utf8')).includes(clientSecret), 'the generated secret is not logged');
      } finally {
        await server.stop();
      }
    });
  });
}

if (postgresAvailable) {
  describe('identity across instances [postgres]', () => {
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      a = await startTestServer('postgres');
      b = await startInstanceOf(a);
    });
    after(async () => {
      await b.stop();
      await a.stop();
    });
    it('accepts tokens issued by instance A on instance B', async () => {
      const { token } = await clientWithKey(a.client, 'ws-m', ['APIKEY_LIST']);
      const response = await b.client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
    });
  });
}
