import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { ApiClient, Response } from './support/client.js';
import { ISO, UUID, HASH, assertError, linkPath } from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import {
  asRun,
  BLOCK_V1,
  BLOCKS,
  claim,
  claimForNode,
  claimRun,
  createBlock,
  decryptForRunner,
  generateEcCertificate,
  getBlock,
  getRun,
  getRunner,
  logs,
  nullPaths,
  patch,
  postRunner,
  putRunner,
  readBlock,
  readRun,
  register,
  registerRunner,
  report,
  RUN,
  RUN_KOTLIN,
  runnerBody,
  runnerCertificate,
  runnerDefinition,
  RUNNER,
  RUNNERS,
  RUNS,
  runWorld,
  SHARED_RUNNERS,
  tenantTarget,
  waitFor,
  WORKSPACE_LEVEL,
  workspaceTarget,
  type Definition,
  type RunWorld,
} from './support/runs.js';
import { describeEachDatabase, startTestServer, type TestServer } from './support/server.js';
import { createWorkspace, io, unique, type Json } from './support/structure.js';

const user = (type: string, extra: Json = {}) => ({
  displayName: `A ${type}`,
  type,
  assignmentType: 'USER_INPUT',
  updateableByConsumer: true,
  ...extra,
});
const row = (key: string, value: unknown, valueType: string) => ({ key, value, valueType });
const byKey = (a: Json, b: Json) => String(a.key).localeCompare(String(b.key));

/** The step of a log with the display name (asserting there is exactly one). */
function step(steps: Json[], displayName: string): Json {
  const found = steps.filter((s) => s.displayName === displayName);
  assert.equal(found.length, 1, `exactly one step "${displayName}" in ${JSON.stringify(steps.map((s) => s.displayName))}`);
  return found[0]!;
}

/**
 * Declares the steps of one story as `it`s of the enclosing describe (node:test runs them in order;
 * they share state through its variables). A step runs only when every step before it passed: after a
 * failure the rest are skipped, so the first failure is the one reported.
 */
function storySteps(): (name: string, fn: () => Promise<void>) => void {
  let failed: string | undefined;
  return (name, fn) =>
    it(name, async (t) => {
      if (failed !== undefined) return t.skip(`an earlier step failed: ${failed}`);
      try {
        await fn();
      } catch (error) {
        failed = name;
        throw error;
      }
    });
}

const CLAIM = 'MANAGED_BUILDINGBLOCKRUN_SAVE';
const RUN_LIST = 'MANAGED_BUILDINGBLOCKRUN_LIST';
const SOURCE = 'MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE';

