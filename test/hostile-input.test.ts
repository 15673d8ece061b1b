import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { before, it, type TestContext } from 'node:test';
import fc from 'fast-check';
import { request } from 'undici';
import { media } from './support/client.js';
import {
  baseBody,
  buildWorld,
  caseFor,
  discoverRoutes,
  Fuzzer,
  idsFor,
  isScimPath,
  nestedJson,
  pct,
  pollutionViolations,
  prototypeSnapshot,
  responseViolations,
  routeKey,
  SecretBook,
  selfPath,
  sendRaw,
  spliceRaw,
  weightOf,
  type HostileRequest,
  type RouteSpec,
  type World,
} from './support/hostile.js';
import { describeEachDatabase, UNLIMITED_AUTH_FAILURES } from './support/server.js';
import { unique, workspaceBody } from './support/structure.js';

/**
 * Property-based black-box tests over every route of the route
 * table. Each generated case is one HTTPS request with hostile bodies, query strings, path ids or
 * headers; every answer must be < 500, come within LIMIT_MS, be a `{message, errorCode, errorId}`
 * JSON error when it is one, and echo no secret the suite knows; whatever a 2xx stored must read
 * back valid. The prototypes of this process (the server runs in it) must stay clean, and the
 * server must answer normally afterwards.
 *
 * One case is one request, so a failure shrinks to a single request. BLOCKYARD_HOSTILE_CASES
 * (generated cases per database, default 5000: 10 000 per CI run) and BLOCKYARD_HOSTILE_SEED (replay
 * a run) tune a run.
 */

const CASES_PER_DATABASE = Number(process.env.BLOCKYARD_HOSTILE_CASES ?? 5000);
/** A fifth of the cases break the request before any route sees it. */
const TRANSPORT_CASES = Math.ceil(CASES_PER_DATABASE / 5);
const APPLICATION_CASES = CASES_PER_DATABASE - TRANSPORT_CASES;
const CONCURRENCY = 4;
const LIMIT_MS = 5000;
const SEED = process.env.BLOCKYARD_HOSTILE_SEED !== undefined ? Number(process.env.BLOCKYARD_HOSTILE_SEED) : undefined;
const INDEX = media('', 'v1');

// ---------------------------------------------------------------------------------------------

