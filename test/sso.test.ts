/**
 * Single sign-on for people, black-box on both databases against a real OpenID Provider in this
 * process (oidc-provider over HTTPS, trusted through BLOCKYARD_OIDC_CA): the authorization code flow
 * with PKCE through the provider's own login and consent pages, the session cookie as the API's
 * credential, sessions in the database (a second instance takes them), sign-out, the Origin rule for
 * cookie-only writes, and people unknown to Blockyard.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { TestBrowser, signInWithProvider } from './support/browser.js';
import { openStream } from './support/sse.js';
import { ApiClient, media } from './support/client.js';
import { freePort, startOpenIdProvider, type TestOpenIdProvider } from './support/oidc-provider.js';
import { basic, describeEachDatabase, startInstanceOf, TEST_ADMIN, type TestServer } from './support/server.js';
import { createWorkspace, io, PROJECT, projectBody, unique, type Json } from './support/structure.js';

const SESSION = '__Host-blockyard-session';
const USERS = '/api/meshobjects/meshusers';
const WORKSPACES = '/api/meshobjects/meshworkspaces';
const PROJECTS = '/api/meshobjects/meshprojects';
const WS_BINDINGS = '/api/meshobjects/meshworkspacebindings/userbindings';
const WORKSPACE = media('meshworkspace', 'v2');
const USER = media('meshuser', 'v2');
const WS_BINDING = media('meshworkspaceuserbinding', 'v2');

const alice = unique('alice');
const carol = unique('carol');
const env: Record<string, string> = {};
let provider: TestOpenIdProvider;

before(async () => {
  // The provider knows the callback, so Blockyard's public URL (and port) is chosen first.
  const port = await freePort();
  const publicUrl = `https://localhost:${port}`;
  provider = await startOpenIdProvider(publicUrl, [
    { login: alice, claims: { preferred_username: alice, email: `${alice}@example.com`, given_name: 'Alice', family_name: 'Example' } },
    { login: carol, claims: { email: `${carol}@example.com` } },
  ]);
  Object.assign(env, provider.env, { BLOCKYARD_PORT: String(port), BLOCKYARD_PUBLIC_URL: publicUrl });
});
after(async () => {
  await provider?.close();
});

describeEachDatabase(
  'single sign-on',
  (ctx) => {
    let browser: TestBrowser;
    let serverCa: string;
    const ws = unique('sso-a');
    const other = unique('sso-b');

    /** An API client sending only the browser's cookie (and the headers given). */
    const asBrowser = (server: TestServer, headers: Record<string, string> = {}) => {
      const client = new ApiClient(server.url, serverCa, { cookie: browser.cookieHeader(ctx.server.url) ?? '', ...headers });
      client.openapi = ctx.client.openapi;
      return client;
    };
    const publicOrigin = () => new URL(ctx.server.env.BLOCKYARD_PUBLIC_URL!).origin;

    before(async () => {
      serverCa = await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8');
      browser = new TestBrowser([serverCa, await readFile(provider.env.BLOCKYARD_OIDC_CA!, 'utf8')]);
      for (const name of [ws, other]) await createWorkspace(ctx.client, name);
      const user = await ctx.client.post(
        USERS,
        {
          apiVersion: 'v2',
          kind: 'meshUser',
          metadata: { name: alice },
          spec: { email: `${alice}@example.com`, firstName: 'Alice', lastName: 'Example' },
        },
        { headers: io(USER) },
      );
      assert.equal(user.status, 201, user.text);
      const binding = {
        apiVersion: 'v2',
        kind: 'meshWorkspaceUserBinding',
        metadata: { name: unique('b') },
        targetRef: { name: ws },
        roleRef: { name: 'Workspace Owner' },
        subject: { name: alice },
      };
      const bound = await ctx.client.post(WS_BINDINGS, binding, { headers: io(WS_BINDING) });
      assert.equal(bound.status, 201, bound.text);
    });
    after(async () => {
      await browser?.close();
    });

    it('signs a person in through the provider (code flow with PKCE) into an HttpOnly, Secure, SameSite=Lax session cookie', async () => {
      const login = await browser.go('GET', `${ctx.server.url}/auth/oidc/login`);
      const authorize = new URL(login.url);
      assert.equal(authorize.origin, provider.issuer, 'the login redirects to the provider');
      const page = await signInWithProvider(browser, ctx.server.url, alice);
      assert.equal(new URL(page.url).pathname, '/console/', `${page.status} ${page.url}: ${page.text.slice(0, 300)}`);
      assert.ok(browser.cookie(ctx.server.url, SESSION), 'a session cookie is set');
      assert.equal(browser.cookie(ctx.server.url, '__Host-blockyard-oidc'), undefined, 'the sign-in cookie is spent');
    });

    it('sets the session cookie HttpOnly, Secure and SameSite=Lax for the whole origin, and stores only a hash of its id', async () => {
      const line = browser.received.find((entry) => entry.line.startsWith(`${SESSION}=`) && !/Max-Age=0/.test(entry.line))!.line;
      const attributes = line
        .split(';')
        .slice(1)
        .map((attribute) => attribute.trim().toLowerCase());
      for (const wanted of ['httponly', 'secure', 'samesite=lax', 'path=/']) assert.ok(attributes.includes(wanted), `${wanted} in ${line}`);
      assert.ok(!attributes.some((attribute) => attribute.startsWith('domain=')), line);
      const id = browser.cookie(ctx.server.url, SESSION)!;
      assert.match(id, /^[A-Za-z0-9_-]{43}$/);
      const rows = await ctx.server.server.database.db
        .selectFrom('sessions' as never)
        .selectAll()
        .execute();
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(id), 'the session id itself is not stored');
    });

    it('takes the cookie as the API credential: the person acts in its workspace by its role bindings, and sees nothing of another workspace', async () => {
      const session = await asBrowser(ctx.server).get('/auth/session');
      assert.equal(session.status, 200, session.text);
      assert.equal(session.json.oidc, true);
      assert.deepEqual(
        { ...session.json.session, permissions: undefined },
        { username: alice, workspace: ws, workspaces: [ws], permissions: undefined, admin: false },
      );
      assert.ok(session.json.session.permissions.includes('WORKSPACE_LIST'), session.text);
      const workspaces = await asBrowser(ctx.server).get(`${WORKSPACES}?size=350`, { headers: { accept: WORKSPACE } });
      assert.equal(workspaces.status, 200, workspaces.text);
      const names = (workspaces.json._embedded?.meshWorkspaces ?? []).map((item: Json) => item.metadata.name);
      assert.ok(names.includes(ws), workspaces.text);
      assert.ok(!names.includes(other), 'workspace B stays invisible');
      const foreign = await asBrowser(ctx.server).get(`${WORKSPACES}/${other}`, { headers: { accept: WORKSPACE } });
      assert.equal(foreign.status, 404, foreign.text);
    });

    it('keeps the session across reloads and further tabs: the same cookie keeps working', async () => {
      for (let reload = 0; reload < 3; reload++) {
        const page = await browser.go('GET', `${ctx.server.url}/console/`);
        assert.equal(page.status, 200);
        assert.equal((await asBrowser(ctx.server).get('/auth/session')).json.session?.username, alice);
      }
    });

    it('keeps a person’s live event stream open past the credential re-checks (the cookie is re-checked, not a missing header)', async () => {
      const stream = await openStream(ctx.server.url, serverCa, '/api/meshobjects/mesheventlogs', {
        cookie: browser.cookieHeader(ctx.server.url)!,
      });
      try {
        assert.equal(stream.status, 200);
        // The stream re-checks its credential every 5 s: past two checks it still delivers.
        await new Promise((resolve) => setTimeout(resolve, 11_000));
        const renamed = await ctx.client.put(
          `${WORKSPACES}/${ws}`,
          { apiVersion: 'v2', kind: 'meshWorkspace', metadata: { name: ws }, spec: { displayName: `Renamed ${ws}` } },
          { headers: io(WORKSPACE) },
        );
        assert.equal(renamed.status, 200, renamed.text);
        const [event] = await stream.waitFor(1);
        assert.equal(event?.json.spec.title, 'Workspace Name Changed');
      } finally {
        stream.close();
      }
    });

    it('writes with the cookie only from the service own origin: a foreign or missing Origin is 403 and changes nothing', async () => {
      const project = unique('sso-prj');
      for (const origin of ['https://evil.example.com', undefined]) {
        const client = asBrowser(ctx.server, origin ? { origin } : {});
        const refused = await client.post(PROJECTS, projectBody(ws, project), { headers: io(PROJECT) });
        assert.equal(refused.status, 403, refused.text);
        assert.match(refused.json.message, /must come from/);
        const switched = await client.post(
          '/auth/session/workspace',
          { workspace: ws },
          { headers: { 'content-type': 'application/json' } },
        );
        assert.equal(switched.status, 403, switched.text);
      }
      assert.equal(
        (await ctx.client.get(`${PROJECTS}/${ws}.${project}`, { headers: { accept: PROJECT } })).status,
        404,
        'nothing was created',
      );
      const made = await asBrowser(ctx.server, { origin: publicOrigin() }).post(PROJECTS, projectBody(ws, project), {
        headers: io(PROJECT),
      });
      assert.equal(made.status, 201, made.text);
    });

    it('switches the session workspace only to a workspace the person holds a role in', async () => {
      const client = asBrowser(ctx.server, { origin: publicOrigin(), 'content-type': 'application/json' });
      const refused = await client.post('/auth/session/workspace', { workspace: other });
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.json.message, /^workspace: /);
      const missing = await client.post('/auth/session/workspace', {});
      assert.equal(missing.status, 400, missing.text);
      const kept = await client.post('/auth/session/workspace', { workspace: ws });
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.json.session.workspace, ws);
    });

    it('tells a browser without a session that single sign-on is configured (200, no error answer)', async () => {
      const anonymous = new ApiClient(ctx.server.url, serverCa);
      anonymous.openapi = ctx.client.openapi;
      assert.deepEqual((await anonymous.get('/auth/session')).json, { oidc: true, session: null });
    });

    it('API keys and API users keep working beside sessions (an Authorization header wins over the cookie)', async () => {
      const withBoth = new ApiClient(ctx.server.url, serverCa, {
        cookie: `${SESSION}=${'x'.repeat(43)}`,
        authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password),
      });
      withBoth.openapi = ctx.client.openapi;
      const answer = await withBoth.get(`${WORKSPACES}/${other}`, { headers: { accept: WORKSPACE } });
      assert.equal(answer.status, 200, answer.text);
    });

    it('refuses a cookie naming no session (401, no Basic challenge), counting it as a failed attempt', async () => {
      const forged = new ApiClient(ctx.server.url, serverCa, { cookie: `${SESSION}=${'A'.repeat(43)}` });
      forged.openapi = ctx.client.openapi;
      const answer = await forged.get(`${WORKSPACES}/${ws}`, { headers: { accept: WORKSPACE } });
      assert.equal(answer.status, 401, answer.text);
      assert.doesNotMatch(answer.headers['www-authenticate'] ?? '', /basic/i);
    });

    it('makes a person unknown to Blockyard a meshUser without bindings, who sees nothing', async () => {
      const stranger = new TestBrowser([serverCa, await readFile(provider.env.BLOCKYARD_OIDC_CA!, 'utf8')]);
      try {
        const page = await signInWithProvider(stranger, ctx.server.url, carol);
        assert.equal(new URL(page.url).pathname, '/console/', page.text.slice(0, 300));
        const username = `${carol}@example.com`;
        const user = await ctx.client.get(`${USERS}/${username}`, { headers: { accept: USER } });
        assert.equal(user.status, 200, user.text);
        assert.equal(user.json.spec.email, username);
        const client = new ApiClient(ctx.server.url, serverCa, { cookie: stranger.cookieHeader(ctx.server.url)! });
        client.openapi = ctx.client.openapi;
        const session = await client.get('/auth/session');
        assert.deepEqual(session.json.session, { username, workspace: null, workspaces: [], permissions: [], admin: false });
        for (const name of [ws, other]) {
          const read = await client.get(`${WORKSPACES}/${name}`, { headers: { accept: WORKSPACE } });
          assert.ok([403, 404].includes(read.status), `${name}: ${read.status} ${read.text}`);
        }
        const list = await client.get(WORKSPACES, { headers: { accept: WORKSPACE } });
        assert.ok(list.status === 403 || (list.status === 200 && (list.json._embedded?.meshWorkspaces ?? []).length === 0), list.text);
      } finally {
        await stranger.close();
      }
    });

    it('a second instance on the same PostgreSQL database takes the session', async (t) => {
      if (ctx.server.dialect !== 'postgres') return t.skip('sessions are shared through PostgreSQL');
      const second = await startInstanceOf(ctx.server, { env: { ...ctx.server.env, BLOCKYARD_PORT: '0' } });
      try {
        const session = await asBrowser(second).get('/auth/session');
        assert.equal(session.json.session?.username, alice, session.text);
        const read = await asBrowser(second).get(`${WORKSPACES}/${ws}`, { headers: { accept: WORKSPACE } });
        assert.equal(read.status, 200, read.text);
      } finally {
        await second.stop();
      }
    });

    it('survives a restart (the session is in the database)', async () => {
      await ctx.server.restart();
      const session = await asBrowser(ctx.server).get('/auth/session');
      assert.equal(session.json.session?.username, alice, session.text);
    });

    it('signs out: the session ends on the server and the old cookie is refused', async () => {
      const oldCookie = browser.cookieHeader(ctx.server.url)!;
      const out = await asBrowser(ctx.server, { origin: publicOrigin() }).post('/auth/logout', undefined);
      assert.equal(out.status, 204, out.text);
      assert.match(String(out.headers['set-cookie']), new RegExp(`${SESSION}=;.*Max-Age=0`));
      const replay = new ApiClient(ctx.server.url, serverCa, { cookie: oldCookie });
      replay.openapi = ctx.client.openapi;
      assert.deepEqual((await replay.get('/auth/session')).json, { oidc: true, session: null });
      assert.equal((await replay.get(`${WORKSPACES}/${ws}`, { headers: { accept: WORKSPACE } })).status, 401);
    });
  },
  env,
);

describeEachDatabase('single sign-on not configured', (ctx) => {
  it('answers /auth/session with oidc false and serves none of the sign-in routes', async () => {
    assert.deepEqual((await ctx.client.get('/auth/session', { anonymous: true })).json, { oidc: false, session: null });
    // Unknown paths answer 401 to anonymous callers (and 404 to others): no redirect anywhere.
    const login = await ctx.client.get('/auth/oidc/login', { anonymous: true });
    assert.equal(login.status, 401, login.text);
    assert.equal((await ctx.client.get('/auth/oidc/login')).status, 404);
    const withCookie = await ctx.client.get(WORKSPACES, {
      anonymous: true,
      headers: { cookie: `${SESSION}=${'A'.repeat(43)}`, accept: WORKSPACE },
    });
    assert.equal(withCookie.status, 401, 'a cookie is no credential without single sign-on');
  });
});