describeEachDatabase('runs and runners', (ctx) => {
  let worldPromise: Promise<RunWorld> | undefined;
  /** Workspaces, a platform and a consumer tenant shared by the suite's tests (each test makes its own runner, definitions and blocks). */
  const world = () => (worldPromise ??= runWorld(ctx.client));

  /** A fresh private runner of the provider with the test certificate, and a definition running on it. */
  async function runnerWithDefinition(version: Json = {}): Promise<{ w: RunWorld; runner: string; def: Definition }> {
    const w = await world();
    const runner = (await registerRunner(ctx.client, w.provider)).metadata.uuid as string;
    const def = await runnerDefinition(ctx.client, w.provider, runner, version);
    return { w, runner, def };
  }

  /** A block of the definition on the consumer tenant, claimed by the admin; returns block and run. */
  async function claimedBlock(w: RunWorld, runner: string, def: Definition, inputs: Json[] = []): Promise<{ block: Json; run: Json }> {
    const block = await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid), inputs });
    const run = await claimRun(ctx.client, runner);
    assert.equal(run.spec.buildingBlock.uuid, block.metadata.uuid, 'the claimed run is the block’s');
    return { block, run };
  }

  describe('the runner protocol end to end', () => {
    describe('plays a runner: claim, decrypt, register, report steps and outputs, finish; the child runs with the parent’s outputs; DELETE runs DESTROY', () => {
      const story = storySteps();
      const SECRET = `p@ss w0rd ünïcode ${randomBytes(4).toString('hex')}`;
      const FILE = `data:application/x-pem-file;base64,${Buffer.from(`-----BEGIN KEY-----\n${randomBytes(24).toString('hex')}\n-----END KEY-----\n`).toString('base64')}`;
      const STATIC_SECRET = `static-${randomBytes(6).toString('hex')}`;
      const OUTPUT_SECRET = `db-output-${randomBytes(6).toString('hex')}`;
      const terraform = {
        terraformVersion: '1.9.8',
        repositoryUrl: 'https://github.com/example/building-blocks.git',
        async: false,
        useMeshHttpBackendFallback: false,
        repositoryPath: 'modules/network',
        refName: 'main',
      };
      const kotlin = { accept: RUN_KOTLIN.replace('; charset=utf-8', ''), 'content-type': RUN_KOTLIN };

      // What the steps hand on to the next ones.
      let w: RunWorld;
      let certificate: Awaited<ReturnType<typeof runnerCertificate>>;
      let runnerUuid: string;
      let runnerClient: ApiClient;
      let parentDef: Definition;
      let childDef: Definition;
      let parentName: string;
      let parent: Json;
      let parentUuid: string;
      let childUuid: string;
      /** The parent's run as claimed (with its run token and the inputs for the runner). */
      let run: Json;
      let runUuid: string;
      /** The API as the parent's run (its run token). */
      let asRunner: ApiClient;
      /** The finished parent, read with the v1 representation. */
      let v1: Response;
      /** An input of the claimed run, by key. */
      const input = (key: string): Json => run.spec.buildingBlock.spec.inputs.find((i: Json) => i.key === key);

      story(
        'sets up a TERRAFORM runner with its key, a parent definition with every kind of input, and a child definition fed by the parent’s output',
        async () => {
          w = await world();
          certificate = await runnerCertificate();
          const runner = await registerRunner(ctx.client, w.provider, { implementationType: 'TERRAFORM' });
          runnerUuid = runner.metadata.uuid as string;
          runnerClient = (await clientWithKey(ctx.client, w.provider, [CLAIM])).client;
          parentDef = await runnerDefinition(ctx.client, w.provider, runnerUuid, {
            implementation: { type: 'terraform', terraform },
            inputs: {
              secret: user('STRING', { isSensitive: true }),
              keyfile: user('FILE', { isSensitive: true }),
              empty: user('STRING', { isSensitive: true }),
              debug: user('BOOLEAN', { defaultValue: true }),
              size: user('INTEGER', { defaultValue: 16 }),
              region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'eu-west-1', isEnvironment: true },
              replicas: { displayName: 'Replicas', type: 'INTEGER', assignmentType: 'STATIC', argument: 3 },
              static_secret: {
                displayName: 'Static secret',
                type: 'STRING',
                assignmentType: 'STATIC',
                argument: { plaintext: STATIC_SECRET },
                isSensitive: true,
              },
              tenant_id: { displayName: 'Tenant id', type: 'STRING', assignmentType: 'PLATFORM_TENANT_ID' },
              workspace: { displayName: 'Workspace', type: 'STRING', assignmentType: 'WORKSPACE_IDENTIFIER' },
            },
            outputs: {
              vpc_id: { displayName: 'VPC id', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 },
              db_password: { displayName: 'DB password', type: 'STRING', assignmentType: 'NONE', displayOrder: 1 },
            },
          });
          childDef = await runnerDefinition(ctx.client, w.provider, runnerUuid, {
            deletionMode: 'DELETE',
            dependencyDefinitionRefs: [{ uuid: parentDef.uuid, kind: 'meshBuildingBlockDefinition' }],
            inputs: {
              upstream: {
                displayName: 'Upstream',
                type: 'STRING',
                assignmentType: 'BUILDING_BLOCK_OUTPUT',
                argument: `${parentDef.uuid}.vpc_id`,
              },
              label: user('STRING', { defaultValue: 'child' }),
            },
          });
        },
      );

      story('creates the parent PENDING and its child WAITING_FOR_DEPENDENT_INPUT', async () => {
        parentName = unique('Parent');
        parent = await createBlock(ctx.client, {
          versionUuid: parentDef.versionUuid,
          target: tenantTarget(w.tenantUuid),
          displayName: parentName,
          inputs: [
            row('secret', { plaintext: SECRET }, 'STRING'),
            row('keyfile', { plaintext: FILE }, 'FILE'),
            row('empty', { plaintext: '' }, 'STRING'),
            row('debug', false, 'BOOLEAN'),
          ],
        });
        parentUuid = parent.metadata.uuid as string;
        assert.equal(parent.status.status, 'PENDING', JSON.stringify(parent.status));
        const child = await createBlock(ctx.client, {
          versionUuid: childDef.versionUuid,
          target: tenantTarget(w.tenantUuid),
          parents: [{ buildingBlockUuid: parentUuid, definitionUuid: parentDef.uuid }],
        });
        childUuid = child.metadata.uuid as string;
        assert.equal((await readBlock(ctx.client, childUuid)).status.status, 'WAITING_FOR_DEPENDENT_INPUT');
      });

      story(
        'claims the parent’s run as the Go runner does (run media type, empty body, node header): IN_PROGRESS, run 1, APPLY, a run token, no nulls',
        async () => {
          const claimed = await claim(runnerClient, runnerUuid, {
            headers: { 'content-type': RUN, 'x-block-runner-node-id': `${runnerUuid}-worker-1` },
          });
          assert.equal(claimed.status, 201, claimed.text);
          run = claimed.json;
          runUuid = run.metadata?.uuid as string;

          assert.deepEqual(Object.keys(run).sort(), ['_links', 'apiVersion', 'kind', 'metadata', 'spec', 'status']);
          assert.equal(run.kind, 'meshBuildingBlockRun');
          assert.equal(run.apiVersion, 'v1');
          assert.match(runUuid, UUID);
          assert.match(run.metadata.createdOn, ISO);
          assert.equal(run.status, 'IN_PROGRESS');
          assert.deepEqual(nullPaths(run), [], 'a claimed run has no null values');
          assert.equal(run.spec.runNumber, 1);
          assert.equal(run.spec.behavior, 'APPLY');
          assert.equal(typeof run.spec.runToken, 'string');
          assert.ok(run.spec.runToken.length >= 16, 'a run token');
          assert.equal(typeof run.spec.trigger?.reason, 'string', JSON.stringify(run.spec.trigger));
          assert.equal(typeof run.spec.trigger?.author, 'object', JSON.stringify(run.spec.trigger));
          assert.equal(runUuid, parent.status.latestRunUuid, 'the claimed run is the block’s latest run');
        },
      );

      story('describes the building block in the claimed run, with every input that has a value', async () => {
        const bb = run.spec.buildingBlock;
        assert.equal(bb.uuid, parentUuid);
        assert.equal(bb.spec.displayName, parentName);
        assert.equal(bb.spec.workspaceIdentifier, w.consumer);
        assert.ok(
          [w.project, `${w.consumer}.${w.project}`].includes(bb.spec.projectIdentifier),
          `projectIdentifier ${bb.spec.projectIdentifier}`,
        );
        assert.equal(bb.spec.fullPlatformIdentifier, `${w.platform}.${w.location}`);
        assert.deepEqual(bb.spec.parentBuildingBlocks, []);
        assert.ok(Array.isArray(bb.spec.inputs));
        assert.deepEqual(
          [...bb.spec.inputs].sort(byKey).map((i: Json) => i.key),
          ['debug', 'empty', 'keyfile', 'region', 'replicas', 'secret', 'size', 'static_secret', 'tenant_id', 'workspace'],
          'every input with a value, fully resolved',
        );
      });

      story(
        'resolves plain inputs: user values and defaults with native types, STATIC arguments, PLATFORM_TENANT_ID, WORKSPACE_IDENTIFIER',
        async () => {
          const plain = (key: string, value: unknown, type: string, isEnvironment = false) => ({
            key,
            value,
            type,
            isSensitive: false,
            isEnvironment,
          });
          assert.deepEqual(input('debug'), plain('debug', false, 'BOOLEAN'), 'the user value, native boolean');
          assert.deepEqual(input('size'), plain('size', 16, 'INTEGER'), 'the default, native number');
          assert.deepEqual(input('region'), plain('region', 'eu-west-1', 'STRING', true), 'a STATIC argument, isEnvironment kept');
          assert.deepEqual(input('replicas'), plain('replicas', 3, 'INTEGER'));
          assert.deepEqual(input('tenant_id'), plain('tenant_id', w.platformTenantId, 'STRING'), 'PLATFORM_TENANT_ID');
          assert.deepEqual(input('workspace'), plain('workspace', w.consumer, 'STRING'), 'WORKSPACE_IDENTIFIER');
        },
      );

      story(
        'encrypts sensitive inputs (user, FILE, empty, STATIC) for the runner’s certificate: AES-128, 512+4+12+n+16 bytes',
        async () => {
          for (const [key, type, expected] of [
            ['secret', 'STRING', SECRET],
            ['keyfile', 'FILE', FILE],
            ['empty', 'STRING', ''],
            ['static_secret', 'STRING', STATIC_SECRET],
          ] as const) {
            const sensitive = input(key);
            assert.deepEqual(Object.keys(sensitive).sort(), ['isEnvironment', 'isSensitive', 'key', 'type', 'value'], key);
            assert.equal(sensitive.type, type, key);
            assert.equal(sensitive.isSensitive, true, key);
            assert.equal(sensitive.isEnvironment, false, key);
            assert.notEqual(sensitive.value, expected, `${key} is not handed out in plaintext`);
            const decrypted = decryptForRunner(certificate.privateKey, sensitive.value);
            assert.equal(decrypted.plaintext.toString('utf8'), expected, `${key} decrypts to its value`);
            assert.equal(decrypted.key.length, 16, `${key}: an AES-128 key`);
            assert.equal(decrypted.raw.length, 512 + 4 + 12 + Buffer.byteLength(expected, 'utf8') + 16, `${key}: length 512+4+12+n+16`);
            assert.deepEqual([...decrypted.raw.subarray(512, 516)], [0, 0, 0, 12], `${key}: bytes 512–515 = 00 00 00 0c`);
          }
          assert.equal(decryptForRunner(certificate.privateKey, input('empty').value).raw.length, 544, 'an empty value is 544 bytes');
        },
      );

      story('carries the definition with its TERRAFORM implementation', async () => {
        const definition = run.spec.buildingBlockDefinition;
        assert.equal(definition.uuid, parentDef.uuid);
        assert.equal(definition.spec.workspaceIdentifier, w.provider);
        assert.equal(definition.spec.version, 1);
        assert.equal(definition.spec.implementation.type, 'TERRAFORM');
        for (const [field, value] of Object.entries(terraform))
          assert.deepEqual(definition.spec.implementation[field], value, `implementation.${field}`);
      });

      story('links absolutely: self, registerSource, a literal {sourceId} template, meshstackBaseUrl as the base of self', async () => {
        const self = run._links.self.href as string;
        assert.equal(linkPath(self), `${RUNS}/${runUuid}`);
        assert.match(self, /^https:\/\//, 'absolute links');
        assert.equal(run._links.registerSource.href, `${self}/status/source`);
        assert.equal(run._links.updateSource.href, `${self}/status/source/{sourceId}`, 'a literal {sourceId}');
        assert.equal(run._links.updateSource.templated, true);
        assert.equal(
          `${String(run._links.meshstackBaseUrl.href).replace(/\/$/, '')}${RUNS}/${runUuid}`,
          self,
          'meshstackBaseUrl is the base of self',
        );
      });

      story('puts the claimed block IN_PROGRESS and hands its run out once (the child still waits)', async () => {
        assert.equal((await readBlock(ctx.client, parentUuid)).status.status, 'IN_PROGRESS', 'a claimed block is IN_PROGRESS');
        assert.equal((await claim(runnerClient, runnerUuid)).status, 404, 'the run is handed out once; the child still waits');
      });

      story('shows the real status on GET, without the run token, secrets as {hash}', async () => {
        const read = await getRun(ctx.client, runUuid);
        assert.equal(read.status, 200, read.text);
        assert.equal(read.json.status, 'IN_PROGRESS');
        assert.equal(read.json.spec.runToken, undefined, 'GET carries no runToken');
        assert.ok(!read.text.includes(run.spec.runToken), 'the token is not in a GET');
        for (const key of ['secret', 'keyfile', 'empty', 'static_secret']) {
          const value = read.json.spec.buildingBlock.spec.inputs.find((i: Json) => i.key === key)?.value;
          assert.deepEqual(Object.keys(value ?? {}), ['hash'], `${key} as {hash}: ${JSON.stringify(value)}`);
          assert.match(value.hash, HASH);
        }
      });

      story(
        'registers a source as the Kotlin runners do, twice: 200 with an empty body, never 409; steps merged in registered order',
        async () => {
          asRunner = asRun(ctx.client, run);
          const first = await register(
            asRunner,
            runUuid,
            {
              source: { id: 'github', externalRunId: 987654321, externalRunUrl: 'https://github.com/example/actions/runs/987654321' },
              steps: [
                { id: 'plan', displayName: 'Plan', status: 'PENDING' },
                { id: 'apply', displayName: 'Apply' },
              ],
            },
            kotlin,
          );
          assert.equal(first.status, 200, first.text);
          assert.equal(first.text, '', 'registration answers an empty body');
          const again = await register(
            asRunner,
            runUuid,
            {
              source: { id: 'github' },
              steps: [{ id: 'plan', displayName: 'Plan' }, { id: 'apply', displayName: 'Apply' }, { id: 'verify' }],
            },
            kotlin,
          );
          assert.equal(again.status, 200, `re-registering answers 200, never 409: ${again.text}`);
          assert.deepEqual(
            (await logs(ctx.client, runUuid)).map((s) => [s.displayName, s.status]),
            [
              ['Plan', 'PENDING'],
              ['Apply', 'PENDING'],
              ['verify', 'PENDING'],
            ],
            'steps in registered order; a missing displayName defaults to the id',
          );
        },
      );

      story(
        'takes reports of steps, messages, outputs (one sensitive) and the end: run and block SUCCEEDED, outputs on v2 and v1, the sensitive one as {hash}',
        async () => {
          const update = (body: Json) => patch(asRunner, runUuid, 'github', body, kotlin);
          for (const body of [
            { status: 'IN_PROGRESS', steps: [{ id: 'plan', status: 'IN_PROGRESS', userMessage: 'Planning' }] },
            {
              steps: [{ id: 'plan', status: 'SUCCEEDED', userMessage: 'Plan: 1 to add', systemMessage: 'terraform plan\n+ aws_vpc.this' }],
            },
            {
              status: 'SUCCEEDED',
              steps: [
                {
                  id: 'apply',
                  status: 'SUCCEEDED',
                  outputs: {
                    vpc_id: { value: 'vpc-0a1b2c', type: 'STRING', isSensitive: false },
                    db_password: { value: OUTPUT_SECRET, type: 'STRING', isSensitive: true },
                  },
                },
                { id: 'verify', status: 'SUCCEEDED' },
              ],
            },
          ]) {
            const response = await update(body);
            assert.equal(response.status, 200, response.text);
            assert.deepEqual(response.json, { runAborted: false });
          }
          const steps = await logs(ctx.client, runUuid);
          assert.deepEqual(
            steps.map((s) => [s.displayName, s.status]),
            [
              ['Plan', 'SUCCEEDED'],
              ['Apply', 'SUCCEEDED'],
              ['verify', 'SUCCEEDED'],
            ],
          );
          assert.equal(step(steps, 'Plan').userMessage, 'Plan: 1 to add');
          assert.equal(step(steps, 'Plan').systemMessage, 'terraform plan\n+ aws_vpc.this');
          assert.equal((await readRun(ctx.client, runUuid)).status, 'SUCCEEDED');

          const done = await readBlock(ctx.client, parentUuid);
          assert.equal(done.status.status, 'SUCCEEDED');
          const outputs = [...done.status.outputs].sort(byKey);
          assert.equal(outputs.length, 2, JSON.stringify(outputs));
          assert.deepEqual(outputs[1], { key: 'vpc_id', value: 'vpc-0a1b2c', valueType: 'STRING', isSensitive: false });
          assert.deepEqual(
            { ...outputs[0], value: undefined },
            { key: 'db_password', value: undefined, valueType: 'STRING', isSensitive: true },
          );
          assert.deepEqual(Object.keys(outputs[0].value), ['hash'], 'a sensitive output as {hash}');
          assert.match(outputs[0].value.hash, HASH);
          v1 = await getBlock(ctx.client, parentUuid, BLOCK_V1);
          assert.equal(v1.status, 200, v1.text);
          assert.equal(v1.json.status.status, 'SUCCEEDED');
          assert.deepEqual([...v1.json.status.outputs].sort(byKey), outputs, 'v1 shows the same outputs');
        },
      );

      story('lists the run in the block’s run history', async () => {
        const history = await ctx.client.get(`${RUNS}?buildingBlockUuid=${parentUuid}`, { headers: { accept: RUN } });
        assert.equal(history.status, 200, history.text);
        assert.deepEqual(
          history.json._embedded.meshBuildingBlockRuns.map((r: Json) => r.metadata.uuid),
          [runUuid],
        );
        assert.equal(history.json.page.totalElements, 1);
      });

      story('starts the child by itself, with the parent’s output as its BUILDING_BLOCK_OUTPUT input, and finishes it', async () => {
        const waiting = await waitFor('the child to get a run', async () => {
          const b = await readBlock(ctx.client, childUuid);
          return b.status.status === 'PENDING' ? b : undefined;
        });
        const childRun = await claimRun(runnerClient, runnerUuid);
        assert.equal(childRun.spec.buildingBlock.uuid, childUuid);
        assert.equal(childRun.metadata.uuid, waiting.status.latestRunUuid, 'the claimed run is the child’s latest run');
        assert.equal(childRun.spec.behavior, 'APPLY');
        assert.equal(childRun.spec.runNumber, 1);
        assert.deepEqual(nullPaths(childRun), []);
        assert.deepEqual(
          [...childRun.spec.buildingBlock.spec.inputs].sort(byKey),
          [
            { key: 'label', value: 'child', type: 'STRING', isSensitive: false, isEnvironment: false },
            { key: 'upstream', value: 'vpc-0a1b2c', type: 'STRING', isSensitive: false, isEnvironment: false },
          ],
          'the BUILDING_BLOCK_OUTPUT input carries the parent’s output',
        );
        assert.equal(childRun.spec.buildingBlock.spec.parentBuildingBlocks.length, 1);
        assert.ok(JSON.stringify(childRun.spec.buildingBlock.spec.parentBuildingBlocks).includes(parentUuid), 'the parent is named');
        assert.equal(
          await report(asRun(ctx.client, childRun), childRun.metadata.uuid, 'ci', {
            status: 'SUCCEEDED',
            steps: [{ id: 'apply', status: 'SUCCEEDED' }],
          }),
          false,
        );
        assert.equal((await readBlock(ctx.client, childUuid)).status.status, 'SUCCEEDED');
      });

      story(
        'deletes the child in DELETE mode with a DESTROY run (run 2); once it succeeds the block is gone and the run stays readable',
        async () => {
          const deleted = await ctx.client.delete(`${BLOCKS}/${childUuid}`);
          assert.equal(deleted.status, 202, deleted.text);
          assert.equal((await readBlock(ctx.client, childUuid)).status.status, 'PENDING');
          const destroy = await claimRun(runnerClient, runnerUuid);
          assert.equal(destroy.spec.behavior, 'DESTROY');
          assert.equal(destroy.spec.buildingBlock.uuid, childUuid);
          assert.equal(destroy.spec.runNumber, 2, 'runNumber counts per block');
          assert.equal(destroy.status, 'IN_PROGRESS');
          assert.equal((await readBlock(ctx.client, childUuid)).status.status, 'IN_PROGRESS');
          assert.equal(
            await report(asRun(ctx.client, destroy), destroy.metadata.uuid, 'ci', {
              status: 'SUCCEEDED',
              steps: [{ id: 'destroy', status: 'SUCCEEDED' }],
            }),
            false,
          );
          await waitFor('the destroyed block to disappear', async () =>
            (await getBlock(ctx.client, childUuid)).status === 404 ? true : undefined,
          );
          const destroyRead = await readRun(ctx.client, destroy.metadata.uuid);
          assert.equal(destroyRead.status, 'SUCCEEDED', 'the run stays readable');
          assert.equal(destroyRead.spec.behavior, 'DESTROY');
        },
      );

      story('shows plaintext secrets nowhere: not in block, run, log or list responses, not in the server log', async () => {
        const texts: Response[] = [
          await getBlock(ctx.client, parentUuid),
          v1,
          await getRun(ctx.client, runUuid),
          await ctx.client.get(`${RUNS}/${runUuid}/logs`, { headers: { accept: RUN } }),
          await ctx.client.get(`${RUNS}?buildingBlockUuid=${parentUuid}`, { headers: { accept: RUN } }),
          await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.consumer}`, { headers: { accept: BLOCK_V1 } }),
        ];
        const log = await readFile(ctx.server.logFile, 'utf8');
        for (const secret of [SECRET, STATIC_SECRET, OUTPUT_SECRET]) {
          for (const response of texts)
            assert.ok(!response.text.includes(secret), `a plaintext secret in a response: ${response.text.slice(0, 500)}`);
          assert.ok(!log.includes(secret), 'a plaintext secret in the server log');
        }
      });
    });

    it('hands a waiting run to exactly one of many concurrent claimers (PostgreSQL: across two server instances)', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      let second: TestServer | undefined;
      if (ctx.server.dialect === 'postgres') {
        second = await startTestServer('postgres', {
          shared: { databaseUrl: ctx.server.env.BLOCKYARD_DATABASE_URL!, dataDir: ctx.server.dataDir },
        });
      }
      try {
        const clients: ApiClient[] = second ? [ctx.client, second.client] : [ctx.client];
        const claimers = (count: number) =>
          Promise.all(Array.from({ length: count }, (_, i) => claim(clients[i % clients.length]!, runner)));
        for (let round = 0; round < 3; round++) {
          const block = await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
          const responses = await claimers(12);
          const statuses = responses.map((r) => r.status).sort();
          assert.deepEqual(
            statuses,
            [201, ...Array<number>(11).fill(404)],
            `round ${round}: ${responses.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join(' | ')}`,
          );
          const won = responses.find((r) => r.status === 201)!.json;
          assert.equal(won.spec.buildingBlock.uuid, block.metadata.uuid);
          // the token works on the other instance too
          const other = clients[clients.length - 1]!;
          assert.equal(await report(asRun(other, won), won.metadata.uuid, 'ci', { status: 'SUCCEEDED' }), false);
        }

        const blocks = await Promise.all(
          Array.from({ length: 4 }, () => createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) })),
        );
        const responses = await claimers(16);
        const won = responses.filter((r) => r.status === 201).map((r) => r.json);
        assert.equal(won.length, 4, responses.map((r) => r.status).join(','));
        assert.equal(responses.filter((r) => r.status === 404).length, 12, responses.map((r) => r.status).join(','));
        assert.equal(new Set(won.map((r) => r.metadata.uuid)).size, 4, 'four different runs');
        assert.deepEqual(
          won.map((r) => r.spec.buildingBlock.uuid).sort(),
          blocks.map((b) => b.metadata.uuid as string).sort(),
          'one run per block',
        );
        assert.equal(new Set(won.map((r) => r.spec.runToken)).size, 4, 'a token per run');
      } finally {
        await second?.stop();
      }
    });
  });

  describe('run status', () => {
    it('aborts run and block on {"status":"ABORTED"}; later PATCHes answer runAborted true and change nothing', async () => {
      const { w, runner, def } = await runnerWithDefinition({
        outputs: { o: { displayName: 'O', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
      });
      const { block, run } = await claimedBlock(w, runner, def);
      const asRunner = asRun(ctx.client, run);
      const runUuid = run.metadata.uuid as string;
      assert.equal(
        (await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 's1', displayName: 'Step one' }] })).status,
        200,
      );
      assert.equal(await report(asRunner, runUuid, 'ci', { steps: [{ id: 's1', status: 'IN_PROGRESS', userMessage: 'working' }] }), false);

      const aborted = await patch(asRunner, runUuid, 'ci', { status: 'ABORTED' });
      assert.equal(aborted.status, 200, aborted.text);
      assert.deepEqual(aborted.json, { runAborted: true });
      assert.equal((await readRun(ctx.client, runUuid)).status, 'ABORTED');
      assert.equal((await readBlock(ctx.client, block.metadata.uuid)).status.status, 'ABORTED');
      const before = await logs(ctx.client, runUuid);

      for (const body of [
        {
          status: 'SUCCEEDED',
          steps: [
            { id: 's1', status: 'SUCCEEDED', userMessage: 'late', outputs: { o: { value: 'late', type: 'STRING', isSensitive: false } } },
            { id: 's2', displayName: 'New step', status: 'SUCCEEDED' },
          ],
        },
        { status: 'IN_PROGRESS' },
        { steps: [{ id: 's1', systemMessage: 'more log' }] },
      ]) {
        const later = await patch(asRunner, runUuid, 'ci', body);
        assert.equal(later.status, 200, later.text);
        assert.deepEqual(later.json, { runAborted: true });
      }
      const other = await patch(asRunner, runUuid, 'another-source', { status: 'SUCCEEDED', steps: [{ id: 'x', status: 'SUCCEEDED' }] });
      assert.equal(other.status, 200, other.text);
      assert.deepEqual(other.json, { runAborted: true });
      assert.equal((await readRun(ctx.client, runUuid)).status, 'ABORTED');
      const blockAfter = await readBlock(ctx.client, block.metadata.uuid);
      assert.equal(blockAfter.status.status, 'ABORTED');
      assert.deepEqual(blockAfter.status.outputs, [], 'no outputs after the end');
      assert.deepEqual(await logs(ctx.client, runUuid), before, 'nothing changes after the end');
      assert.equal((await claim(ctx.client, runner)).status, 404, 'an aborted run is not handed out again');
    });

    it('writes a status that is not final when a report changes it (the block follows), and keeps the claim and the outputs through reports that do not', async () => {
      const { w, runner, def } = await runnerWithDefinition({
        outputs: { o: { displayName: 'O', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
      });
      const { block, run } = await claimedBlock(w, runner, def);
      const asRunner = asRun(ctx.client, run);
      const runUuid = run.metadata.uuid as string;
      const claimedOn = (await readRun(ctx.client, runUuid)).metadata.claimedOn;
      assert.ok(claimedOn, 'a claimed run carries claimedOn');

      assert.equal(
        await report(asRunner, runUuid, 'ci', {
          status: 'PENDING',
          steps: [{ id: 'queue', status: 'PENDING', userMessage: 'waiting for an agent' }],
        }),
        false,
      );
      assert.equal((await readRun(ctx.client, runUuid)).status, 'PENDING');
      assert.equal((await readBlock(ctx.client, block.metadata.uuid)).status.status, 'PENDING');

      assert.equal(
        await report(asRunner, runUuid, 'ci', {
          status: 'IN_PROGRESS',
          steps: [
            { id: 'queue', status: 'SUCCEEDED' },
            { id: 'apply', status: 'IN_PROGRESS', outputs: { o: { value: 'first', type: 'STRING', isSensitive: false } } },
          ],
        }),
        false,
      );
      assert.equal(await report(asRunner, runUuid, 'ci', { steps: [{ id: 'apply', userMessage: 'applying' }] }), false);
      const running = await readRun(ctx.client, runUuid);
      assert.equal(running.status, 'IN_PROGRESS');
      assert.equal(running.metadata.claimedOn, claimedOn, 'reports keep the claim');
      assert.equal((await readBlock(ctx.client, block.metadata.uuid)).status.status, 'IN_PROGRESS');
      assert.equal(step(await logs(ctx.client, runUuid), 'apply').userMessage, 'applying');

      assert.equal(await report(asRunner, runUuid, 'ci', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED' }] }), false);
      const done = await readBlock(ctx.client, block.metadata.uuid);
      assert.equal(done.status.status, 'SUCCEEDED');
      assert.deepEqual(
        done.status.outputs,
        [{ key: 'o', value: 'first', valueType: 'STRING', isSensitive: false }],
        'an output reported while the status stayed is kept to the end',
      );
    });

    it('keeps SUCCEEDED and FAILED final: a later IN_PROGRESS, FAILED or new outputs change nothing', async () => {
      const { w, runner, def } = await runnerWithDefinition({
        outputs: { o: { displayName: 'O', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
      });
      const first = await claimedBlock(w, runner, def);
      const asFirst = asRun(ctx.client, first.run);
      const firstRun = first.run.metadata.uuid as string;
      assert.equal(
        await report(asFirst, firstRun, 'ci', {
          status: 'SUCCEEDED',
          steps: [{ id: 'main', status: 'SUCCEEDED', outputs: { o: { value: '1', type: 'STRING', isSensitive: false } } }],
        }),
        false,
      );
      // what the GitHub actions send with every call
      assert.equal(
        await report(asFirst, firstRun, 'ci', {
          status: 'IN_PROGRESS',
          steps: [
            {
              id: 'main',
              status: 'IN_PROGRESS',
              userMessage: '',
              systemMessage: '',
              outputs: { o: { value: '2', type: 'STRING', isSensitive: false } },
            },
          ],
        }),
        false,
      );
      assert.equal(await report(asFirst, firstRun, 'ci', { status: 'FAILED' }), false);
      assert.equal((await readRun(ctx.client, firstRun)).status, 'SUCCEEDED');
      const succeeded = await readBlock(ctx.client, first.block.metadata.uuid);
      assert.equal(succeeded.status.status, 'SUCCEEDED');
      assert.deepEqual(succeeded.status.outputs, [{ key: 'o', value: '1', valueType: 'STRING', isSensitive: false }]);
      assert.equal(step(await logs(ctx.client, firstRun), 'main').status, 'SUCCEEDED');

      const second = await claimedBlock(w, runner, def);
      const asSecond = asRun(ctx.client, second.run);
      const secondRun = second.run.metadata.uuid as string;
      assert.equal(
        await report(asSecond, secondRun, 'ci', {
          status: 'FAILED',
          steps: [{ id: 'main', displayName: 'Apply', status: 'FAILED', userMessage: 'quota exceeded' }],
        }),
        false,
      );
      assert.equal(await report(asSecond, secondRun, 'ci', { status: 'SUCCEEDED', steps: [{ id: 'main', status: 'SUCCEEDED' }] }), false);
      assert.equal((await readRun(ctx.client, secondRun)).status, 'FAILED');
      assert.equal((await readBlock(ctx.client, second.block.metadata.uuid)).status.status, 'FAILED');
      const failedStep = step(await logs(ctx.client, secondRun), 'Apply');
      assert.equal(failedStep.status, 'FAILED');
      assert.equal(failedStep.userMessage, 'quota exceeded');
    });

    it('answers runAborted true to the run of a block purged while claimed', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const { block, run } = await claimedBlock(w, runner, def);
      const purged = await ctx.client.delete(`${BLOCKS}/${block.metadata.uuid}/purge`);
      assert.equal(purged.status, 202, purged.text);
      assert.equal((await getBlock(ctx.client, block.metadata.uuid)).status, 404);
      const response = await patch(asRun(ctx.client, run), run.metadata.uuid, 'ci', {
        status: 'IN_PROGRESS',
        steps: [{ id: 'main', status: 'IN_PROGRESS' }],
      });
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.json, { runAborted: true });
    });

    it('fails at claim a run with secrets whose runner has no key: not handed out, block FAILED; the shared runner claims via runnerNodeId + selector for admins', async () => {
      const w = await world();
      // the shared Terraform runner has no public key until an admin sets one; no other test of this suite uses it
      const withSecret = await runnerDefinition(ctx.client, w.provider, null, {
        inputs: { secret: user('STRING', { isSensitive: true }) },
      });
      const block = await createBlock(ctx.client, {
        versionUuid: withSecret.versionUuid,
        target: tenantTarget(w.tenantUuid),
        inputs: [row('secret', { plaintext: 'hidden' }, 'STRING')],
      });
      const response = await claim(ctx.client, SHARED_RUNNERS.TERRAFORM);
      assert.equal(response.status, 404, `a run whose secrets cannot be encrypted is not handed out: ${response.text}`);
      const failed = await readBlock(ctx.client, block.metadata.uuid);
      assert.equal(failed.status.status, 'FAILED');

      const without = await runnerDefinition(ctx.client, w.provider, null);
      const plainBlock = await createBlock(ctx.client, { versionUuid: without.versionUuid, target: tenantTarget(w.tenantUuid) });
      // the index form without a runner in the node id claims for the shared runner of the selector: admins only
      const { client: claimer } = await clientWithKey(ctx.client, w.provider, [CLAIM]);
      assertError(await claimForNode(claimer, 'shared-node-1', 'TERRAFORM'), 403);
      const claimed = await claimForNode(ctx.client, 'shared-node-1', 'TERRAFORM');
      assert.equal(claimed.status, 201, claimed.text);
      const run = claimed.json;
      assert.equal(run.spec.buildingBlock.uuid, plainBlock.metadata.uuid, 'a run without secrets is handed out by the same runner');
      assert.equal(await report(asRun(ctx.client, run), run.metadata.uuid, 'ci', { status: 'SUCCEEDED' }), false);
    });
  });

  describe('status sources and steps', () => {
    it('takes 50 steps per source and refuses the 51st (400); stores a 100 KB systemMessage; adds unknown steps and sources; "" and null change nothing', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const { run } = await claimedBlock(w, runner, def);
      const asRunner = asRun(ctx.client, run);
      const runUuid = run.metadata.uuid as string;
      const fifty = Array.from({ length: 50 }, (_, i) => ({ id: `s${i + 1}`, displayName: `Step ${i + 1}`, status: 'PENDING' }));

      const ok = await register(asRunner, runUuid, { source: { id: 'big' }, steps: fifty });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(
        (await logs(ctx.client, runUuid)).map((s) => s.displayName),
        fifty.map((s) => s.displayName),
        'fifty steps in registered order',
      );
      assertError(
        await register(asRunner, runUuid, {
          source: { id: 'too-many' },
          steps: [...fifty, { id: 's51', displayName: 'Step 51' }].map((s) => ({ ...s, id: `x-${s.id}` })),
        }),
        400,
      );
      assertError(
        await register(asRunner, runUuid, { source: { id: 'big' }, steps: [...fifty, { id: 's51', displayName: 'Step 51' }] }),
        400,
      );
      assertError(await patch(asRunner, runUuid, 'big', { steps: [{ id: 's51', displayName: 'Step 51', status: 'IN_PROGRESS' }] }), 400);
      const afterRefusals = await logs(ctx.client, runUuid);
      assert.equal(afterRefusals.length, 50, `refused steps are not added: ${afterRefusals.length}`);

      // a 100 KB system message (real runners send whole logs)
      const big = `${'terraform apply output line\n'.repeat(3700)}`.slice(0, 100 * 1024);
      assert.equal(big.length, 100 * 1024);
      assert.equal(await report(asRunner, runUuid, 'big', { steps: [{ id: 's2', status: 'IN_PROGRESS', systemMessage: big }] }), false);
      assert.equal(step(await logs(ctx.client, runUuid), 'Step 2').systemMessage, big, 'the whole message is stored');

      // unknown steps and sources are registered on the fly
      assert.equal(
        await report(asRunner, runUuid, 'fly', { steps: [{ id: 'gh-workflow-job-4711', displayName: 'Job 4711', status: 'IN_PROGRESS' }] }),
        false,
      );
      assert.equal(step(await logs(ctx.client, runUuid), 'Job 4711').status, 'IN_PROGRESS');
      assert.equal(
        await report(asRunner, runUuid, 'fly', { steps: [{ id: 'ado-stage-1', displayName: 'Stage 1', status: 'ABORTED' }] }),
        false,
      );
      assert.equal(step(await logs(ctx.client, runUuid), 'Stage 1').status, 'ABORTED', 'a step may be ABORTED');

      // "" and null mean no change
      assert.equal(
        await report(asRunner, runUuid, 'big', {
          steps: [{ id: 's1', displayName: 'First', status: 'IN_PROGRESS', userMessage: 'hello', systemMessage: 'sys' }],
        }),
        false,
      );
      const snapshot = await logs(ctx.client, runUuid);
      assert.deepEqual(
        { ...step(snapshot, 'First') },
        { ...step(snapshot, 'First'), displayName: 'First', status: 'IN_PROGRESS', userMessage: 'hello', systemMessage: 'sys' },
      );
      assert.equal(
        await report(asRunner, runUuid, 'big', {
          status: '',
          steps: [{ id: 's1', displayName: '', status: '', userMessage: '', systemMessage: '' }],
        }),
        false,
      );
      assert.equal(
        await report(asRunner, runUuid, 'big', {
          status: null,
          steps: [{ id: 's1', displayName: null, status: null, userMessage: null, systemMessage: null }],
        }),
        false,
      );
      assert.deepEqual(await logs(ctx.client, runUuid), snapshot, '"" and null change nothing');
      assert.equal((await readRun(ctx.client, runUuid)).status, 'IN_PROGRESS');

      // what the Go runner sends: extra fields, steps null
      const go = await patch(asRunner, runUuid, 'terraform-runner', {
        blockRunId: runUuid,
        source: 'terraform-runner',
        type: 'TERRAFORM',
        createdOn: new Date().toISOString(),
        summary: 'Plan: 0 to add',
        artifact: null,
        changesDetected: false,
        steps: null,
        status: 'IN_PROGRESS',
      });
      assert.equal(go.status, 200, go.text);
      assert.deepEqual(go.json, { runAborted: false });
      assert.deepEqual(await logs(ctx.client, runUuid), snapshot, 'a step-less PATCH adds no steps');
      assert.equal(await report(asRunner, runUuid, 'big', { status: 'SUCCEEDED' }), false);
    });

    it('takes the Kotlin and Actions registration forms: aliases, numeric external ids, null status = PENDING, displayName defaults to the id', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const { run } = await claimedBlock(w, runner, def);
      const asRunner = asRun(ctx.client, run);
      const runUuid = run.metadata.uuid as string;
      const response = await register(
        asRunner,
        runUuid,
        {
          source: { id: 'ado', externalId: 4711, externalUrl: 'https://dev.azure.com/example/_build/results?buildId=4711' },
          steps: [{ id: 'ado-stage-1', displayName: null, status: null }],
        },
        { accept: RUN_KOTLIN.replace('; charset=utf-8', ''), 'content-type': RUN_KOTLIN },
      );
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(
        (await logs(ctx.client, runUuid)).map((s) => [s.displayName, s.status]),
        [['ado-stage-1', 'PENDING']],
      );
      const again = await register(asRunner, runUuid, {
        source: { id: 'ado', externalRunId: '4711', externalRunUrl: null },
        steps: [{ id: 'ado-stage-1' }, { id: 'ado-stage-2', displayName: 'Deploy' }],
      });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(
        (await logs(ctx.client, runUuid)).map((s) => [s.displayName, s.status]),
        [
          ['ado-stage-1', 'PENDING'],
          ['Deploy', 'PENDING'],
        ],
      );
      assert.equal(await report(asRunner, runUuid, 'ado', { status: 'SUCCEEDED' }), false);
    });
  });

  describe('access to runs', () => {
    it('scopes a run token to its own run: another run → 403, no auth → 401, unknown run → 404, other endpoints refused', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const a = await claimedBlock(w, runner, def);
      const b = await claimedBlock(w, runner, def);
      const asA = asRun(ctx.client, a.run);
      const runA = a.run.metadata.uuid as string;
      const runB = b.run.metadata.uuid as string;
      const source = { source: { id: 'ci' }, steps: [{ id: 'main', displayName: 'Main' }] };

      assert.equal((await register(asA, runA, source)).status, 200);
      assert.equal(await report(asA, runA, 'ci', { steps: [{ id: 'main', status: 'IN_PROGRESS' }] }), false);
      // The token's own run, however the path spells its uuid (the report then reads no run before its transaction).
      assert.equal(
        await report(asA, runA.toUpperCase(), 'ci', { steps: [{ id: 'main', status: 'IN_PROGRESS', userMessage: 'upper' }] }),
        false,
      );
      const own = await getRun(asA, runA);
      assert.equal(own.status, 200, `a run token reads its run: ${own.text}`);

      assertError(await register(asA, runB, source), 403);
      assertError(await patch(asA, runB, 'ci', { status: 'SUCCEEDED' }), 403);
      assertError(await getRun(asA, runB), 403);
      assertError(await register(ctx.client, runA, source, { ...io(RUN), authorization: undefined }), 401);
      assertError(await patch(ctx.client, runA, 'ci', { status: 'FAILED' }, { ...io(RUN), authorization: undefined }), 401);
      assertError(await patch(ctx.client.with({ authorization: 'Bearer not-a-token' }), runA, 'ci', { status: 'FAILED' }), 401);

      const unknown = randomUUID();
      assertError(await register(ctx.client, unknown, source), 404);
      assertError(await patch(ctx.client, unknown, 'ci', { status: 'SUCCEEDED' }), 404);
      assertError(await getRun(ctx.client, unknown), 404);
      const tokenOnUnknown = await patch(asA, unknown, 'ci', { status: 'SUCCEEDED' });
      assert.ok([403, 404].includes(tokenOnUnknown.status), `a run token on an unknown run: ${tokenOnUnknown.status}`);

      const blockWithToken = await getBlock(asA, a.block.metadata.uuid);
      assert.ok([403, 404].includes(blockWithToken.status), `a run token reads no block: ${blockWithToken.status} ${blockWithToken.text}`);
      const claimWithToken = await claim(asA, runner);
      assert.ok([401, 403].includes(claimWithToken.status), `a run token claims nothing: ${claimWithToken.status}`);
      const runnerWithToken = await getRunner(asA, runner);
      assert.ok([403, 404].includes(runnerWithToken.status), `a run token reads no runner: ${runnerWithToken.status}`);

      assert.equal((await readRun(ctx.client, runA)).status, 'IN_PROGRESS');
      assert.equal((await readRun(ctx.client, runB)).status, 'IN_PROGRESS', 'refused calls change nothing');
      assert.deepEqual(await logs(ctx.client, runB), [], 'B has no steps');
      for (const claimed of [a.run, b.run])
        assert.equal(await report(asRun(ctx.client, claimed), claimed.metadata.uuid, 'ci', { status: 'SUCCEEDED' }), false);
    });

    it('needs MANAGED_BUILDINGBLOCKRUN_SAVE of the runner’s workspace to claim, MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE of the definition’s to report', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const block = await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
      const [claimer, lister, strangerClaimer, sourceSaver, strangerSource, consumerReader, strangerLister] = await Promise.all([
        clientWithKey(ctx.client, w.provider, [CLAIM]),
        clientWithKey(ctx.client, w.provider, [RUN_LIST]),
        clientWithKey(ctx.client, w.stranger, [CLAIM]),
        clientWithKey(ctx.client, w.provider, [SOURCE]),
        clientWithKey(ctx.client, w.stranger, [SOURCE]),
        clientWithKey(ctx.client, w.consumer, ['BUILDINGBLOCK_LIST']),
        clientWithKey(ctx.client, w.stranger, [RUN_LIST]),
      ]);

      assertError(await claim(lister.client, runner), 403);
      // Another workspace's private runner is invisible to it, as its GET is (404, not 403).
      assertError(await claim(strangerClaimer.client, runner), 404);
      assertError(await claim(ctx.client, runner, { headers: { authorization: undefined } }), 401);
      assertError(await claim(claimer.client, SHARED_RUNNERS.TERRAFORM), 403);
      assertError(await claim(claimer.client, randomUUID()), 404);
      const run = await claimRun(claimer.client, runner);
      assert.equal(run.spec.buildingBlock.uuid, block.metadata.uuid, 'refused claims took nothing');
      const runUuid = run.metadata.uuid as string;

      const registered = await register(sourceSaver.client, runUuid, {
        source: { id: 'ops' },
        steps: [{ id: 'check', displayName: 'Check' }],
      });
      assert.equal(registered.status, 200, registered.text);
      assert.equal(await report(sourceSaver.client, runUuid, 'ops', { steps: [{ id: 'check', status: 'IN_PROGRESS' }] }), false);
      const before = await logs(ctx.client, runUuid);
      // Another workspace's run is invisible, whatever the key holds (404, as for a run that does not exist).
      assertError(await patch(strangerSource.client, runUuid, 'ops', { status: 'SUCCEEDED' }), 404);
      assertError(await register(strangerSource.client, runUuid, { source: { id: 'x' }, steps: [{ id: 'y' }] }), 404);
      assertError(await patch(claimer.client, runUuid, 'ops', { status: 'SUCCEEDED' }), 403);
      assertError(await patch(lister.client, runUuid, 'ops', { status: 'SUCCEEDED' }), 403);
      assert.deepEqual(await logs(ctx.client, runUuid), before, 'refused reports change nothing');
      assert.equal((await readRun(ctx.client, runUuid)).status, 'IN_PROGRESS');

      const byLister = await getRun(lister.client, runUuid);
      assert.equal(byLister.status, 200, byLister.text);
      assert.equal(byLister.json.spec.runToken, undefined);
      // Consumers read a run only when the definition makes runs transparent (test/privilege.test.ts).
      assertError(await getRun(consumerReader.client, runUuid), 403);
      // Another workspace does not learn the run exists (404); another run's token gets 403 (tested above).
      assertError(await getRun(strangerLister.client, runUuid), 404);
      const listed = await lister.client.get(`${RUNS}?buildingBlockUuid=${block.metadata.uuid}`, { headers: { accept: RUN } });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.json._embedded.meshBuildingBlockRuns.map((r: Json) => r.metadata.uuid),
        [runUuid],
      );

      assert.equal(
        await report(sourceSaver.client, runUuid, 'ops', { status: 'SUCCEEDED', steps: [{ id: 'check', status: 'SUCCEEDED' }] }),
        false,
      );
      assert.equal((await readBlock(ctx.client, block.metadata.uuid)).status.status, 'SUCCEEDED');
    });
  });

  describe('meshBuildingBlockRunner v1-preview', () => {
    it('creates, reads, lists, replaces (keeping omitted fields) and deletes a runner', async () => {
      const w = await world();
      const certificate = await runnerCertificate();
      const { client } = await clientWithKey(ctx.client, w.provider, [
        'BUILDINGBLOCKRUNNER_LIST',
        'BUILDINGBLOCKRUNNER_SAVE',
        'BUILDINGBLOCKRUNNER_DELETE',
      ]);
      const body = runnerBody(w.provider, certificate.certificate, { displayName: 'GitHub runner', implementationType: 'GITHUB_WORKFLOW' });
      const created = await postRunner(client, body);
      assert.equal(created.status, 201, created.text);
      const runner = created.json;
      const uuid = runner.metadata.uuid as string;
      assert.equal(runner.kind, 'meshBuildingBlockRunner');
      assert.equal(runner.apiVersion, 'v1-preview');
      assert.match(uuid, UUID);
      assert.equal(runner.metadata.ownedByWorkspace, w.provider);
      assert.match(runner.metadata.createdOn, ISO);
      assert.ok('lastSeen' in runner.metadata, 'lastSeen is present');
      assert.equal(runner.metadata.lastSeen, null, 'lastSeen is null until a claim');
      assert.equal(runner.spec.displayName, 'GitHub runner');
      assert.equal(runner.spec.publicKey, certificate.certificate, 'the public key byte for byte');
      assert.equal(runner.spec.implementationType, 'GITHUB_WORKFLOW');
      assert.equal(runner.spec.restriction, 'PRIVATE', 'PRIVATE by default');
      assert.equal(linkPath(runner._links.self.href), `${RUNNERS}/${uuid}`);
      assert.equal(created.headers.location, runner._links.self.href);

      const read = await getRunner(client, uuid);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, runner);
      const listed = await client.get(`${RUNNERS}?workspaceIdentifier=${w.provider}`, { headers: { accept: RUNNER } });
      assert.equal(listed.status, 200, listed.text);
      assert.ok(
        listed.json._embedded.meshBuildingBlockRunners.some((r: Json) => r.metadata.uuid === uuid),
        'listed in its workspace',
      );
      assert.equal(typeof listed.json.page.totalElements, 'number');

      // what the run controller sends: ALL, no restriction
      const controller = {
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockRunner',
        metadata: { ownedByWorkspace: w.provider },
        spec: { displayName: 'Renamed', publicKey: certificate.certificate, implementationType: 'ALL' },
      };
      const put = await putRunner(client, uuid, controller);
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.metadata.uuid, uuid);
      assert.equal(put.json.metadata.createdOn, runner.metadata.createdOn);
      assert.equal(put.json.spec.displayName, 'Renamed');
      assert.equal(put.json.spec.implementationType, 'ALL');
      assert.equal(put.json.spec.restriction, 'PRIVATE', 'restriction kept');
      assert.equal(put.json.spec.publicKey, certificate.certificate);
      assert.deepEqual((await getRunner(client, uuid)).json.spec, put.json.spec);

      const deleted = await client.delete(`${RUNNERS}/${uuid}`);
      assert.equal(deleted.status, 204, deleted.text);
      assertError(await getRunner(client, uuid), 404);
      const after = await client.get(`${RUNNERS}?workspaceIdentifier=${w.provider}`, { headers: { accept: RUNNER } });
      assert.ok(!after.json._embedded.meshBuildingBlockRunners.some((r: Json) => r.metadata.uuid === uuid), 'gone from the list');
    });

    it('refuses a non-RSA or malformed public key (400 naming spec.publicKey), PUBLIC by a non-admin (403), an unknown workspace (422)', async () => {
      const w = await world();
      const certificate = await runnerCertificate();
      const ec = await generateEcCertificate();
      const { client } = await clientWithKey(ctx.client, w.provider, ['BUILDINGBLOCKRUNNER_LIST', 'BUILDINGBLOCKRUNNER_SAVE']);
      const countRunners = async () =>
        (await client.get(`${RUNNERS}?workspaceIdentifier=${w.provider}&size=350`, { headers: { accept: RUNNER } })).json._embedded
          .meshBuildingBlockRunners.length as number;
      const before = await countRunners();

      for (const [label, publicKey] of [
        ['an EC certificate', ec.certificate],
        ['not PEM', 'not a key'],
        ['a truncated certificate', certificate.certificate.slice(0, 400)],
        ['a private key', certificate.privateKey],
      ] as const) {
        const response = await postRunner(client, runnerBody(w.provider, publicKey));
        assert.equal(response.status, 400, `${label}: ${response.status} ${response.text.slice(0, 300)}`);
        assertError(response, 400, /spec\.publicKey/);
      }
      assert.equal(await countRunners(), before, 'nothing created');

      assertError(await postRunner(client, runnerBody(w.provider, certificate.certificate, { restriction: 'PUBLIC' })), 403);
      assertError(await postRunner(client, runnerBody(w.stranger, certificate.certificate)), 403);
      const missing = unique('nows');
      assertError(await postRunner(ctx.client, runnerBody(missing, certificate.certificate)), 422);

      const own = await registerRunner(client, w.provider);
      const ec2 = await putRunner(client, own.metadata.uuid, runnerBody(w.provider, ec.certificate));
      assertError(ec2, 400, /spec\.publicKey/);
      assertError(
        await putRunner(client, own.metadata.uuid, runnerBody(w.provider, certificate.certificate, { restriction: 'PUBLIC' })),
        403,
      );
      const kept = await getRunner(client, own.metadata.uuid);
      assert.equal(kept.json.spec.restriction, 'PRIVATE');
      assert.equal(kept.json.spec.publicKey, certificate.certificate, 'refused PUTs change nothing');

      const publicRunner = await registerRunner(ctx.client, w.provider, { restriction: 'PUBLIC', implementationType: 'TERRAFORM' });
      assert.equal(publicRunner.spec.restriction, 'PUBLIC');
      const controller = await putRunner(ctx.client, publicRunner.metadata.uuid, {
        apiVersion: 'v1-preview',
        kind: 'meshBuildingBlockRunner',
        metadata: { ownedByWorkspace: w.provider },
        spec: { displayName: 'Controller', publicKey: certificate.certificate, implementationType: 'ALL' },
      });
      assert.equal(controller.status, 200, controller.text);
      assert.equal(controller.json.spec.restriction, 'PUBLIC', 'a PUT without restriction keeps PUBLIC');
    });

    it('shows a private runner only to its workspace; PUBLIC runners to every lister', async () => {
      const w = await world();
      const runner = await registerRunner(ctx.client, w.provider);
      const { client } = await clientWithKey(ctx.client, w.stranger, ['BUILDINGBLOCKRUNNER_LIST']);
      assertError(await getRunner(client, runner.metadata.uuid), 404);
      const listed = await client.get(`${RUNNERS}?size=350`, { headers: { accept: RUNNER } });
      assert.equal(listed.status, 200, listed.text);
      const uuids = listed.json._embedded.meshBuildingBlockRunners.map((r: Json) => r.metadata.uuid);
      assert.ok(!uuids.includes(runner.metadata.uuid), 'another workspace’s private runner is not listed');
      assert.ok(uuids.includes(SHARED_RUNNERS.TERRAFORM), 'the shared runners are PUBLIC');
      const shared = await getRunner(client, SHARED_RUNNERS.TERRAFORM);
      assert.equal(shared.status, 200, shared.text);
      assert.equal(shared.json.spec.restriction, 'PUBLIC');
      assert.equal(shared.json.spec.implementationType, 'ALL', 'the Terraform provider names it for versions of every type');
    });

    it('refuses to delete a runner a version names or a run waits for (409)', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      assertError(await ctx.client.delete(`${RUNNERS}/${runner}`), 409);
      await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
      assertError(await ctx.client.delete(`${RUNNERS}/${runner}`), 409);
      assert.equal((await getRunner(ctx.client, runner)).status, 200, 'the runner stays');
      assert.equal((await claim(ctx.client, runner)).status, 201, 'and its run can still be claimed');
      assertError(await ctx.client.delete(`${RUNNERS}/${runner}`), 409);
    });

    it('answers 404 for an empty queue and an unknown runner, sets lastSeen on a claim, claims for the runner a node id names', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      const { client } = await clientWithKey(ctx.client, w.provider, [CLAIM, 'BUILDINGBLOCKRUNNER_LIST', RUN_LIST]);
      const empty = await client.post(`${RUNS}/create?forRunnerUuid=${runner}`, '', { headers: { accept: RUN, 'content-type': RUN } });
      assertError(empty, 404);
      assertError(await claim(client, randomUUID()), 404);
      assertError(await claimForNode(client, `${runner}-worker-1`), 404);

      const created = (await getRunner(client, runner)).json;
      const block = await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
      const node = `${runner}-worker-1`;
      const claimed = await claimForNode(client, node);
      assert.equal(claimed.status, 201, claimed.text);
      assert.equal(claimed.json.spec.buildingBlock.uuid, block.metadata.uuid, 'the node id names the runner');
      assert.equal(claimed.json.status, 'IN_PROGRESS');
      assert.equal(typeof claimed.json.spec.runToken, 'string');
      assertError(await claimForNode(client, node), 404);

      const seen = (await getRunner(client, runner)).json.metadata.lastSeen;
      assert.match(String(seen), ISO, `lastSeen set by the claim: ${seen}`);
      assert.ok(Date.parse(seen) >= Date.parse(created.metadata.createdOn), 'lastSeen after createdOn');

      const held = await client.get(`${RUNS}?runnerNodeId=${encodeURIComponent(node)}`, { headers: { accept: RUN } });
      assert.equal(held.status, 200, held.text);
      assert.deepEqual(
        held.json._embedded.meshBuildingBlockRuns.map((r: Json) => r.metadata.uuid),
        [claimed.json.metadata.uuid],
        'a restarted node finds the runs it holds',
      );

      // the header names the node for the create form
      const second = await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
      const headerNode = `run-controller-${runner}`;
      const viaHeader = await claimRun(client, runner, { headers: { 'x-block-runner-node-id': headerNode } });
      assert.equal(viaHeader.spec.buildingBlock.uuid, second.metadata.uuid);
      const byHeader = await client.get(`${RUNS}?runnerNodeId=${encodeURIComponent(headerNode)}`, { headers: { accept: RUN } });
      assert.equal(byHeader.status, 200, byHeader.text);
      assert.deepEqual(
        byHeader.json._embedded.meshBuildingBlockRuns.map((r: Json) => r.metadata.uuid),
        [viaHeader.metadata.uuid],
      );
    });

    it('moves lastSeen at most once a second (claims do not all write the runner)', async () => {
      const { w, runner, def } = await runnerWithDefinition();
      for (let i = 0; i < 3; i++) await createBlock(ctx.client, { versionUuid: def.versionUuid, target: tenantTarget(w.tenantUuid) });
      const lastSeen = async () => Date.parse((await getRunner(ctx.client, runner)).json.metadata.lastSeen);
      await claimRun(ctx.client, runner);
      const first = await lastSeen();
      await claimRun(ctx.client, runner);
      // The second claim happened before this moment, on the same clock.
      if (Date.now() - first < 1000) assert.equal(await lastSeen(), first, 'a claim within the second leaves lastSeen');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, first + 1100 - Date.now())));
      const before = Date.now();
      await claimRun(ctx.client, runner);
      assert.ok((await lastSeen()) >= before, 'a claim a second later moves it');
    });
  });

  describe('timeout', () => {
    const TIMEOUT_MS = 1_000;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

    interface Timed<T> {
      value: T;
      /** This process's clock (the in-process server's clock too) just before the request was sent… */
      sent: number;
      /** …and just after its answer arrived: the server handled the request in between. */
      answered: number;
    }
    async function timed<T>(request: () => Promise<T>): Promise<Timed<T>> {
      const sent = Date.now();
      const value = await request();
      return { value, sent, answered: Date.now() };
    }

    /**
     * Reports on a claimed run every 200 ms while `during` runs, then stops reporting and reads the run.
     *
     * The server stamps the claim and each report at a moment between its request's send and answer,
     * and a sweep fails a run only when the latest stamp is older than the timeout. A sweep that fails
     * the run before the final read therefore finds some report i the latest while report i + 1 (or
     * the read) is still unanswered: it sees a silence of at most `answered(i + 1) − sent(i)`.
     * `longestSilence`, the largest such bound over claim → reports → read, stays well under the
     * timeout unless this process (the server included) stalled.
     */
    async function keepReporting(client: ApiClient, claimed: Timed<Json>, during: () => Promise<void>) {
      const run = claimed.value;
      const asRunner = asRun(client, run);
      const reports: Timed<Response>[] = [];
      let reporting = true;
      const heartbeat = (async () => {
        while (reporting) {
          reports.push(await timed(() => patch(asRunner, run.metadata.uuid, 'heartbeat', { status: 'IN_PROGRESS' })));
          if (reporting) await pause(200);
        }
      })();
      try {
        await during();
      } finally {
        reporting = false;
        await heartbeat;
      }
      const read = await timed(() => readRun(client, run.metadata.uuid));
      const timeline: Omit<Timed<unknown>, 'value'>[] = [claimed, ...reports, read];
      const longestSilence = Math.max(...timeline.slice(1).map((event, i) => event.answered - timeline[i]!.sent));
      return { status: read.value.status as string, reports, longestSilence };
    }

    it('fails a claimed run that goes silent past BLOCKYARD_RUN_TIMEOUT_SECONDS, not one that keeps reporting', async () => {
      const server = await startTestServer(ctx.server.dialect, { env: { BLOCKYARD_RUN_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) } });
      try {
        const client = server.client;
        const ws = unique('run-to');
        await createWorkspace(client, ws);
        const runner = (await registerRunner(client, ws)).metadata.uuid as string;
        const def = await runnerDefinition(client, ws, runner, {}, WORKSPACE_LEVEL);
        const newBlock = () => createBlock(client, { versionUuid: def.versionUuid, target: workspaceTarget(ws) });

        /**
         * One round: a run that keeps reporting, and a run claimed after it that goes silent. The
         * silent one times out; the sweep that fails it finds the reporting one claimed even longer
         * ago, so it is spared only for its reports. Returns the reporting run's fate.
         */
        const round = async () => {
          const chattyBlock = await newBlock();
          const chatty = await timed(() => claimRun(client, runner));
          assert.equal(chatty.value.spec.buildingBlock.uuid, chattyBlock.metadata.uuid);
          const kept = await keepReporting(client, chatty, async () => {
            const silentBlock = await newBlock();
            const claimedAt = Date.now();
            const silent = await claimRun(client, runner);
            assert.equal(silent.spec.buildingBlock.uuid, silentBlock.metadata.uuid);
            const failed = await waitFor(
              'the silent run to time out',
              async () => {
                const run = await readRun(client, silent.metadata.uuid);
                return run.status === 'FAILED' ? run : undefined;
              },
              10_000,
              100,
            );
            // stamped at its claim, no earlier than claimedAt: no sweep may fail it before claimedAt + timeout
            const failedAfter = Date.now() - claimedAt;
            assert.ok(failedAfter >= TIMEOUT_MS, `not before the timeout: failed after ${failedAfter} ms`);
            assert.equal(failed.status, 'FAILED');
            assert.equal((await readBlock(client, silentBlock.metadata.uuid)).status.status, 'FAILED');
            const steps = await logs(client, silent.metadata.uuid);
            assert.ok(
              steps.some((s) => /timed? ?out|timeout/i.test(String(s.systemMessage ?? ''))),
              `a step says the run timed out: ${JSON.stringify(steps)}`,
            );
            // a late report changes nothing
            const late = await patch(asRun(client, silent), silent.metadata.uuid, 'ci', { status: 'SUCCEEDED' });
            assert.equal(late.status, 200, late.text);
            assert.equal((await readRun(client, silent.metadata.uuid)).status, 'FAILED');
            // the reporting run goes on past more sweeps (one every half timeout)
            await pause(1_500);
          });
          assert.ok(kept.reports.length >= 1, 'the reporting run reported');
          for (const { value: answer } of kept.reports) {
            assert.equal(answer.status, 200, answer.text);
            assert.deepEqual(answer.json, { runAborted: false });
          }
          return { ...kept, chatty: chatty.value, chattyBlock };
        };

        // The reporting run outlives the timeout. Failing with no silence that reached the timeout is a
        // bug; a stall of this process longer than the timeout may fail it legitimately, which proves
        // nothing either way, and the round is played again.
        const stalls: number[] = [];
        let kept = await round();
        while (kept.status !== 'IN_PROGRESS') {
          assert.equal(kept.status, 'FAILED', 'the reporting run is running or timed out');
          assert.ok(kept.longestSilence > TIMEOUT_MS, `a run that reported at most ${kept.longestSilence} ms apart timed out`);
          stalls.push(kept.longestSilence);
          assert.ok(
            stalls.length < 5,
            `inconclusive: this process stalled past the timeout in every round (silences ${stalls.join(', ')} ms)`,
          );
          kept = await round();
        }
        assert.equal(await report(asRun(client, kept.chatty), kept.chatty.metadata.uuid, 'ci', { status: 'SUCCEEDED' }), false);
        assert.equal((await readBlock(client, kept.chattyBlock.metadata.uuid)).status.status, 'SUCCEEDED');
      } finally {
        await server.stop();
      }
    });
  });
});