describeEachDatabase(
  'hostile input',
  (ctx) => {
    const secrets = new SecretBook();
    const snapshot = prototypeSnapshot();
    let world: World;
    let routes: RouteSpec[];
    let fuzzer: Fuzzer;
    let totalCases = 0;

    before(async () => {
      world = await buildWorld(ctx.server, secrets);
      const agent = ctx.client.agent;
      routes = await discoverRoutes(async (method, path, headers, body) => {
        const res = await sendRaw(
          ctx.server.url,
          agent,
          {
            route: 'probe',
            method,
            path,
            headers: { authorization: isScimPath(path) ? world.auth.scim : world.auth.admin, ...headers },
            ...(body !== undefined ? { body } : {}),
          },
          10_000,
        );
        return { status: res.status, text: res.text };
      }, ctx.server.server.context.access.keys());
      fuzzer = new Fuzzer(ctx.server, agent, world, secrets, new Map(routes.map((route) => [routeKey(route), route])), LIMIT_MS);
    });

    it('knows what every route of the route table speaks', (t) => {
      const table = [...ctx.server.server.context.access.keys()];
      assert.deepEqual(routes.map(routeKey).sort(), table.sort(), 'every route of the table is fuzzed');
      const withBody = routes.filter((route) => route.consumes.length + route.plainBodies.length > 0);
      assert.ok(
        withBody.some((route) => route.template === '/api/meshobjects/meshworkspaces'),
        'body routes were discovered',
      );
      assert.ok(
        routes.some((route) => route.produces.length > 0),
        'produced media types were discovered',
      );
      t.diagnostic(`${routes.length} routes, ${withBody.length} take a body: ${withBody.map(routeKey).join(', ')}`);
    });

    /**
     * Runs CONCURRENCY properties side by side (seeds seed, seed+1, …), one request per case. Once a
     * lane fails the others stop sending, so its counterexample shrinks against a quiet server.
     */
    async function fuzz(t: TestContext, transport: boolean, cases: number): Promise<void> {
      const arbitrary = fc.oneof(...routes.map((route) => ({ arbitrary: caseFor(route, world, transport), weight: weightOf(route) })));
      const seed = (SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0) + (transport ? 1000 : 0);
      t.diagnostic(`fast-check seed ${seed} (replay: BLOCKYARD_HOSTILE_SEED=${transport ? seed - 1000 : seed})`);
      const started = Date.now();
      const requestsBefore = fuzzer.requests;
      const readbacksBefore = fuzzer.readbacks;
      let generated = 0;
      let failedLane: number | undefined;
      const lane = (index: number) =>
        fc.assert(
          fc.asyncProperty(arbitrary, async (req) => {
            if (failedLane !== undefined && failedLane !== index) return;
            generated++;
            const failures = (await fuzzer.judge(req)).filter((verdict) => verdict.problems.length > 0);
            const polluted = pollutionViolations(snapshot);
            if (polluted.length > 0) failures.push({ req, problems: polluted });
            if (failures.length > 0) {
              failedLane ??= index;
              throw new Error(`\n${await fuzzer.report(failures)}\n`);
            }
          }),
          { numRuns: Math.ceil(cases / CONCURRENCY), seed: seed + index, timeout: 60_000 },
        );
      const outcomes = await Promise.allSettled(Array.from({ length: CONCURRENCY }, (_, index) => lane(index)));
      totalCases += generated;
      t.diagnostic(
        `${ctx.server.dialect}: ${generated} generated cases, ${fuzzer.requests - requestsBefore} requests and ${fuzzer.readbacks - readbacksBefore} read-backs (${fuzzer.stored} stored objects verified so far, ${secrets.size} known secrets) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      if (fuzzer.unservedSelfLinks.size > 0)
        t.diagnostic(`self links no GET route serves (read back from their collection): ${[...fuzzer.unservedSelfLinks].join(', ')}`);
      const failures = outcomes.flatMap((outcome, index) =>
        outcome.status === 'rejected'
          ? [`lane ${index} (seed ${seed + index}): ${(outcome.reason as Error).message}\n${String((outcome.reason as Error).cause ?? '')}`]
          : [],
      );
      assert.equal(failures.length, 0, failures.join('\n\n'));
      assert.ok(generated >= cases, `${generated} cases generated`);
    }

    it(`answers ${APPLICATION_CASES} hostile requests (bodies, queries, path ids, headers) below 500, in time, with proper errors, no secrets and valid stored objects`, (t) =>
      fuzz(t, false, APPLICATION_CASES));

    it(`answers ${TRANSPORT_CASES} requests broken at the transport level (bad escapes, over-long ids, URLs and headers) the same way`, (t) =>
      fuzz(t, true, TRANSPORT_CASES));

    it('refuses a 10 MB body with 413 on every route that takes a body', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024, 0x20);
      big.write('{"a":"', 0);
      const failures: string[] = [];
      const takers = routes.filter((route) => route.consumes.length + route.plainBodies.length > 0);
      for (const route of takers) {
        const type = route.consumes[0] ?? route.plainBodies[0]!;
        const path = route.template
          .split('/')
          .map((part) => (part.startsWith(':') ? pct(idsFor(route, part, world)[0] ?? 'x') : part))
          .join('/');
        const req: HostileRequest = {
          route: routeKey(route),
          method: route.method,
          path,
          headers: {
            authorization: isScimPath(path) ? world.auth.scim : world.auth.admin,
            'content-type': type,
            ...(route.produces[0] ? { accept: route.produces[0] } : {}),
          },
          body: big,
        };
        const { res, error } = await sendRaw(ctx.server.url, ctx.client.agent, req, 30_000).then(
          (r) => ({ res: r, error: undefined }),
          (e: Error) => ({ res: undefined, error: e.message }),
        );
        if (!res) failures.push(`${routeKey(route)}: no answer (${error})`);
        else if (res.status !== 413 || responseViolations(req, res, secrets, 30_000).length > 0)
          failures.push(`${routeKey(route)}: ${res.status} ${res.text.slice(0, 200)}`);
      }
      // Without a Content-Length (chunked): the limit holds while reading.
      async function* chunks() {
        yield Buffer.from('{"a":"');
        for (let i = 0; i < 10; i++) yield Buffer.alloc(1024 * 1024, 0x61);
      }
      const workspaceType = media('meshworkspace', 'v2');
      const chunked = await request(`${ctx.server.url}/api/meshobjects/meshworkspaces`, {
        method: 'POST',
        headers: { authorization: world.auth.admin, 'content-type': workspaceType, accept: workspaceType },
        body: Readable.from(chunks()),
        dispatcher: ctx.client.agent,
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (r) => ({ status: r.statusCode, text: await r.body.text() }),
        (error: Error) => error,
      );
      if (chunked instanceof Error) failures.push(`chunked 10 MB: no answer (${chunked.message})`);
      else if (chunked.status !== 413) failures.push(`chunked 10 MB: ${chunked.status} ${chunked.text.slice(0, 200)}`);
      assert.deepEqual(failures, [], `${takers.length} routes take a body`);
    });

    it('refuses a body nested 100 levels with 400 (64 levels are fine, 65 are not)', async () => {
      const workspaceType = media('meshworkspace', 'v2');
      const failures: string[] = [];
      const send = (req: HostileRequest) => sendRaw(ctx.server.url, ctx.client.agent, req, LIMIT_MS);
      const depthOf = (value: unknown): number =>
        value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
      const workspaceAt = (levels: number) => {
        const body = workspaceBody(unique('deep'), { spec: { deep: nestedJson(levels - 2) } });
        assert.equal(depthOf(body), levels);
        return body;
      };
      for (const [levels, expected] of [
        [64, 201],
        [65, 400],
        [100, 400],
      ] as const) {
        const req: HostileRequest = {
          route: 'POST /api/meshobjects/meshworkspaces',
          method: 'POST',
          path: '/api/meshobjects/meshworkspaces',
          headers: { authorization: world.auth.admin, accept: workspaceType, 'content-type': workspaceType },
          body: JSON.stringify(workspaceAt(levels)),
        };
        const res = await send(req);
        if (res.status !== expected || responseViolations(req, res, secrets, LIMIT_MS).length > 0)
          failures.push(`workspace nested ${levels} levels: ${res.status} (expected ${expected}) ${res.text.slice(0, 200)}`);
        if (res.status === 201) {
          const read = await send({
            route: 'GET',
            method: 'GET',
            path: selfPath(res)!,
            headers: { authorization: world.auth.admin, accept: workspaceType },
          });
          if (read.status !== 200) failures.push(`workspace nested ${levels} levels reads back ${read.status}`);
        }
      }
      // Every route that parses a body: 100 levels inside its otherwise valid body.
      for (const route of routes.filter((r) => r.consumes.length + r.plainBodies.length > 0)) {
        const type = route.consumes.find((t) => !t.endsWith('+yaml')) ?? route.plainBodies.find((t) => t.endsWith('json'));
        if (!type) continue;
        const base = fc.sample(baseBody(route, type, world), { numRuns: 1, seed: 1 })[0];
        // Spliced into the top level of the body: 1 + 99 = 100 levels.
        const body = spliceRaw(base, 0, Buffer.from(JSON.stringify(nestedJson(99))));
        assert.equal(depthOf(JSON.parse(body.toString())), 100, `${routeKey(route)}: the body is nested 100 levels`);
        const path = route.template
          .split('/')
          .map((part) => (part.startsWith(':') ? pct(idsFor(route, part, world)[0] ?? 'x') : part))
          .join('/');
        const req: HostileRequest = {
          route: routeKey(route),
          method: route.method,
          path,
          headers: {
            authorization: isScimPath(path) ? world.auth.scim : world.auth.admin,
            'content-type': type,
            ...(route.produces[0] ? { accept: route.produces[0] } : {}),
          },
          body,
        };
        const res = await send(req);
        if (res.status !== 400 || responseViolations(req, res, secrets, LIMIT_MS).length > 0)
          failures.push(`${routeKey(route)} nested 100 levels: ${res.status} ${res.text.slice(0, 200)}`);
      }
      // The YAML import: 100 levels of flow sequences.
      const yamlReq: HostileRequest = {
        route: 'PUT /api/meshobjects',
        method: 'PUT',
        path: '/api/meshobjects',
        headers: {
          authorization: world.auth.admin,
          accept: 'application/vnd.vendor.api.meshobjects.v1+json',
          'content-type': 'application/vnd.vendor.api.meshobjects.v1+yaml',
        },
        body: `- ${'['.repeat(99)}1${']'.repeat(99)}\n`,
      };
      const yamlRes = await send(yamlReq);
      if (yamlRes.status !== 400 || responseViolations(yamlReq, yamlRes, secrets, LIMIT_MS).length > 0)
        failures.push(`YAML import nested 100 levels: ${yamlRes.status} ${yamlRes.text.slice(0, 200)}`);
      assert.deepEqual(failures, []);
    });

    it('still answers normally afterwards, with clean prototypes', async (t) => {
      t.diagnostic(`${ctx.server.dialect}: ${totalCases} generated hostile cases in this suite`);
      assert.deepEqual(pollutionViolations(snapshot), []);
      const index = await ctx.client.get('/api', { headers: { accept: INDEX } });
      assert.equal(index.status, 200, index.text);
      assert.equal(typeof index.json._links?.meshobjects?.href, 'string', index.text);
      const admin = await ctx.client.get('/api/meshobjects/meshworkspaces/admin', { headers: { accept: media('meshworkspace', 'v2') } });
      assert.equal(admin.status, 200, `the admin workspace survived: ${admin.text}`);
      const health = await ctx.client.get('/healthz');
      assert.equal(health.status, 200, health.text);
    });
  },
  { BLOCKYARD_RATE_LIMIT_MAX: '10000000', ...UNLIMITED_AUTH_FAILURES },
);
