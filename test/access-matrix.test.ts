/**
 * Issue 9, item 5: the access-control matrix. Every route of the server's route table is tried with
 * every credential case against real objects of workspace A; each answer must be the exact denial the
 * README's "Design" section defines, and every refused write must leave its target as it was.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { WORKSPACE_ROLE_CODES } from '../src/auth/roles.js';
import type { ApiClient, Response } from './support/client.js';
import { login } from './support/identity.js';
import {
  adminArea,
  API_USER,
  COLLECTIONS,
  createSide,
  forgedTokens,
  grantingCodes,
  keyToken,
  malformedTokens,
  markersOf,
  mediaFor,
  NON_ADMIN_CODES,
  planRoute,
  pool,
  probeMedia,
  PUBLIC_PATHS,
  routesOf,
  RUN,
  RUNNER,
  RUNNERS,
  RUNS,
  snapshot,
  UnmappedRoute,
  wrongBasics,
  type Credential,
  type Plan,
  type RouteMedia,
  type Side,
  type World,
} from './support/matrix.js';
import { freePort, startOpenIdProvider, type TestOpenIdProvider } from './support/oidc-provider.js';
import { bindPerson, signInAs, type SignedInPerson } from './support/people.js';
import { basic, describeEachDatabase, startTestServer, TEST_ADMIN, UNLIMITED_AUTH_FAILURES } from './support/server.js';
import { unique, type Json } from './support/structure.js';

const CONCURRENCY = 6;

/** What a case expects of one route: the statuses allowed (one, unless the brief allows several). */
interface Expectation {
  statuses: number[];
  /** The rule, for messages. */
  rule: string;
  /** Markers of A (names, see `markersOf`) the answer must not contain; lists are judged by their items. */
  hide?: string[];
  /** For lists: what the same list without A's filter must answer. */
  listUnfiltered?: Expectation;
  /** What the answer must say (which rule refused it). */
  message?: RegExp;
}

const DENIED_ELSEWHERE = [401, 403, 404];
/** Methods a session cookie opens from any site (they change nothing); the others must come from the server's own origin. */
const changesState = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

/** The workspace roles people hold in A: each is planned as a key of A holding the role's codes. */
const ROLES = ['Workspace Member', 'Workspace Manager', 'Workspace Owner'] as const;
const roleCodes = (role: (typeof ROLES)[number]) => [...WORKSPACE_ROLE_CODES.get(role)!];

// Tokens made in before() are used to the end: on a loaded machine the suite outlasts the default 300 s
// (the expired-token case has its own 1-second instance). Single sign-on is configured (people sign
// in through a real OpenID Provider), so its routes are in the route table.
const env: Record<string, string> = {
  BLOCKYARD_RATE_LIMIT_MAX: '1000000',
  BLOCKYARD_TOKEN_TTL_SECONDS: '3600',
  ...UNLIMITED_AUTH_FAILURES,
};
let provider: TestOpenIdProvider | undefined;

before(async () => {
  // The provider knows the callback, so the server's port is chosen first. No public URL is set: it
  // would become the token issuer, and the expired-token instance (another port) must issue as this one.
  const port = await freePort();
  provider = await startOpenIdProvider(`https://localhost:${port}`, []);
  Object.assign(env, provider.env, { BLOCKYARD_PORT: String(port) });
});
after(async () => {
  await provider?.close();
});

