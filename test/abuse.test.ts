/**
 * No request can stall the server, no tenant can exhaust it. Each attack of the review,
 * tried as an attacker would: a catastrophic validation regex, a run log grown without bound through
 * one run token, a marketplace of definitions with huge readmes.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  assertError,
  createDefinition,
  createReleasedDefinition,
  DEFINITION,
  DEFINITIONS,
  firstVersionUuid,
  putVersion,
  versionSpec,
} from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { asRun, BLOCK_V2, BLOCKS, claimRun, createBlock, patch, register, registerRunner, RUN, RUNS } from './support/runs.js';
import { media } from './support/client.js';
import { basic, describeEachDatabase } from './support/server.js';
import { createWorkspace, io, unique, type Json } from './support/structure.js';

const LOG_LIMIT = 256 * 1024;
const USERS = '/api/admin/apiusers';
const USER = media('apiuser', 'v1');
// The documented defaults (README "Reliability"): the suite runs with them.
const IDENTITY_LIMIT = 10;
const ADDRESS_LIMIT = 50;
const WINDOW_SECONDS = 300;

describeEachDatabase(
  'abuse resistance',
  (ctx) => {
    describe('1. user-supplied patterns run in linear time', () => {
      it('the catastrophic regex answers in milliseconds while /healthz stays fast', async () => {
        const workspace = unique('redos');
        await createWorkspace(ctx.client, workspace);
        const input = {
          displayName: 'Name',
          type: 'STRING',
          assignmentType: 'USER_INPUT',
          valueValidationRegex: '^([a-z0-9]+)*$',
          validationRegexErrorMessage: 'alphanumeric',
        };
        const { version } = await createReleasedDefinition(
          ctx.client,
          workspace,
          'manual',
          { inputs: { name: input } },
          { displayName: unique('ReDoS'), targetType: 'WORKSPACE_LEVEL' },
        );
        const body = (value: string) => ({
          apiVersion: 'v2-preview',
          kind: 'meshBuildingBlock',
          spec: {
            displayName: 'redos',
            buildingBlockDefinitionVersionRef: { uuid: version.metadata.uuid },
            targetRef: { kind: 'meshWorkspace', identifier: workspace },
            inputs: [{ key: 'name', value, valueType: 'STRING' }],
            parentBuildingBlocks: [],
          },
        });
        const started = performance.now();
        const health = (async () => {
          const times: number[] = [];
          for (let i = 0; i < 5; i++) {
            const t = performance.now();
            assert.equal((await ctx.client.get('/healthz', { anonymous: true })).status, 200);
            times.push(performance.now() - t);
          }
          return times;
        })();
        const attacks = await Promise.all(
          Array.from({ length: 5 }, () => ctx.client.post(BLOCKS, body(`${'a'.repeat(40)}!`), { headers: io(BLOCK_V2) })),
        );
        const elapsed = performance.now() - started;
        for (const attack of attacks) assertError(attack, 400, /alphanumeric/);
        assert.ok(
          elapsed < 5000,
          `five attacks took ${Math.round(elapsed)} ms (a backtracking engine: longer than the age of the universe)`,
        );
        assert.ok(Math.max(...(await health)) < 2000, 'health checks stayed fast');
        const fine = await ctx.client.post(BLOCKS, body('abc123'), { headers: io(BLOCK_V2) });
        assert.equal(fine.status, 201, fine.text);
      });

      it('refuses at save, naming the field, a pattern RE2 cannot run (backreferences, lookarounds)', async () => {
        const workspace = unique('re2');
        await createWorkspace(ctx.client, workspace);
        const definition = await createDefinition(ctx.client, workspace, { targetType: 'WORKSPACE_LEVEL' });
        const versionUuid = await firstVersionUuid(ctx.client, definition.metadata.uuid);
        for (const regex of ['^(a)\\1$', '^(?=a)a$', '^(?<!b)a$']) {
          const spec = versionSpec(definition.metadata.uuid, 1, 'manual', {
            inputs: { name: { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT', valueValidationRegex: regex } },
          });
          assertError(await putVersion(ctx.client, versionUuid, spec), 400, /spec\.inputs\.name\.valueValidationRegex: .*RE2/);
        }
      });
    });

    describe('2. failed authentication is limited, before any hashing', () => {
      // The server trusts 127.0.0.1 as a proxy: each attacker below is a distinct X-Forwarded-For address.
      let lastAddress = 0;
      const newAddress = () => `198.51.100.${++lastAddress}`;
      const protectedRead = (authorization: string, address: string) =>
        ctx.client.get(USERS, { headers: { accept: USER, authorization, 'x-forwarded-for': address } });
      const timed = async <T>(work: () => Promise<T>) => {
        const started = performance.now();
        const result = await work();
        return { result, ms: performance.now() - started };
      };
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      async function createUser(prefix: string): Promise<{ username: string; password: string }> {
        const user = { username: unique(prefix), password: `${unique('pw')}-password` };
        const created = await ctx.client.post(USERS, user, { headers: io(USER) });
        assert.equal(created.status, 201, created.text);
        return user;
      }

      it('hashes API user passwords at the production cost (the other suites run a cheaper one)', async () => {
        const user = await createUser('costly');
        const stored = await ctx.server.server.database.db
          .selectFrom('api_users')
          .select('password_hash')
          .where('username', '=', user.username)
          .executeTakeFirstOrThrow();
        // N=2^15, r=8, p=1: what a deployment gets, since nothing but a test server's start options lowers it.
        assert.match(stored.password_hash, /^scrypt\$32768\$8\$1\$/);
      });

      it('60 wrong passwords: 401 up to the identity’s limit, then 429 with Retry-After from every address, answered without hashing', async () => {
        const user = await createUser('guessed');
        const answers: { status: number; retryAfter?: string; ms: number }[] = [];
        for (let i = 0; i < 60; i++) {
          const { result, ms } = await timed(() => protectedRead(basic(user.username, `wrong-${i}`), newAddress()));
          answers.push({
            status: result.status,
            ms,
            ...(result.headers['retry-after'] ? { retryAfter: result.headers['retry-after'] } : {}),
          });
        }
        assert.deepEqual(
          answers.slice(0, IDENTITY_LIMIT).map((a) => a.status),
          Array(IDENTITY_LIMIT).fill(401),
        );
        const refused = answers.slice(IDENTITY_LIMIT);
        assert.deepEqual(
          refused.map((a) => a.status),
          Array(60 - IDENTITY_LIMIT).fill(429),
        );
        for (const answer of refused)
          assert.ok(Number(answer.retryAfter) >= 1 && Number(answer.retryAfter) <= WINDOW_SECONDS, `Retry-After ${answer.retryAfter}`);
        const hashed = median(answers.slice(0, IDENTITY_LIMIT).map((a) => a.ms));
        assert.ok(
          median(refused.map((a) => a.ms)) < hashed / 3,
          `a refusal takes ${median(refused.map((a) => a.ms)).toFixed(1)} ms, a hashed guess ${hashed.toFixed(1)} ms`,
        );
        // The identity is closed for the window, even to its right password (else the limit is an oracle).
        const right = await protectedRead(basic(user.username, user.password), newAddress());
        assert.equal(right.status, 429);
        assert.match(right.json.message, /too many failed authentication attempts/);
        // Other users, and the same addresses with other names, are untouched.
        const other = await createUser('bystander');
        assert.equal((await protectedRead(basic(other.username, other.password), `198.51.100.${lastAddress}`)).status, 200);
      });

      it('one address trying many identities is limited as one: client ids at the token endpoint and usernames alike', async () => {
        const workspace = unique('guess-keys');
        await createWorkspace(ctx.client, workspace);
        const { key } = await clientWithKey(ctx.client, workspace, ['BUILDINGBLOCK_LIST']);
        const attacker = newAddress();
        const login = (clientId: string, clientSecret: string, address: string) =>
          ctx.client.post(
            '/api/login',
            { client_id: clientId, client_secret: clientSecret },
            { anonymous: true, headers: { 'content-type': 'application/json', 'x-forwarded-for': address } },
          );
        const statuses: number[] = [];
        for (let i = 0; i < ADDRESS_LIMIT + 5; i++) {
          const answer =
            i % 2 === 0
              ? await login(`guessed-client-${i}`, 'wrong-secret', attacker)
              : await protectedRead(basic(`guessed-user-${i}`, 'wrong-password'), attacker);
          statuses.push(answer.status);
        }
        assert.deepEqual(statuses, [...Array(ADDRESS_LIMIT).fill(401), ...Array(5).fill(429)]);
        const refused = await login(key.clientId, key.clientSecret, attacker);
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        assert.equal(
          (await login(key.clientId, key.clientSecret, newAddress())).status,
          200,
          'the key itself is not locked: it failed nowhere',
        );
      });

      it('an unknown username costs the time of a known one', async () => {
        const user = await createUser('timed');
        const known: number[] = [];
        const unknown: number[] = [];
        for (let i = 0; i < 5; i++) {
          known.push((await timed(() => protectedRead(basic(user.username, `wrong-${i}`), newAddress()))).ms);
          unknown.push((await timed(() => protectedRead(basic(unique('nobody'), `wrong-${i}`), newAddress()))).ms);
        }
        assert.ok(median(unknown) > median(known) / 2, `unknown ${median(unknown).toFixed(1)} ms, known ${median(known).toFixed(1)} ms`);
      });

      it('48 concurrent guesses from one address barely delay another client’s login', async () => {
        const user = await createUser('patient');
        const attacker = newAddress();
        const flood = timed(() =>
          Promise.all(
            Array.from({ length: 48 }, (_, i) => protectedRead(basic(`flooded-${i}-${unique('u')}`, 'wrong-password'), attacker)),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
        const real = await timed(() => protectedRead(basic(user.username, user.password), newAddress()));
        const { result: floodAnswers, ms: floodMs } = await flood;
        assert.equal(real.result.status, 200);
        assert.ok(floodAnswers.every((answer) => answer.status === 401 || answer.status === 429));
        assert.ok(real.ms < floodMs / 3, `the real login took ${real.ms.toFixed(0)} ms while the flood took ${floodMs.toFixed(0)} ms`);
      });

      it('48 concurrent guesses at one identity: only its limit is hashed, the rest refused at once', async () => {
        const user = await createUser('rushed');
        const answers = await Promise.all(
          Array.from({ length: 48 }, (_, i) => protectedRead(basic(user.username, `wrong-${i}`), newAddress())),
        );
        assert.equal(answers.filter((answer) => answer.status === 401).length, IDENTITY_LIMIT);
        assert.equal(answers.filter((answer) => answer.status === 429).length, 48 - IDENTITY_LIMIT);
      });

      it('a burst of correct Basic requests on a cold cache all succeed (one hash, no lockout)', async () => {
        const user = await createUser('burst');
        const answers = await Promise.all(
          Array.from({ length: 40 }, () => protectedRead(basic(user.username, user.password), newAddress())),
        );
        assert.deepEqual(
          answers.map((answer) => answer.status),
          Array(40).fill(200),
        );
      });
    });

    describe('8. usernames are normalised and drawn from an unambiguous set', () => {
      const password = 'lookalike-password-1';
      for (const [label, username] of [
        ['josé (NFC)', 'jos\u00e9'],
        ['josé (NFD)', 'jose\u0301'],
        ['a Cyrillic о among Latin letters', 'pr\u043ebe-api-user'],
        ['upper case (a case twin)', 'Probe-Api-User'],
        ['a full-width letter', 'probe\uff41'],
        ['a leading dot', '.probe'],
        ['a space', 'probe user'],
      ] as const) {
        it(`refuses ${label} with 400 naming username; nothing is stored`, async () => {
          const refused = await ctx.client.post(USERS, { username, password }, { headers: io(USER) });
          assertError(refused, 400, /^username: /);
          const list = await ctx.client.get(USERS, { headers: { accept: USER } });
          assert.ok(
            !(list.json._embedded.apiUsers as Json[]).some((user) => String(user.username).normalize('NFC') === username.normalize('NFC')),
          );
        });
      }

      it('the documented set is accepted, and a look-alike of it signs in as nobody', async () => {
        const username = unique('probe-api-user.ops@example.com').toLowerCase();
        assert.equal((await ctx.client.post(USERS, { username, password }, { headers: io(USER) })).status, 201);
        assert.equal((await ctx.client.get(USERS, { headers: { accept: USER, authorization: basic(username, password) } })).status, 200);
        const lookalike = username.replace('o', '\u043e');
        assert.equal(
          (
            await ctx.client.get(USERS, {
              headers: { accept: USER, authorization: basic(lookalike, password), 'x-forwarded-for': '203.0.113.8' },
            })
          ).status,
          401,
        );
        assert.equal(
          (await ctx.client.post(USERS, { username, password }, { headers: io(USER) })).status,
          409,
          'the same name twice is a conflict',
        );
      });
    });

    describe('3. a run log has bounds', () => {
      let runToken: ApiClientLike;
      let runUuid: string;
      let reader: ApiClientLike;

      type ApiClientLike = typeof ctx.client;

      before(async () => {
        const workspace = unique('logs');
        await createWorkspace(ctx.client, workspace);
        const runner = (await registerRunner(ctx.client, workspace)).metadata.uuid as string;
        const { version } = await createReleasedDefinition(
          ctx.client,
          workspace,
          'terraform',
          { runnerRef: { uuid: runner, kind: 'meshBuildingBlockRunner' } },
          { displayName: unique('Logs'), targetType: 'WORKSPACE_LEVEL', runTransparency: true },
        );
        await createBlock(ctx.client, { versionUuid: version.metadata.uuid, target: { kind: 'meshWorkspace', identifier: workspace } });
        const run = await claimRun(ctx.client, runner);
        runUuid = run.metadata.uuid;
        runToken = asRun(ctx.client, run);
        reader = (await clientWithKey(ctx.client, workspace, ['BUILDINGBLOCK_LIST'])).client;
      });

      it('at most 20 status sources per run: the 21st is 400 naming sourceId', async () => {
        for (let i = 0; i < 20; i++)
          assert.equal((await register(runToken, runUuid, { source: { id: `source-${i}` }, steps: [] })).status, 200);
        assertError(await register(runToken, runUuid, { source: { id: 'source-20' }, steps: [] }), 400, /^sourceId:/);
        assertError(await patch(runToken, runUuid, 'source-21', { steps: [{ id: 'x', userMessage: 'y' }] }), 400, /^sourceId:/);
        assert.equal(
          (await patch(runToken, runUuid, 'source-0', { steps: [{ id: 'x', userMessage: 'known sources go on' }] })).status,
          200,
        );
      });

      it('megabyte messages are kept up to the run’s limit, cut with a visible marker, and every report succeeds', async () => {
        const megabyte = 'L'.repeat(1024 * 1024);
        for (let i = 0; i < 6; i++) {
          const answer = await patch(runToken, runUuid, `source-${i % 3}`, {
            steps: [{ id: `step-${i}`, status: 'IN_PROGRESS', systemMessage: megabyte, userMessage: `step ${i}` }],
          });
          assert.equal(answer.status, 200, answer.text);
          assert.deepEqual(answer.json, { runAborted: false });
        }
        const log = await ctx.client.get(`${RUNS}/${runUuid}/logs`, { headers: { accept: RUN } });
        assert.equal(log.status, 200, log.text.slice(0, 300));
        assert.ok(log.text.length < LOG_LIMIT + 64 * 1024, `the log answer is ${log.text.length} bytes for a limit of ${LOG_LIMIT}`);
        const steps = log.json.steps as Json[];
        const messages = steps.map((step) => `${step.systemMessage ?? ''}`);
        assert.ok(
          messages.some((message) => message.includes('truncated by Blockyard')),
          'a cut message says so',
        );
        assert.ok(
          messages.some((message) => message.startsWith('LLLL')),
          'what fits is kept',
        );
      });

      it('a reader’s logs answer stays bounded and is complete JSON (streamed)', async () => {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => reader.get(`${RUNS}/${runUuid}/logs`, { headers: { accept: RUN } })),
        );
        for (const answer of answers) {
          assert.equal(answer.status, 200, answer.text.slice(0, 200));
          assert.equal(answer.headers['content-type']?.split(';')[0], 'application/vnd.vendor.api.meshbuildingblockrun.v1.hal+json');
          const steps = answer.json.steps as Json[];
          assert.ok(steps.length >= 6);
          assert.ok(
            steps.every((step) => step.systemMessage === null),
            'consumers never see system messages',
          );
        }
      });
    });

    describe('4. long text has limits and definition pages stay small', () => {
      it('a readme, description or symbol beyond its documented limit is 400 naming the field; nothing is stored', async () => {
        const workspace = unique('text');
        await createWorkspace(ctx.client, workspace);
        for (const [field, value] of [
          ['readme', 'r'.repeat(32_769)],
          ['description', 'd'.repeat(4097)],
          ['symbol', `data:image/png;base64,${'A'.repeat(65_536)}`],
        ] as const) {
          const before = (await ctx.client.get(`${DEFINITIONS}?workspaceIdentifier=${workspace}`, { headers: { accept: DEFINITION } })).json
            .page.totalElements;
          const body = {
            apiVersion: 'v1-preview',
            kind: 'meshBuildingBlockDefinition',
            metadata: { ownedByWorkspace: workspace },
            spec: { displayName: 'big', description: 'd', targetType: 'WORKSPACE_LEVEL', [field]: value },
          };
          assertError(await ctx.client.post(DEFINITIONS, body, { headers: io(DEFINITION) }), 400, new RegExp(`^spec\\.${field}:`));
          assert.equal(
            (await ctx.client.get(`${DEFINITIONS}?workspaceIdentifier=${workspace}`, { headers: { accept: DEFINITION } })).json.page
              .totalElements,
            before,
          );
        }
        const atLimit = await createDefinition(ctx.client, workspace, { readme: 'r'.repeat(32_768), targetType: 'WORKSPACE_LEVEL' });
        assert.equal(atLimit.spec.readme.length, 32_768);
      });

      it('a definition list page holds at most 50 definitions, and says so in page.size', async () => {
        const workspace = unique('page');
        await createWorkspace(ctx.client, workspace);
        const page = await ctx.client.get(`${DEFINITIONS}?size=350`, { headers: { accept: DEFINITION } });
        assert.equal(page.status, 200);
        assert.equal(page.json.page.size, 50);
        assert.ok((page.json._embedded.meshBuildingBlockDefinitions as Json[]).length <= 50);
        assert.equal((await ctx.client.get(`${DEFINITIONS}`, { headers: { accept: DEFINITION } })).json.page.size, 50);
      });
    });
  },
  {
    BLOCKYARD_RUN_LOG_MAX_BYTES: String(LOG_LIMIT),
    BLOCKYARD_BODY_LIMIT_BYTES: String(4 * 1024 * 1024),
    BLOCKYARD_TRUSTED_PROXIES: '127.0.0.1',
  },
  // Section 2 measures hashing against refusals: it needs the real cost.
  { productionPasswordCost: true },
);