describeEachDatabase(
  'access-control matrix',
  (ctx) => {
    let world: World;
    const plans: Plan[] = [];
    const unmapped: string[] = [];
    const mediaByRoute = new Map<string, RouteMedia>();
    /** Admin reads of every target, as they were before the matrix (updated when a change is reported once). */
    const baseline = new Map<string, string>();
    const targetAccept = new Map<string, string | undefined>();
    const tokens: Record<string, string> = {};
    let fullKeyToken = '';
    let expiredToken = '';
    let expiresAt = 0;
    let noneKey = '';
    /** Keys of A holding every non-admin code except those granting a route, by the excluded codes. */
    const allBut = new Map<string, string>();
    let aMarkers: Record<string, string> = {};
    /** Per workspace role of A: a person holding it, signed in and acting in A, and a key holding its codes. */
    const people = new Map<string, SignedInPerson>();
    const roleKeys = new Map<string, string>();

    const admin = (): ApiClient => ctx.client;
    const flipped = (w: World): World => ({ a: w.b, b: w.a, apiUser: w.apiUser });

    before(async () => {
      const client = admin();
      const [a, b] = [await createSide(client, 'ma'), await createSide(client, 'mb')];
      const apiUser = unique('matrix-apiuser');
      const created = await client.post(
        '/api/admin/apiusers',
        { username: apiUser, password: 'matrix-password-1' },
        { headers: { accept: API_USER, 'content-type': API_USER } },
      );
      assert.equal(created.status, 201, created.text);
      world = { a, b, apiUser };
      aMarkers = markersOf(a);

      // An expired token: a second instance on the same database issues 1-second tokens for a key of A holding everything.
      const full = await keyToken(client, a.workspace, NON_ADMIN_CODES);
      fullKeyToken = full.token;
      const second = await startTestServer(ctx.server.dialect, {
        shared: { databaseUrl: ctx.server.env.BLOCKYARD_DATABASE_URL ?? '', dataDir: ctx.server.dataDir },
        env: { BLOCKYARD_TOKEN_TTL_SECONDS: '1', BLOCKYARD_RATE_LIMIT_MAX: '1000000' },
      });
      try {
        expiredToken = await login(second.client, full.key);
      } finally {
        await second.stop();
      }
      const claims = decodeJwt(expiredToken);
      assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 1, 'the second instance issues 1-second tokens');
      expiresAt = (claims.exp ?? 0) * 1000;

      // A token of a key that is then deleted (used once first, so every cache knows it).
      const doomed = await keyToken(client, a.workspace, NON_ADMIN_CODES);
      assert.equal(
        (
          await client.get('/api', {
            headers: { accept: 'application/vnd.vendor.api.v1.hal+json', authorization: `Bearer ${doomed.token}` },
          })
        ).status,
        200,
      );
      assert.equal((await client.delete(`/api/meshobjects/meshapikeys/${doomed.key.uuid}`)).status, 204);
      tokens.deleted = doomed.token;

      tokens.b = (await keyToken(client, b.workspace, NON_ADMIN_CODES)).token;
      noneKey = (await keyToken(client, a.workspace, [])).token;
      for (const role of ROLES) {
        people.set(role, await signInAs(ctx.server, await bindPerson(client, a.workspace, role), a.workspace));
        roleKeys.set(role, (await keyToken(client, a.workspace, roleCodes(role))).token);
      }
      const prober = client.with({ authorization: `Bearer ${(await keyToken(client, 'admin', [])).token}` });

      // The plan: one request per route, derived from the route table.
      for (const route of routesOf(ctx.server.server.context.access)) {
        try {
          plans.push(planRoute(route, world));
        } catch (error) {
          if (!(error instanceof UnmappedRoute)) throw error;
          unmapped.push(error.message);
        }
      }
      await pool(plans, CONCURRENCY, async (plan) => {
        if (plan.operation === 'public' || plan.operation === 'session' || plan.route.method === 'HEAD') return;
        mediaByRoute.set(plan.route.key, await probeMedia(prober, plan.route.method, plan.url));
      });
      // Bodies of writes to existing objects: what the admin reads in the current (not deprecated) representation, renamed.
      for (const plan of plans) {
        const { produces, consumes } = mediaFor(plan, mediaByRoute);
        const apiVersion = (plan.body as Json | null)?.apiVersion as string | undefined;
        let contentType = consumes[0];
        if (plan.operation === 'import') contentType = consumes.find((c) => c.endsWith('+json'));
        else if (apiVersion) contentType = consumes.find((c) => c.includes(`.${apiVersion}.`)) ?? contentType;
        if (plan.operation === 'write' && plan.route.method === 'PUT' && consumes.length > 0) {
          let current: Response | undefined;
          for (const candidate of consumes) {
            current = await client.get(plan.url, { headers: { accept: candidate } });
            contentType = candidate;
            if (current.status === 200 && !current.headers.deprecation) break;
          }
          assert.equal(current?.status, 200, `${plan.route.key}: the admin reads the target in ${contentType}: ${current?.text}`);
          plan.body = renamed(current!.json);
        }
        plan.contentType = contentType;
        plan.accept = contentType && produces.includes(contentType) ? contentType : produces[0];
      }
      for (const plan of plans) {
        if (plan.route.key.endsWith('/status/source'))
          plan.body = { source: { id: 'matrix-intruder' }, steps: [{ id: 'intrude', displayName: 'Intrude' }] };
        if (plan.route.key.endsWith('/status/source/:sourceId'))
          plan.body = { status: 'FAILED', steps: [{ id: 'plan', status: 'FAILED', userMessage: 'changed by the access matrix' }] };
        if (plan.operation === 'import')
          plan.body = [
            {
              apiVersion: 'v2',
              kind: 'meshWorkspace',
              metadata: { name: world.a.workspace },
              spec: { displayName: 'changed by the access matrix' },
            },
          ];
        plan.targets = targetsOf(plan);
      }

      // Keys of A lacking exactly what grants a route.
      for (const plan of plans) {
        const codes = grantingCodes(plan);
        const excluded = (codes ?? []).join(',');
        if (!allBut.has(excluded) && (codes || adminArea(plan))) {
          allBut.set(
            excluded,
            (
              await keyToken(
                client,
                a.workspace,
                NON_ADMIN_CODES.filter((code) => !codes?.includes(code)),
              )
            ).token,
          );
        }
      }

      for (const url of new Set(plans.flatMap((p) => p.targets).concat(globalTargets())))
        baseline.set(url, await snapshot(client, url, targetAccept.get(url)));
    });

    /** A changed name (or an added input), so a write that went through shows. */
    function renamed(current: Json): Json {
      const { _links: _ignored, ...body } = current;
      const spec = { ...(body.spec as Json) };
      if (typeof spec.displayName === 'string') spec.displayName = `${spec.displayName} (changed by the access matrix)`;
      else if (spec.inputs && typeof spec.inputs === 'object')
        spec.inputs = { ...(spec.inputs as Json), matrix: { displayName: 'Matrix', type: 'STRING', assignmentType: 'USER_INPUT' } };
      return { ...body, spec };
    }

    /** GET routes of a collection's objects, filled for A (or B): what a refused write must leave unchanged. */
    function objectReads(collection: string, w: World): string[] {
      return plans
        .filter((p) => p.collection === collection && p.route.method === 'GET' && p.operation === 'read')
        .map((p) => {
          const url = planRoute(p.route, w).url;
          targetAccept.set(url, p.accept);
          return url;
        });
    }

    function listOf(collection: string, w: World): string[] {
      const list = plans.find((p) => p.collection === collection && p.route.method === 'GET' && p.operation === 'list');
      if (!list) return [];
      const url = planRoute(list.route, w).url;
      targetAccept.set(url, list.accept);
      return [url];
    }

    function targetsOf(plan: Plan): string[] {
      switch (plan.operation) {
        case 'write': {
          const reads = objectReads(plan.collection!, world);
          return reads.length > 0 ? reads : listOf(plan.collection!, world);
        }
        case 'create':
          return listOf(plan.collection!, world);
        case 'claim': {
          // What a claim that went through would change: the waiting run (and the runner's lastSeen).
          const urls = [`${RUNS}/${world.a.waitingRun}`, `${RUNNERS}/${world.a.runnerUuid}`];
          targetAccept.set(urls[0]!, RUN);
          targetAccept.set(urls[1]!, RUNNER);
          return urls;
        }
        case 'import':
          return objectReads('meshworkspaces', world);
        default:
          return [];
      }
    }

    /** Every object of A and B: read after each case. */
    function globalTargets(): string[] {
      const urls: string[] = [];
      for (const w of [world, flipped(world)])
        for (const collection of Object.keys(COLLECTIONS)) urls.push(...objectReads(collection, w), ...listOf(collection, w));
      return urls;
    }

    async function send(
      plan: Plan,
      authorization: string | undefined,
      url = plan.url,
      credentialHeaders: Record<string, string> = {},
    ): Promise<Response> {
      const headers: Record<string, string | undefined> = { accept: plan.accept, ...credentialHeaders };
      if (plan.body !== null) headers['content-type'] = plan.contentType ?? 'application/json';
      if (authorization !== undefined) headers.authorization = authorization;
      return admin().request(plan.route.method, url, {
        headers,
        anonymous: authorization === undefined,
        body: plan.body === null ? undefined : JSON.stringify(plan.body),
      });
    }

    /** Tries the plans with a credential; returns one line per broken expectation. */
    async function tryAll(
      credential: Credential,
      expect: (plan: Plan) => Expectation | undefined,
      candidates: Plan[] = plans,
    ): Promise<string[]> {
      const failures: string[] = [];
      await pool(candidates, CONCURRENCY, async (plan) => {
        const expectation = expect(plan);
        if (!expectation) return;
        const tries: [string, Expectation][] = [[plan.url, expectation]];
        // Another workspace's key lists the collection without a filter as well: its own objects only.
        if (expectation.listUnfiltered && plan.spec?.listQuery && !plan.spec.queryRequired)
          tries.push([plan.url.split('?')[0]!, expectation.listUnfiltered]);
        for (const [url, expected] of tries) {
          const response = await send(plan, credential.authorization, url, {
            ...credential.headers,
            ...(changesState(plan.route.method) ? credential.writeHeaders : {}),
          });
          const where = `${plan.route.key} [${credential.name}: ${credential.label}] ${plan.route.method} ${url}`;
          if (!expected.statuses.includes(response.status)) {
            failures.push(
              `${where}: expected ${expected.statuses.join(' or ')} (${expected.rule}), got ${response.status} ${response.text.slice(0, 300)}`,
            );
          }
          if (response.status === 401 && !response.headers['www-authenticate']) failures.push(`${where}: 401 without WWW-Authenticate`);
          if (expected.message && !expected.message.test(response.text))
            failures.push(`${where}: the answer does not say ${expected.message}: ${response.text.slice(0, 300)}`);
          if (expected.hide && response.status < 300 && plan.route.method !== 'HEAD') {
            // Lists are judged by their items (their links echo the query); everything else whole.
            const json = JSON.parse(response.text) as Json;
            const text = JSON.stringify(plan.operation === 'list' ? json._embedded : json);
            const leaked = expected.hide.map((name) => [name, aMarkers[name]!] as const).filter(([, marker]) => text.includes(marker));
            if (leaked.length > 0) failures.push(`${where}: names A's ${leaked.map(([name]) => name).join(', ')}: ${text.slice(0, 300)}`);
          }
        }
        for (const target of plan.targets) {
          const now = await snapshot(admin(), target, targetAccept.get(target));
          if (now !== baseline.get(target)) {
            failures.push(
              `${plan.route.key} [${credential.name}: ${credential.label}]: changed ${target}:\n    before ${baseline.get(target)?.slice(0, 400)}\n    after  ${now.slice(0, 400)}`,
            );
            baseline.set(target, now);
          }
        }
      });
      return failures;
    }

    /** Every object of A and B reads as before. */
    async function unchangedEverywhere(after: string): Promise<string[]> {
      const failures: string[] = [];
      for (const [url, before] of baseline) {
        const now = await snapshot(admin(), url, targetAccept.get(url));
        if (now !== before) {
          failures.push(`after ${after}: changed ${url}:\n    before ${before.slice(0, 400)}\n    after  ${now.slice(0, 400)}`);
          baseline.set(url, now);
        }
      }
      return failures;
    }

    async function run(credentials: Credential[], expect: (plan: Plan) => Expectation | undefined, candidates?: Plan[]): Promise<void> {
      const failures: string[] = [];
      for (const credential of credentials) failures.push(...(await tryAll(credential, expect, candidates)));
      failures.sort(); // requests run concurrently: a stable report
      failures.push(...(await unchangedEverywhere(credentials[0]!.name)));
      if (failures.length > 0) assert.fail(`${failures.length} broken expectations:\n${failures.join('\n')}`);
    }

    /** Every marker of A but those the collection shows in another workspace's marketplace. */
    const hiddenFromB = (plan: Plan) => Object.keys(aMarkers).filter((name) => !(plan.spec?.allowedMarkers ?? []).includes(name));

    const unauthenticated = (plan: Plan): Expectation | undefined =>
      plan.operation === 'public' ? undefined : { statuses: [401], rule: 'missing or bad credentials' };

    /** A session route called by a key: nothing to switch, nothing to end. */
    const noSession = (plan: Plan): Expectation =>
      plan.route.path === '/auth/logout'
        ? { statuses: [204], rule: 'signing out without a session ends nothing' }
        : { statuses: [404], rule: 'no session to switch: keys act where they are' };

    it('derives a request for every route of the route table; exactly the README’s public routes are public', () => {
      assert.deepEqual(unmapped, [], 'routes without a case mapping');
      const table = routesOf(ctx.server.server.context.access);
      assert.equal(plans.length, table.length);
      assert.ok(plans.length > 100, `${plans.length} routes`);
      const publicPaths = [...new Set(plans.filter((p) => p.operation === 'public').map((p) => p.route.path))].sort();
      assert.deepEqual(publicPaths, [...PUBLIC_PATHS].sort());
    });

    it('plans plausible requests: the admin reads every target, every list names A’s object, every run endpoint opens for its own run token', async () => {
      const failures: string[] = [];
      await pool(plans, CONCURRENCY, async (plan) => {
        if (!['read', 'list', 'index'].includes(plan.operation)) return;
        const response = await send(plan, basic(TEST_ADMIN.username, TEST_ADMIN.password));
        if (response.status !== 200) failures.push(`${plan.route.key} as admin: ${response.status} ${response.text.slice(0, 200)}`);
        const marker = plan.spec?.listMarker?.(world);
        if (plan.operation === 'list' && plan.route.method === 'GET' && marker && !response.text.includes(marker))
          failures.push(`${plan.route.key} as admin: the list ${plan.url} does not name ${marker}`);
        if (plan.runEndpoint && plan.operation === 'read') {
          const own = await send(plan, `Bearer ${world.a.runToken}`);
          if (own.status !== 200) failures.push(`${plan.route.key} with the run's own token: ${own.status} ${own.text.slice(0, 200)}`);
        }
      });
      for (const plan of plans) {
        const needsBody =
          plan.operation === 'create' || plan.operation === 'import' || (plan.operation === 'write' && plan.contentType !== undefined);
        if (needsBody && plan.body === null) failures.push(`${plan.route.key}: takes ${plan.contentType}, but no body is planned`);
      }
      // The expired token differs from a working one only in its age: same issuer, audience and a published signing key.
      const full = await send(
        plans.find((p) => p.route.key === 'GET /api/meshobjects/meshapikeys')!,
        `Bearer ${fullKeyToken}`,
      );
      assert.equal(full.status, 200, 'the key behind the expired token works with a fresh token');
      const [expired, fresh] = [decodeJwt(expiredToken), decodeJwt(fullKeyToken)];
      assert.deepEqual([expired.iss, expired.aud, expired.sub], [fresh.iss, fresh.aud, fresh.sub]);
      const jwks = (await admin().get('/oauth/jwks', { anonymous: true })).json as { keys: { kid: string }[] };
      assert.ok(
        jwks.keys.some((k) => k.kid === decodeProtectedHeader(expiredToken).kid),
        'the expired token’s signing key is published',
      );
      if (failures.length > 0) assert.fail(failures.join('\n'));
    });

    it('no Authorization → 401 on every protected route', async () => {
      await run([{ name: 'no credentials', label: 'none' }], unauthenticated);
    });

    it('a malformed Bearer token or an unknown scheme → 401', async () => {
      await run(malformedTokens(), unauthenticated);
    });

    it('a token signed by nobody (or tampered with) → 401', async () => {
      await run(await forgedTokens(fullKeyToken, world.a.run), unauthenticated);
    });

    it('Basic with a wrong password, an unknown user or a key’s client credentials → 401', async () => {
      await run(wrongBasics(world.a.key), unauthenticated);
    });

    it('an expired token → 401', async () => {
      const wait = expiresAt + 1100 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await run(
        [
          {
            name: 'expired token',
            label: 'a key of A with every code, token of a 1-second instance',
            authorization: `Bearer ${expiredToken}`,
          },
        ],
        unauthenticated,
      );
    });

    it('a token of a deleted key → 401', async () => {
      await run(
        [{ name: 'token of a deleted key', label: 'a key of A with every code', authorization: `Bearer ${tokens.deleted}` }],
        unauthenticated,
      );
    });

    it('a key of workspace B (every non-admin code): 404 for A’s invisible objects, 403 for forbidden writes, lists without A’s objects', async () => {
      await run([{ name: 'key of another workspace', label: 'B, every non-admin code', authorization: `Bearer ${tokens.b}` }], (plan) => {
        const visibility = plan.spec?.visibility;
        switch (plan.operation) {
          case 'public':
            return undefined;
          case 'gone':
            return { statuses: [404], rule: 'retired kind' };
          case 'index':
            return { statuses: [200], rule: 'indexes are open to every caller', hide: hiddenFromB(plan) };
          case 'import':
            return { statuses: [403], rule: 'admins only' };
          case 'tfstate':
            return {
              statuses: [404],
              rule: 'a block’s Terraform state: its run tokens, admins and the platform team; nothing there for others',
            };
          case 'session':
            return noSession(plan);
          default:
        }
        if (adminArea(plan)) return { statuses: [403], rule: plan.adminOnly ? 'README: admins only' : 'admins only' };
        switch (plan.operation) {
          case 'list': {
            const own: Expectation = { statuses: [200], rule: 'a list of the caller’s own objects', hide: hiddenFromB(plan) };
            return plan.spec?.bListStatus
              ? {
                  statuses: [plan.spec.bListStatus],
                  rule: 'README: the marketplace shows definitions, not their versions (403)',
                  hide: hiddenFromB(plan),
                  listUnfiltered: own,
                }
              : { ...own, listUnfiltered: own };
          }
          case 'read':
            if (visibility === 'marketplace')
              return { statuses: [200], rule: 'README: in every caller’s marketplace', hide: hiddenFromB(plan) };
            return { statuses: [404], rule: 'invisible → 404' };
          case 'write':
            // Issue 14: A's run is invisible to B's key whatever it holds, as for a run that does not exist.
            return visibility === 'hidden'
              ? { statuses: [404], rule: 'invisible → 404' }
              : { statuses: [403], rule: 'forbidden write → 403' };
          case 'create':
            if (plan.spec?.bCreateStatus)
              return { statuses: [plan.spec.bCreateStatus], rule: 'a body naming A’s invisible objects → 422 (they do not exist for B)' };
            return { statuses: [403], rule: 'creating in another workspace → 403' };
          case 'claim':
            return { statuses: [404], rule: 'A’s private runner is invisible → 404' };
          default:
            return undefined;
        }
      });
    });

    /** 403 for a key of A that lacks what a route needs; routes that need nothing answer 200. */
    const missingPermission = (plan: Plan): Expectation | undefined => {
      switch (plan.operation) {
        case 'public':
          return undefined;
        case 'gone':
          return { statuses: [404], rule: 'retired kind' };
        case 'index':
          return { statuses: [200], rule: 'indexes need no permission' };
        case 'tfstate':
          return {
            statuses: [404],
            rule: 'a block’s Terraform state: its run tokens, admins and the platform team; nothing there for others',
          };
        case 'session':
          return noSession(plan);
        case 'read':
        case 'list':
          if (plan.spec?.openRead)
            return {
              statuses: [200],
              rule: 'README: readable by every caller, the config only with PLATFORMINSTANCE_LIST',
              hide: ['platformConfig'],
            };
          return { statuses: [403], rule: 'missing permission → 403' };
        default:
          return { statuses: [403], rule: 'missing permission → 403' };
      }
    };

    it('a key of A without any permission → 403 (routes needing none excepted)', async () => {
      await run(
        [{ name: 'key without the needed permission', label: 'A, no codes', authorization: `Bearer ${noneKey}` }],
        missingPermission,
      );
    });

    it('a key of A holding every non-admin code except the ones granting the route → 403', async () => {
      const failures: string[] = [];
      for (const [excluded, token] of allBut) {
        const candidates = plans.filter(
          (plan) => (grantingCodes(plan) ?? []).join(',') === excluded && (grantingCodes(plan) || adminArea(plan)),
        );
        const label = excluded === '' ? 'A, every non-admin code (admin routes)' : `A, every non-admin code but ${excluded}`;
        failures.push(
          ...(await tryAll(
            { name: 'key without the needed permission', label, authorization: `Bearer ${token}` },
            missingPermission,
            candidates,
          )),
        );
      }
      failures.sort();
      failures.push(...(await unchangedEverywhere('keys without the needed permission')));
      if (failures.length > 0) assert.fail(`${failures.length} broken expectations:\n${failures.join('\n')}`);
    });

    /**
     * A caller of A holding exactly `codes` (a workspace role's): 403 where it lacks what grants the
     * route (as `missingPermission`), 200 for reads it holds. Writes it holds are not sent: one that
     * went through would change A's objects under the other cases.
     */
    const holding =
      (codes: readonly string[]) =>
      (plan: Plan): Expectation | undefined => {
        const held = (code: string) => codes.includes(code);
        if (plan.operation === 'import' || adminArea(plan)) return { statuses: [403], rule: 'admins only' };
        if (plan.operation === 'tfstate')
          return codes.some((code) => code.startsWith('MANAGED_TFSTATE_')) ? undefined : missingPermission(plan);
        if (['public', 'gone', 'index', 'session'].includes(plan.operation)) return missingPermission(plan);
        const granting = grantingCodes(plan);
        // An "authenticated" route without per-object codes: its kind decides per object; not judged here.
        if (granting === undefined) return undefined;
        if (!granting.some(held)) return missingPermission(plan);
        return plan.operation === 'read' || plan.operation === 'list' ? { statuses: [200], rule: 'a read the role grants' } : undefined;
      };

    it('a key of A holding a workspace role’s codes (Member, Manager, Owner): 403 for what the role lacks, 200 for what it reads', async () => {
      for (const role of ROLES)
        await run(
          [{ name: 'key holding a role’s codes', label: `A, ${role}`, authorization: `Bearer ${roleKeys.get(role)!}` }],
          holding(roleCodes(role)),
        );
    });

    /** A person's session cookie, with the server's own Origin on state-changing requests (as the console sends them). */
    const personOf = (role: (typeof ROLES)[number], label = `A, ${role}`): Credential => {
      const person = people.get(role)!;
      return { name: 'person holding a role', label, headers: { cookie: person.cookie }, writeHeaders: { origin: person.origin } };
    };
    /** The Terraform state backend takes what Terraform sends (Basic, Bearer): a session cookie is no credential there. */
    const noCookieCredential: Expectation = { statuses: [401], rule: 'the Terraform state backend takes no session cookie' };

    it('a person bound to a workspace role of A, signed in, is judged as the key holding that role’s codes', async () => {
      for (const role of ROLES) {
        await run([personOf(role)], (plan) => {
          if (plan.operation === 'tfstate') return noCookieCredential;
          // Signing out is not sent: it would end the session the other cases use (test/sso.test.ts signs out).
          if (plan.operation === 'session')
            return plan.route.path === '/auth/logout'
              ? undefined
              : { statuses: [200], rule: 'a person switches to a workspace it holds a role in' };
          return holding(roleCodes(role))(plan);
        });
      }
    });

    it('a person’s cookie-only write with a foreign Origin → 403 on every state-changing route, changing nothing', async () => {
      const owner = {
        ...personOf('Workspace Owner', 'A, Workspace Owner, Origin https://evil.example'),
        writeHeaders: { origin: 'https://evil.example' },
      };
      await run([owner], (plan) => {
        if (plan.operation === 'public' || !changesState(plan.route.method)) return undefined;
        if (plan.operation === 'tfstate') return noCookieCredential;
        return {
          statuses: [403],
          rule: 'a cookie-only write must come from the server’s own origin',
          message: /must come from https:\/\/localhost:/,
        };
      });
    });

    it('another run’s run token → 403 on A’s run endpoints, never 2xx elsewhere', async () => {
      await run(
        [{ name: 'another run’s run token', label: 'the token of B’s live run', authorization: `Bearer ${world.b.runToken}` }],
        (plan) => {
          if (plan.operation === 'public') return undefined;
          if (plan.runEndpoint) return { statuses: [403], rule: 'a run token opens only its own run' };
          return { statuses: DENIED_ELSEWHERE, rule: 'a run token opens nothing but its own run', hide: ['platformConfig'] };
        },
      );
    });

    it('a run’s own token opens nothing but that run’s GET and status endpoints', async () => {
      await run(
        [{ name: 'the run’s own token elsewhere', label: 'the token of A’s live run', authorization: `Bearer ${world.a.runToken}` }],
        (plan) => {
          if (plan.operation === 'public' || plan.runEndpoint) return undefined;
          return { statuses: DENIED_ELSEWHERE, rule: 'a run token opens nothing but its own run', hide: ['platformConfig'] };
        },
      );
    });

    it('leaves every object as it was: keys still log in, the waiting run still waits', async () => {
      const failures = await unchangedEverywhere('the whole matrix');
      for (const side of [world.a, world.b] as Side[]) {
        const response = await admin().post(
          '/api/login',
          { clientId: side.key.clientId, clientSecret: side.key.clientSecret },
          { anonymous: true, headers: { 'content-type': 'application/json' } },
        );
        if (response.status !== 200)
          failures.push(`the key ${side.key.uuid} of ${side.workspace} no longer logs in (rotated?): ${response.status}`);
      }
      if (failures.length > 0) assert.fail(failures.join('\n'));
    });
  },
  env,
);
