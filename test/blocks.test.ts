import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { media, type ApiClient, type Response } from './support/client.js';
import {
  addTenant,
  BLOCK_V1,
  BLOCK_V1_MESHCLOUD,
  BLOCK_V2,
  BLOCK_V2_MESHCLOUD,
  BLOCKS,
  blockUuids,
  blockWorld,
  claimRun,
  createBlockV1,
  createBlockV2,
  finishRun,
  getBlock,
  input,
  PERMISSIONS,
  postBlock,
  putBlock,
  readBlock,
  reportRun,
  row,
  RUNNER,
  settledBlock,
  statusOf,
  TENANTS,
  tenantTarget,
  tryClaimRun,
  v1Body,
  v2Body,
  workspaceTarget,
  type BlockWorld,
  type Representation,
} from './support/blocks.js';
import { assertError, HASH, ISO, linkPath, literally, UUID } from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createLocation, createPlatform, io, unique, type Json } from './support/structure.js';

const { LIST, SAVE, DELETE, ADM_LIST, ADM_DELETE, MANAGED_LIST, MANAGED_SAVE } = PERMISSIONS;
const REPRESENTATIONS: Representation[] = ['v1', 'v2'];
const INSUFFICIENT = /you don't have sufficient permissions/;
const NOT_AN_INPUT = /is not defined as a customer or platform-operator input/;

/** Asserts a DELETE / purge answer: 202 with an empty body. */
function assertAccepted(response: Response, what: string): void {
  assert.equal(response.status, 202, `${what}: ${response.status} ${response.text}`);
  assert.equal(response.text, '', `${what}: no body`);
}

/** Asserts the v1 deprecation headers: Deprecation and a successor-version link to v2-preview. */
function assertDeprecated(response: Response, what: string): void {
  assert.ok(response.headers.deprecation, `${what}: Deprecation header missing (${JSON.stringify(response.headers)})`);
  const link = response.headers.link ?? '';
  assert.match(link, /rel="?successor-version"?/, `${what}: Link ${link}`);
  assert.match(link, /meshbuildingblock\.v2-preview/i, `${what}: the successor is v2-preview: ${link}`);
}

/** Asserts 404 for the block in both representations. */
async function assertGone(client: ApiClient, uuid: string, what: string): Promise<void> {
  for (const representation of REPRESENTATIONS) {
    const response = await getBlock(client, uuid, representation);
    assert.equal(response.status, 404, `${what} (${representation}): ${response.status} ${response.text}`);
  }
}

/** Every sent row comes back with the same value (and JSON type) and valueType. */
function assertInputsEchoed(sent: Json[], got: Json[], where: string): void {
  assert.ok(Array.isArray(got), `${where}: inputs is an array: ${JSON.stringify(got)}`);
  for (const { key, value, valueType } of sent) {
    const found = row(got, key);
    assert.ok(found, `${where}: input ${key} missing in ${JSON.stringify(got)}`);
    assert.deepStrictEqual(found.value, value, `${where}: ${key} value`);
    assert.equal(found.valueType, valueType, `${where}: ${key} valueType`);
  }
}

describeEachDatabase('building blocks', (ctx) => {
  let shared: Promise<BlockWorld> | undefined;
  /** One world per database for the tests that do not count list results. */
  const world = () => (shared ??= blockWorld(ctx.client));
  let consumerClient: Promise<ApiClient> | undefined;
  /** A key of the world's consumer workspace with BUILDINGBLOCK_LIST/SAVE/DELETE (no operator rights). */
  const consumer = () =>
    (consumerClient ??= world().then(async (w) => (await clientWithKey(ctx.client, w.workspace, [LIST, SAVE, DELETE])).client));

  const plainV2 = (w: BlockWorld, extra: { displayName?: string; inputs?: unknown } = {}) => ({
    versionUuid: w.defs.plain.versionUuid,
    target: tenantTarget(w.tenant),
    ...extra,
  });

  describe('create and read', () => {
    it('v2-preview: creates a tenant block (201, Location, PENDING, outputs [], forcePurge false, inputs with their JSON types, links) and reads it with its run', async () => {
      const w = await world();
      const displayName = unique('Storage');
      const inputs = [
        input('name', 'hello-world', 'STRING'),
        input('size', 20, 'INTEGER'),
        input('flag', true, 'BOOLEAN'),
        input('tier', 'm', 'SINGLE_SELECT'),
        input('zones', ['a', 'c'], 'MULTI_SELECT'),
        input('items', ['p', 'q'], 'LIST'),
        input('file', 'data:text/plain;base64,d29ybGQ=', 'FILE'),
        input('locked', 'l1', 'STRING'),
        input('op', 'op1', 'STRING'),
      ];
      const response = await postBlock(
        ctx.client,
        v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.tenant), displayName, inputs }),
        'v2',
      );
      assert.equal(response.status, 201, response.text);
      const block = response.json;
      assert.equal(block.kind, 'meshBuildingBlock');
      assert.equal(block.apiVersion, 'v2-preview');
      assert.match(block.metadata.uuid, UUID);
      assert.equal(block.metadata.ownedByWorkspace, w.workspace);
      assert.match(block.metadata.createdOn, ISO);
      assert.equal(block.metadata.markedForDeletionOn ?? null, null, 'not marked for deletion');
      assert.equal(block.spec.displayName, displayName);
      assert.deepEqual(block.spec.buildingBlockDefinitionVersionRef, {
        kind: 'meshBuildingBlockDefinitionVersion',
        uuid: w.defs.plain.versionUuid,
      });
      assert.deepEqual(block.spec.targetRef, { kind: 'meshTenant', uuid: w.tenant.uuid });
      assertInputsEchoed(inputs, block.spec.inputs, 'create response');
      assert.equal(row(block.spec.inputs, 'name')!.assignmentType, 'USER_INPUT');
      assert.equal(row(block.spec.inputs, 'op')!.assignmentType, 'PLATFORM_OPERATOR_MANUAL_INPUT');
      assert.equal(row(block.spec.inputs, 'name')!.isSensitive, false);
      assert.deepEqual(block.spec.parentBuildingBlocks, []);
      assert.equal(block.status.status, 'PENDING');
      assert.deepEqual(block.status.outputs, []);
      assert.strictEqual(block.status.forcePurge, false);
      assert.equal(block.status.lifecycle?.state, 'ACTIVE');
      assert.strictEqual(block.status.latestDryRunUuid, null);
      const uuid = block.metadata.uuid as string;
      assert.equal(linkPath(block._links.self.href), `${BLOCKS}/${uuid}`);
      assert.equal(response.headers.location, block._links.self.href, 'Location = _links.self.href');
      assert.equal(linkPath(block._links.meshtenant.href), `${TENANTS}/${w.tenant.uuid}`);
      assert.equal(linkPath(block._links.forcePurge.href), `${BLOCKS}/${uuid}/purge`);
      assert.equal(response.headers.deprecation, undefined, 'v2-preview is not deprecated');
      // The values, not the whole text: a timestamp such as 16:25:20.058 holds "20.0".
      assert.ok(!/"value":\s*-?\d+\.0\b/.test(response.text), `integers stay integers: ${response.text}`);

      const read = await getBlock(ctx.client, uuid, 'v2');
      assert.equal(read.status, 200, read.text);
      assert.equal(read.headers.deprecation, undefined);
      assert.equal(read.json.metadata.uuid, uuid);
      assert.equal(read.json.spec.displayName, displayName);
      assertInputsEchoed(inputs, read.json.spec.inputs, 'GET');
      assert.equal(read.json.status.status, 'PENDING', 'all inputs present: an APPLY run waits');
      assert.match(read.json.status.latestRunUuid ?? '', UUID, 'status.latestRunUuid names the APPLY run');
      assert.deepEqual(await blockUuids(ctx.client, `tenantUuid=${w.tenant.uuid}&name=${encodeURIComponent(displayName)}`), [uuid]);

      const meshcloud = await ctx.client.get(`${BLOCKS}/${uuid}`, { headers: { accept: BLOCK_V2_MESHCLOUD } });
      assert.equal(meshcloud.status, 200, `the meshcloud vendor (camel-cased kind) is served: ${meshcloud.text}`);
      assert.equal(meshcloud.json.apiVersion, 'v2-preview');
      // Under meshcloud the original's form today: inputs and outputs keyed by name (COMPAT §1).
      assert.ok(
        !Array.isArray(meshcloud.json.spec.inputs) && typeof meshcloud.json.spec.inputs === 'object',
        'inputs keyed by name under meshcloud',
      );
      assert.deepEqual(Object.keys(meshcloud.json.spec.inputs).sort(), read.json.spec.inputs.map((i: Json) => i.key).sort());
      for (const row of read.json.spec.inputs as Json[]) {
        const { key, ...rest } = row;
        assert.deepEqual(meshcloud.json.spec.inputs[key], rest, `${key}: the same row, keyed`);
      }
      assert.deepEqual(meshcloud.json.status.outputs, {});
    });

    it('v1: creates a tenant block (201, Location, deprecation headers, metadata, links) and reads and lists it with the deprecation headers', async () => {
      const w = await world();
      const displayName = unique('Legacy');
      const inputs = [
        input('name', 'legacy-block', 'STRING'),
        input('size', 7, 'INTEGER'),
        input('flag', false, 'BOOLEAN'),
        input('zones', ['b'], 'MULTI_SELECT'),
      ];
      const response = await postBlock(
        ctx.client,
        v1Body({ definitionUuid: w.defs.plain.uuid, definitionVersion: 1, tenantIdentifier: w.tenant.identifier, displayName, inputs }),
        'v1',
      );
      assert.equal(response.status, 201, response.text);
      assertDeprecated(response, 'POST v1');
      const block = response.json;
      assert.equal(block.kind, 'meshBuildingBlock');
      assert.equal(block.apiVersion, 'v1');
      const uuid = block.metadata.uuid as string;
      assert.match(uuid, UUID);
      assert.equal(block.metadata.definitionUuid, w.defs.plain.uuid);
      assert.strictEqual(block.metadata.definitionVersion, 1);
      assert.equal(block.metadata.tenantIdentifier, w.tenant.identifier);
      assert.strictEqual(block.metadata.forcePurge, false);
      assert.match(block.metadata.createdOn, ISO);
      assert.equal(block.metadata.markedForDeletionOn ?? null, null);
      assert.equal(block.spec.displayName, displayName);
      assertInputsEchoed(inputs, block.spec.inputs, 'v1 create response');
      for (const r of block.spec.inputs.filter((i: Json) => inputs.some((s) => s.key === i.key))) {
        assert.equal(r.assignmentType, 'USER_INPUT', `${r.key} assignmentType`);
        assert.strictEqual(r.isSensitive, false, `${r.key} isSensitive`);
      }
      assert.deepEqual(block.spec.parentBuildingBlocks, []);
      assert.equal(block.status.status, 'PENDING');
      assert.deepEqual(block.status.outputs, []);
      assert.equal(linkPath(block._links.self.href), `${BLOCKS}/${uuid}`);
      assert.equal(response.headers.location, block._links.self.href);
      assert.equal(linkPath(block._links.meshtenant.href), `${TENANTS}/${w.tenant.identifier}`);
      assert.equal(linkPath(block._links.forcePurge.href), `${BLOCKS}/${uuid}/purge`);

      const read = await getBlock(ctx.client, uuid, 'v1');
      assert.equal(read.status, 200, read.text);
      assertDeprecated(read, 'GET v1');
      assert.equal(read.json.apiVersion, 'v1');
      assert.equal(read.json.metadata.tenantIdentifier, w.tenant.identifier);
      assert.equal(read.json.status.status, 'PENDING');
      assertInputsEchoed(inputs, read.json.spec.inputs, 'v1 GET');

      const list = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.workspace}&size=350`, { headers: { accept: BLOCK_V1 } });
      assert.equal(list.status, 200, list.text);
      assertDeprecated(list, 'v1 list');
      assert.ok(list.json._embedded.meshBuildingBlocks.some((b: Json) => b.metadata.uuid === uuid));

      const meshcloud = await ctx.client.get(`${BLOCKS}/${uuid}`, { headers: { accept: BLOCK_V1_MESHCLOUD } });
      assert.equal(meshcloud.status, 200, meshcloud.text);
      assert.equal(meshcloud.json.apiVersion, 'v1');
    });

    it('v1: accepts definitionVersion as 1, "1" and "v1" (answering the number)', async () => {
      const w = await world();
      for (const definitionVersion of [1, '1', 'v1']) {
        const block = await createBlockV1(ctx.client, {
          definitionUuid: w.defs.plain.uuid,
          definitionVersion,
          tenantIdentifier: w.tenant.identifier,
        });
        assert.strictEqual(block.metadata.definitionVersion, 1, `definitionVersion ${JSON.stringify(definitionVersion)}`);
      }
      const second = await createBlockV1(ctx.client, {
        definitionUuid: w.defs.versioned.uuid,
        definitionVersion: 'v2',
        tenantIdentifier: w.tenant.identifier,
      });
      assert.strictEqual(second.metadata.definitionVersion, 2);
      assert.equal(
        (await readBlock(ctx.client, second.metadata.uuid)).spec.buildingBlockDefinitionVersionRef.uuid,
        w.defs.versioned.versions[2],
      );
    });

    it('keeps values in the JSON type sent: 16 stays 16, "16" stays "16"', async () => {
      const w = await world();
      for (const value of [16, '16']) {
        for (const representation of REPRESENTATIONS) {
          const inputs = [input('size', value, 'INTEGER')];
          const block =
            representation === 'v1'
              ? await createBlockV1(ctx.client, { definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.tenant.identifier, inputs })
              : await createBlockV2(ctx.client, plainV2(w, { inputs }));
          assert.deepStrictEqual(row(block.spec.inputs, 'size')?.value, value, `${representation} create echoes ${JSON.stringify(value)}`);
          for (const read of REPRESENTATIONS) {
            assert.deepStrictEqual(
              row((await readBlock(ctx.client, block.metadata.uuid, read)).spec.inputs, 'size')?.value,
              value,
              `${representation} → ${read} GET keeps ${JSON.stringify(value)}`,
            );
          }
        }
      }
    });

    it('reads a v1-created block with v2-preview and a v2-preview-created one with v1, consistently', async () => {
      const w = await world();
      const inputs = [input('name', 'cross-read', 'STRING'), input('size', 33, 'INTEGER')];
      const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const parents = [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }];

      const fromV1 = await createBlockV1(ctx.client, {
        definitionUuid: w.defs.dependent.uuid,
        tenantIdentifier: w.tenant.identifier,
        displayName: unique('FromV1'),
        inputs: [input('label', 'from-v1', 'STRING')],
        parents,
      });
      const asV2 = await readBlock(ctx.client, fromV1.metadata.uuid, 'v2');
      assert.equal(asV2.apiVersion, 'v2-preview');
      assert.equal(asV2.metadata.ownedByWorkspace, w.workspace);
      assert.equal(asV2.metadata.createdOn, fromV1.metadata.createdOn);
      assert.equal(asV2.spec.displayName, fromV1.spec.displayName);
      assert.deepEqual(asV2.spec.buildingBlockDefinitionVersionRef, {
        kind: 'meshBuildingBlockDefinitionVersion',
        uuid: w.defs.dependent.versionUuid,
      });
      assert.deepEqual(asV2.spec.targetRef, { kind: 'meshTenant', uuid: w.tenant.uuid });
      assertInputsEchoed([input('label', 'from-v1', 'STRING')], asV2.spec.inputs, 'v1 → v2');
      assert.deepEqual(asV2.spec.parentBuildingBlocks, parents);
      assert.deepEqual(asV2.spec.parentBuildingBlockRefs, [{ kind: 'meshBuildingBlock', uuid: parent.metadata.uuid }]);
      assert.strictEqual(asV2.status.forcePurge, false);
      assert.equal(linkPath(asV2._links.meshtenant.href), `${TENANTS}/${w.tenant.uuid}`);

      const fromV2 = await createBlockV2(ctx.client, plainV2(w, { displayName: unique('FromV2'), inputs }));
      const asV1Response = await getBlock(ctx.client, fromV2.metadata.uuid, 'v1');
      assert.equal(asV1Response.status, 200, asV1Response.text);
      assertDeprecated(asV1Response, 'GET v1 of a v2-created block');
      const asV1 = asV1Response.json;
      assert.equal(asV1.apiVersion, 'v1');
      assert.equal(asV1.metadata.definitionUuid, w.defs.plain.uuid);
      assert.strictEqual(asV1.metadata.definitionVersion, 1);
      assert.equal(asV1.metadata.tenantIdentifier, w.tenant.identifier);
      assert.strictEqual(asV1.metadata.forcePurge, false);
      assert.equal(asV1.metadata.createdOn, fromV2.metadata.createdOn);
      assert.equal(asV1.spec.displayName, fromV2.spec.displayName);
      assertInputsEchoed(inputs, asV1.spec.inputs, 'v2 → v1');
      assert.deepEqual(asV1.spec.parentBuildingBlocks, []);
      assert.equal(asV1.status.status, await statusOf(ctx.client, fromV2.metadata.uuid), 'both views show one status');
      assert.equal(linkPath(asV1._links.meshtenant.href), `${TENANTS}/${w.tenant.identifier}`);
      assert.ok(
        (await blockUuids(ctx.client, `workspaceIdentifier=${w.workspace}`, 'v1')).includes(fromV2.metadata.uuid),
        'a v2-created tenant block is in v1 lists',
      );
      assert.ok(
        (await blockUuids(ctx.client, `workspaceIdentifier=${w.workspace}`, 'v2')).includes(fromV1.metadata.uuid),
        'a v1-created block is in v2 lists',
      );
    });

    it('has no v1 form for a workspace-level block: v1 GET 406 naming v2-preview, absent from v1 lists, present in v2-preview lists; no meshtenant link', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, {
        versionUuid: w.defs.workspaceLevel.versionUuid,
        target: workspaceTarget(w.workspace),
        inputs: [input('note', 'ws-level', 'STRING')],
      });
      const uuid = block.metadata.uuid as string;
      assert.deepEqual(block.spec.targetRef, { kind: 'meshWorkspace', identifier: w.workspace });
      assert.equal(block.metadata.ownedByWorkspace, w.workspace);
      assert.equal(block._links.meshtenant, undefined, 'no meshtenant link on a workspace target');
      assert.equal(block.status.status, 'PENDING');
      const v1 = await getBlock(ctx.client, uuid, 'v1');
      assertError(v1, 406, /v2-preview/);
      assert.equal((await getBlock(ctx.client, uuid, 'v2')).status, 200);
      assert.ok(!(await blockUuids(ctx.client, `workspaceIdentifier=${w.workspace}`, 'v1')).includes(uuid), 'v1 lists leave it out');
      assert.ok(!(await blockUuids(ctx.client, '', 'v1')).includes(uuid), 'v1 lists leave it out (unfiltered)');
      assert.ok((await blockUuids(ctx.client, `workspaceIdentifier=${w.workspace}`, 'v2')).includes(uuid));
    });

    it('COMPAT 14: accepts the Terraform create body (inputs keyed by name, parentBuildingBlockRefs, metadata and status placeholders): 201 PENDING, rows with assignmentType, 16 a number', async () => {
      const w = await world();
      const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const tf = (versionUuid: string, inputs: Json, parentUuid?: string) => ({
        apiVersion: 'v2-preview',
        kind: 'meshBuildingBlock',
        metadata: { uuid: null, ownedByWorkspace: '' },
        spec: {
          displayName: unique('Terraform'),
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: versionUuid },
          targetRef: { kind: 'meshTenant', uuid: w.tenant.uuid },
          inputs,
          parentBuildingBlockRefs: parentUuid ? [{ uuid: parentUuid, kind: 'meshBuildingBlock' }] : [],
          parentBuildingBlocks: parentUuid ? [{ buildingBlockUuid: parentUuid }] : [],
        },
        status: null,
      });
      const response = await ctx.client.post(
        BLOCKS,
        tf(w.defs.plain.versionUuid, { size: { value: 16, isSensitive: false }, name: { value: 'from-terraform', isSensitive: false } }),
        { headers: io(BLOCK_V2_MESHCLOUD) },
      );
      assert.equal(response.status, 201, response.text);
      assert.equal(response.json.status.status, 'PENDING');
      assert.ok(!Array.isArray(response.json.spec.inputs), 'the meshcloud answer keys inputs by name');
      const size = response.json.spec.inputs.size;
      assert.strictEqual(size?.value, 16, `16 stays a number: ${JSON.stringify(size)}`);
      assert.equal(size?.valueType, 'INTEGER', 'the type comes from the definition');
      assert.equal(size?.assignmentType, 'USER_INPUT');
      assert.equal(response.json.spec.inputs.name?.assignmentType, 'USER_INPUT');
      assert.ok(!/16\.0/.test(response.text), response.text);

      const child = await ctx.client.post(
        BLOCKS,
        tf(w.defs.dependent.versionUuid, { label: { value: 'tf-child', isSensitive: false } }, parent.metadata.uuid),
        { headers: io(BLOCK_V2_MESHCLOUD) },
      );
      assert.equal(child.status, 201, child.text);
      assert.deepEqual(
        child.json.spec.parentBuildingBlocks,
        [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }],
        'definitionUuid derived',
      );
      assert.deepEqual(child.json.spec.parentBuildingBlockRefs, [{ kind: 'meshBuildingBlock', uuid: parent.metadata.uuid }]);

      const refsOnly: Json = tf(w.defs.dependent.versionUuid, {}, parent.metadata.uuid);
      delete refsOnly.spec.parentBuildingBlocks;
      const byRefs = await postBlock(ctx.client, refsOnly);
      assert.equal(byRefs.status, 201, `parentBuildingBlockRefs alone: ${byRefs.text}`);
      assert.deepEqual(byRefs.json.spec.parentBuildingBlocks, [
        { buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid },
      ]);

      const other = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const disagreeing = tf(w.defs.dependent.versionUuid, {}, parent.metadata.uuid);
      disagreeing.spec.parentBuildingBlocks = [{ buildingBlockUuid: other.metadata.uuid }];
      assertError(await postBlock(ctx.client, disagreeing), 400);
    });

    it('COMPAT 15: echoes targetRef with the key received (workspace by name → name only, by identifier → identifier only; tenant → uuid only)', async () => {
      const w = await world();
      const byName = await createBlockV2(ctx.client, {
        versionUuid: w.defs.workspaceLevel.versionUuid,
        target: { kind: 'meshWorkspace', name: w.workspace },
      });
      for (const [what, targetRef] of [
        ['create', byName.spec.targetRef],
        ['GET', (await readBlock(ctx.client, byName.metadata.uuid)).spec.targetRef],
      ] as const) {
        assert.equal(targetRef.kind, 'meshWorkspace', what);
        assert.equal(targetRef.name, w.workspace, `${what}: ${JSON.stringify(targetRef)}`);
        assert.ok(!('identifier' in targetRef), `${what}: no identifier when name was sent: ${JSON.stringify(targetRef)}`);
        assert.equal(targetRef.uuid ?? null, null, `${what}: never a uuid on a workspace: ${JSON.stringify(targetRef)}`);
      }
      const byIdentifier = await createBlockV2(ctx.client, {
        versionUuid: w.defs.workspaceLevel.versionUuid,
        target: workspaceTarget(w.workspace),
      });
      assert.deepEqual(byIdentifier.spec.targetRef, { kind: 'meshWorkspace', identifier: w.workspace });
      assert.deepEqual((await readBlock(ctx.client, byIdentifier.metadata.uuid)).spec.targetRef, {
        kind: 'meshWorkspace',
        identifier: w.workspace,
      });
      const tenant = await createBlockV2(ctx.client, plainV2(w));
      assert.deepEqual(tenant.spec.targetRef, { kind: 'meshTenant', uuid: w.tenant.uuid });
      assert.deepEqual((await readBlock(ctx.client, tenant.metadata.uuid)).spec.targetRef, { kind: 'meshTenant', uuid: w.tenant.uuid });
    });

    it('accepts v2-preview inputs keyed by name, answering the array form', async () => {
      const w = await world();
      const block = await createBlockV2(
        ctx.client,
        plainV2(w, { inputs: { name: { value: 'keyed', valueType: 'STRING' }, size: { value: 5 } } }),
      );
      assertInputsEchoed([input('name', 'keyed', 'STRING'), input('size', 5, 'INTEGER')], block.spec.inputs, 'keyed inputs');
    });

    it('accepts v2-preview input rows under meshcloud, answering them keyed by name, a secret as {hash}', async () => {
      const w = await world();
      const secret = `s3cret-${randomUUID()}`;
      const created = await ctx.client.post(
        BLOCKS,
        v2Body({ versionUuid: w.defs.sensitive.versionUuid, target: tenantTarget(w.tenant), inputs: [input('secret', secret, 'STRING')] }),
        { headers: io(BLOCK_V2_MESHCLOUD) },
      );
      assert.equal(created.status, 201, created.text);
      assert.ok(!created.text.includes(secret), created.text);
      const keyed = created.json.spec.inputs.secret;
      assert.deepEqual(Object.keys(keyed.value), ['hash'], JSON.stringify(keyed));
      assert.match(keyed.value.hash, HASH);
      assert.equal(keyed.isSensitive, true);
      assert.equal(keyed.valueType, 'STRING');
      assert.equal('key' in keyed, false, 'the name is the key, not a field');
      const list = await ctx.client.get(`${BLOCKS}?tenantUuid=${w.tenant.uuid}`, { headers: { accept: BLOCK_V2_MESHCLOUD } });
      const listed = (list.json._embedded.meshBuildingBlocks as Json[]).find((block) => block.metadata.uuid === created.json.metadata.uuid);
      assert.deepEqual(listed?.spec.inputs, created.json.spec.inputs, 'a list answers keyed under meshcloud too');
    });

    it('returns a sensitive input only as {hash: "sha256:…"}, never in plaintext', async () => {
      const w = await world();
      const secret = `s3cret-${randomUUID()}`;
      const created = await postBlock(
        ctx.client,
        v2Body({ versionUuid: w.defs.sensitive.versionUuid, target: tenantTarget(w.tenant), inputs: [input('secret', secret, 'STRING')] }),
      );
      assert.equal(created.status, 201, created.text);
      assert.ok(!created.text.includes(secret), `plaintext in the create response: ${created.text}`);
      const uuid = created.json.metadata.uuid as string;
      for (const representation of REPRESENTATIONS) {
        const read = await getBlock(ctx.client, uuid, representation);
        assert.equal(read.status, 200, read.text);
        assert.ok(!read.text.includes(secret), `plaintext in the ${representation} GET: ${read.text}`);
        const value = row(read.json.spec.inputs, 'secret')?.value;
        assert.deepEqual(Object.keys(value ?? {}), ['hash'], `${representation}: ${JSON.stringify(value)}`);
        assert.match(value.hash, HASH);
        assert.equal(row(read.json.spec.inputs, 'secret')?.isSensitive, true);
      }
      const list = await ctx.client.get(`${BLOCKS}?tenantUuid=${w.tenant.uuid}&size=350`, { headers: { accept: BLOCK_V2 } });
      assert.ok(!list.text.includes(secret), 'plaintext in a list');
    });

    it('answers 404 for unknown and malformed block ids in both representations', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) await assertGone(ctx.client, id, `GET ${id}`);
    });

    it('answers 406 for a missing or unversioned Accept, 415 for an unversioned Content-Type; accepts a charset parameter; DELETE needs no Accept', async () => {
      const w = await world();
      const body = v2Body(plainV2(w));
      assertError(await ctx.client.get(BLOCKS, { headers: { accept: undefined } }), 406);
      assertError(await ctx.client.get(BLOCKS, { headers: { accept: 'application/json' } }), 406);
      assertError(await ctx.client.get(BLOCKS, { headers: { accept: 'application/vnd.vendor.api.meshbuildingblock.v9.hal+json' } }), 406);
      assertError(await ctx.client.post(BLOCKS, body, { headers: { accept: BLOCK_V2, 'content-type': 'application/json' } }), 415);
      assertError(await ctx.client.post(BLOCKS, body, { headers: { accept: 'application/json', 'content-type': BLOCK_V2 } }), 406);
      const charset = await ctx.client.post(BLOCKS, body, { headers: { accept: BLOCK_V2, 'content-type': `${BLOCK_V2}; charset=utf-8` } });
      assert.equal(charset.status, 201, charset.text);
      const deleted = await ctx.client.delete(`${BLOCKS}/${charset.json.metadata.uuid}`, { headers: { accept: undefined } });
      assertAccepted(deleted, 'DELETE without Accept');
      assertError(await ctx.client.put(`${BLOCKS}/${charset.json.metadata.uuid}`, body, { headers: io(BLOCK_V1) }), 415);
    });
  });

  describe('create: refusals', () => {
    it('answers 422 naming an unknown definition, version, tenant, workspace or parent, and creates nothing', async () => {
      const w = await world();
      const tenant = await addTenant(ctx.client, w.workspace, w.platformUuid);
      const missing = randomUUID();
      const cases: [string, Response, RegExp][] = [
        [
          'v1 definition',
          await postBlock(ctx.client, v1Body({ definitionUuid: missing, tenantIdentifier: tenant.identifier }), 'v1'),
          literally(missing),
        ],
        [
          'v1 version number',
          await postBlock(
            ctx.client,
            v1Body({ definitionUuid: w.defs.plain.uuid, definitionVersion: 99, tenantIdentifier: tenant.identifier }),
            'v1',
          ),
          /99/,
        ],
        [
          'v1 tenant',
          await postBlock(
            ctx.client,
            v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: `${w.workspace}.nope.${w.platformIdentifier}` }),
            'v1',
          ),
          literally(`${w.workspace}.nope.${w.platformIdentifier}`),
        ],
        ['v2 version', await postBlock(ctx.client, v2Body({ versionUuid: missing, target: tenantTarget(tenant) })), literally(missing)],
        [
          'v2 tenant',
          await postBlock(ctx.client, v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(missing) })),
          literally(missing),
        ],
        [
          'v2 workspace',
          await postBlock(
            ctx.client,
            v2Body({ versionUuid: w.defs.workspaceLevel.versionUuid, target: workspaceTarget('no-such-workspace') }),
          ),
          /no-such-workspace/,
        ],
        [
          'v1 parent',
          await postBlock(
            ctx.client,
            v1Body({
              definitionUuid: w.defs.dependent.uuid,
              tenantIdentifier: tenant.identifier,
              parents: [{ buildingBlockUuid: missing, definitionUuid: w.defs.dependency.uuid }],
            }),
            'v1',
          ),
          literally(missing),
        ],
        [
          'v2 parent',
          await postBlock(
            ctx.client,
            v2Body({
              versionUuid: w.defs.dependent.versionUuid,
              target: tenantTarget(tenant),
              parents: [{ buildingBlockUuid: missing, definitionUuid: w.defs.dependency.uuid }],
            }),
          ),
          literally(missing),
        ],
      ];
      const failures: string[] = [];
      for (const [what, response, names] of cases) {
        if (response.status !== 422) failures.push(`${what}: expected 422, got ${response.status} ${response.text.slice(0, 300)}`);
        else if (!names.test(String(response.json.message)))
          failures.push(`${what}: the message does not name it: ${response.json.message}`);
      }
      assert.deepEqual(failures, [], failures.join('\n'));
      assert.deepEqual(await blockUuids(ctx.client, `tenantUuid=${tenant.uuid}`), [], 'refused creates store nothing');
    });

    it('answers 400 for a TENANT_LEVEL definition on a workspace and a WORKSPACE_LEVEL one on a tenant', async () => {
      const w = await world();
      assertError(
        await postBlock(ctx.client, v2Body({ versionUuid: w.defs.plain.versionUuid, target: workspaceTarget(w.workspace) })),
        400,
      );
      assertError(
        await postBlock(ctx.client, v2Body({ versionUuid: w.defs.workspaceLevel.versionUuid, target: tenantTarget(w.tenant) })),
        400,
      );
      assertError(
        await postBlock(ctx.client, v1Body({ definitionUuid: w.defs.workspaceLevel.uuid, tenantIdentifier: w.tenant.identifier }), 'v1'),
        400,
      );
    });

    it('lets only the owning workspace use a DRAFT version (422 for another workspace)', async () => {
      const w = await world();
      const foreign = await postBlock(ctx.client, v2Body({ versionUuid: w.defs.draft.versionUuid, target: workspaceTarget(w.workspace) }));
      assertError(foreign, 422);
      const own = await postBlock(ctx.client, v2Body({ versionUuid: w.defs.draft.versionUuid, target: workspaceTarget(w.provider) }));
      assert.equal(own.status, 201, `the owner may use its draft: ${own.text}`);
      assertError(await postBlock(ctx.client, v2Body({ versionUuid: w.defs.versioned.versions[3], target: tenantTarget(w.tenant) })), 422);
    });

    for (const representation of REPRESENTATIONS) {
      it(`${representation}: answers 400 for inputs that are not customer or operator inputs, of another type, not parsing as their type or missing the regex`, async () => {
        const w = await world();
        const tenant = await addTenant(ctx.client, w.workspace, w.platformUuid);
        const post = (inputs: Json[]) =>
          representation === 'v1'
            ? postBlock(ctx.client, v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: tenant.identifier, inputs }), 'v1')
            : postBlock(ctx.client, v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(tenant), inputs }));
        const cases: [string, Json[], RegExp?][] = [
          ['STATIC input', [input('fixed', 4, 'INTEGER')], NOT_AN_INPUT],
          ['unknown input', [input('ghost', 'x', 'STRING')]],
          ['valueType other than the input type', [input('name', 'abc', 'CODE')]],
          ['INTEGER not an integer', [input('size', 'sixteen', 'INTEGER')]],
          ['INTEGER with a fraction', [input('size', 1.5, 'INTEGER')]],
          ['BOOLEAN not a boolean', [input('flag', 'maybe', 'BOOLEAN')]],
          ['SINGLE_SELECT not selectable', [input('tier', 'xl', 'SINGLE_SELECT')]],
          ['MULTI_SELECT not selectable', [input('zones', ['a', 'z'], 'MULTI_SELECT')]],
          ['MULTI_SELECT not an array', [input('zones', 'a', 'MULTI_SELECT')]],
          ['LIST not an array', [input('items', 'x', 'LIST')]],
          ['FILE not a data URL', [input('file', 'hello.txt', 'FILE')]],
          ['regex miss', [input('name', 'Upper Case', 'STRING')], /only lower-case letters and dashes/],
        ];
        const failures: string[] = [];
        for (const [what, inputs, message] of cases) {
          const response = await post(inputs);
          if (response.status !== 400) failures.push(`${what}: expected 400, got ${response.status} ${response.text.slice(0, 300)}`);
          else if (message && !message.test(String(response.json.message)))
            failures.push(`${what}: message ${response.json.message} does not match ${message}`);
        }
        assert.deepEqual(failures, [], failures.join('\n'));
        assert.deepEqual(await blockUuids(ctx.client, `tenantUuid=${tenant.uuid}`), [], 'refused creates store nothing');
        const ok = await post([
          input('name', 'fine-name', 'STRING'),
          input('size', 3, 'INTEGER'),
          input('tier', 'l', 'SINGLE_SELECT'),
          input('zones', [], 'MULTI_SELECT'),
          input('items', [], 'LIST'),
        ]);
        assert.equal(ok.status, 201, `valid values pass: ${ok.text}`);
      });
    }

    it('COMPAT 18: a value for a STATIC input → 400 "is not defined as a customer or platform-operator input" (both representations)', async () => {
      const w = await world();
      assertError(await postBlock(ctx.client, v2Body(plainV2(w, { inputs: [input('fixed', 3, 'INTEGER')] }))), 400, NOT_AN_INPUT);
      assertError(
        await postBlock(
          ctx.client,
          v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.tenant.identifier, inputs: [input('fixed', 3, 'INTEGER')] }),
          'v1',
        ),
        400,
        NOT_AN_INPUT,
      );
    });

    it('answers 400 for a parent of another definition and for a missing dependency parent', async () => {
      const w = await world();
      const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const unrelated = await createBlockV2(ctx.client, plainV2(w));
      for (const representation of REPRESENTATIONS) {
        const post = (parents: Json[]) =>
          representation === 'v1'
            ? postBlock(
                ctx.client,
                v1Body({ definitionUuid: w.defs.dependent.uuid, tenantIdentifier: w.tenant.identifier, parents: parents as never }),
                'v1',
              )
            : postBlock(
                ctx.client,
                v2Body({ versionUuid: w.defs.dependent.versionUuid, target: tenantTarget(w.tenant), parents: parents as never }),
              );
        assertError(await post([{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.plain.uuid }]), 400);
        assertError(await post([]), 400);
        assertError(await post([{ buildingBlockUuid: unrelated.metadata.uuid, definitionUuid: w.defs.plain.uuid }]), 400);
      }
    });

    it('answers 409 for a second block of an onlyApplyOncePerTenant definition on the same tenant', async () => {
      const w = await world();
      const tenant = await addTenant(ctx.client, w.workspace, w.platformUuid);
      await createBlockV2(ctx.client, { versionUuid: w.defs.once.versionUuid, target: tenantTarget(tenant) });
      assertError(await postBlock(ctx.client, v2Body({ versionUuid: w.defs.once.versionUuid, target: tenantTarget(tenant) })), 409);
      assertError(
        await postBlock(ctx.client, v1Body({ definitionUuid: w.defs.once.uuid, tenantIdentifier: tenant.identifier }), 'v1'),
        409,
      );
      const elsewhere = await addTenant(ctx.client, w.workspace, w.platformUuid);
      await createBlockV2(ctx.client, { versionUuid: w.defs.once.versionUuid, target: tenantTarget(elsewhere) });
      assert.equal((await blockUuids(ctx.client, `tenantUuid=${tenant.uuid}`)).length, 1);
    });

    it('answers 400 for missing required fields', async () => {
      const w = await world();
      const v1 = v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.tenant.identifier });
      const v2 = v2Body(plainV2(w));
      const without = (body: Json, section: string, field: string) => ({
        ...body,
        [section]: Object.fromEntries(Object.entries(body[section]).filter(([k]) => k !== field)),
      });
      const failures: string[] = [];
      for (const [section, field] of [
        ['spec', 'parentBuildingBlocks'],
        ['spec', 'displayName'],
        ['metadata', 'tenantIdentifier'],
        ['metadata', 'definitionUuid'],
        ['metadata', 'definitionVersion'],
      ] as const) {
        const response = await postBlock(ctx.client, without(v1, section, field), 'v1');
        if (response.status !== 400) failures.push(`v1 without ${section}.${field}: ${response.status} ${response.text.slice(0, 200)}`);
      }
      for (const field of ['displayName', 'targetRef', 'buildingBlockDefinitionVersionRef']) {
        const response = await postBlock(ctx.client, without(v2, 'spec', field));
        if (response.status !== 400) failures.push(`v2 without spec.${field}: ${response.status} ${response.text.slice(0, 200)}`);
      }
      const noSpec = await postBlock(ctx.client, { apiVersion: 'v2-preview', kind: 'meshBuildingBlock' });
      if (noSpec.status !== 400) failures.push(`v2 without spec: ${noSpec.status}`);
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    it('lets only operators set a PLATFORM_OPERATOR_MANUAL_INPUT at create (403 for a consumer key)', async () => {
      const w = await world();
      const key = await consumer();
      assertError(await postBlock(key, v2Body(plainV2(w, { inputs: [input('op', 'mine', 'STRING')] }))), 403, INSUFFICIENT);
      assertError(
        await postBlock(
          key,
          v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.tenant.identifier, inputs: [input('op', 'mine', 'STRING')] }),
          'v1',
        ),
        403,
        INSUFFICIENT,
      );
      const own = await postBlock(key, v2Body(plainV2(w, { inputs: [input('name', 'consumer-made', 'STRING')] })));
      assert.equal(own.status, 201, `the same consumer without the operator input: ${own.text}`);
      const byAdmin = await postBlock(ctx.client, v2Body(plainV2(w, { inputs: [input('op', 'admin-set', 'STRING')] })));
      assert.equal(byAdmin.status, 201, byAdmin.text);
      assert.equal(row(byAdmin.json.spec.inputs, 'op')?.value, 'admin-set');
    });
  });

  describe('status', () => {
    for (const representation of REPRESENTATIONS) {
      it(`${representation}: PENDING at create → WAITING_FOR_DEPENDENT_INPUT → the parent's run succeeds → the child has a PENDING run carrying the parent's output`, async () => {
        const w = await world();
        const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
        const parentUuid = parent.metadata.uuid as string;
        const parents = [{ buildingBlockUuid: parentUuid, definitionUuid: w.defs.dependency.uuid }];
        const created =
          representation === 'v1'
            ? await createBlockV1(ctx.client, { definitionUuid: w.defs.dependent.uuid, tenantIdentifier: w.tenant.identifier, parents })
            : await createBlockV2(ctx.client, { versionUuid: w.defs.dependent.versionUuid, target: tenantTarget(w.tenant), parents });
        assert.equal(created.status.status, 'PENDING', 'the create response is PENDING');
        assert.deepEqual(created.spec.parentBuildingBlocks, parents);
        const child = created.metadata.uuid as string;

        const waiting = await readBlock(ctx.client, child);
        assert.equal(waiting.status.status, 'WAITING_FOR_DEPENDENT_INPUT');
        assert.equal(waiting.status.latestRunUuid ?? null, null, 'no run while waiting');
        assert.equal((await readBlock(ctx.client, child, 'v1')).status.status, 'WAITING_FOR_DEPENDENT_INPUT');

        const vpc = `vpc-${randomUUID()}`;
        const run = await claimRun(ctx.client, RUNNER, parentUuid);
        assert.equal(run.spec.behavior, 'APPLY');
        assert.equal(run.status, 'IN_PROGRESS');
        assert.equal(await statusOf(ctx.client, parentUuid), 'IN_PROGRESS', 'a claimed block is IN_PROGRESS');
        assert.equal(await statusOf(ctx.client, child), 'WAITING_FOR_DEPENDENT_INPUT', 'a parent in progress has not succeeded');
        assert.deepEqual(await finishRun(ctx.client, run, 'SUCCEEDED', { vpc_id: vpc }), { runAborted: false });

        const parentAfter = await readBlock(ctx.client, parentUuid);
        assert.equal(parentAfter.status.status, 'SUCCEEDED');
        assert.equal(row(parentAfter.status.outputs, 'vpc_id')?.value, vpc, JSON.stringify(parentAfter.status.outputs));
        assert.equal(row((await readBlock(ctx.client, parentUuid, 'v1')).status.outputs, 'vpc_id')?.value, vpc, 'v1 shows the outputs too');

        const childAfter = await readBlock(ctx.client, child);
        assert.equal(childAfter.status.status, 'PENDING', 'the waiting child moved on by itself');
        assert.match(childAfter.status.latestRunUuid ?? '', UUID);
        const childRun = await claimRun(ctx.client, RUNNER, child);
        assert.equal(childRun.metadata.uuid, childAfter.status.latestRunUuid, 'latestRunUuid names the claimed run');
        assert.equal(childRun.spec.behavior, 'APPLY');
        const upstream = row(childRun.spec.buildingBlock.spec.inputs, 'upstream');
        assert.equal(
          upstream?.value,
          vpc,
          `the run carries the parent's output: ${JSON.stringify(childRun.spec.buildingBlock.spec.inputs)}`,
        );
        assert.equal(await statusOf(ctx.client, child), 'IN_PROGRESS');
      });
    }

    it('starts a new APPLY run on POST …/trigger-run (202, no body) and refuses one while a run is pending (409)', async () => {
      const w = await world();
      const block = await settledBlock(
        ctx.client,
        { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) },
        'SUCCEEDED',
        { vpc_id: 'vpc-1' },
      );
      const before = await readBlock(ctx.client, block.metadata.uuid);
      const trigger = await ctx.client.post(`${BLOCKS}/${block.metadata.uuid}/trigger-run`, undefined, {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(trigger.status, 202, trigger.text);
      assert.equal(trigger.text, '');
      const after = await readBlock(ctx.client, block.metadata.uuid);
      assert.equal(after.status.status, 'PENDING');
      assert.notEqual(after.status.latestRunUuid, before.status.latestRunUuid);
      const again = await ctx.client.post(`${BLOCKS}/${block.metadata.uuid}/trigger-run`, undefined);
      assert.equal(again.status, 409, again.text);
      const run = await claimRun(ctx.client, RUNNER, block.metadata.uuid);
      assert.equal(run.spec.runNumber, 2);
      await finishRun(ctx.client, run, 'SUCCEEDED', { vpc_id: 'vpc-1' });
    });

    it('creates the run at once for a child whose parent already SUCCEEDED', async () => {
      const w = await world();
      const vpc = `vpc-${randomUUID()}`;
      const parent = await settledBlock(
        ctx.client,
        { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) },
        'SUCCEEDED',
        { vpc_id: vpc },
      );
      const child = await createBlockV2(ctx.client, {
        versionUuid: w.defs.dependent.versionUuid,
        target: tenantTarget(w.tenant),
        parents: [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }],
      });
      const read = await readBlock(ctx.client, child.metadata.uuid);
      assert.equal(read.status.status, 'PENDING');
      assert.match(read.status.latestRunUuid ?? '', UUID);
      const run = await claimRun(ctx.client, RUNNER, child.metadata.uuid);
      assert.equal(row(run.spec.buildingBlock.spec.inputs, 'upstream')?.value, vpc);
    });

    it('keeps a child WAITING_FOR_DEPENDENT_INPUT while its parent FAILED', async () => {
      const w = await world();
      const parent = await settledBlock(
        ctx.client,
        { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) },
        'FAILED',
      );
      assert.equal(await statusOf(ctx.client, parent.metadata.uuid), 'FAILED');
      const child = await createBlockV2(ctx.client, {
        versionUuid: w.defs.dependent.versionUuid,
        target: tenantTarget(w.tenant),
        parents: [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }],
      });
      assert.equal(await statusOf(ctx.client, child.metadata.uuid), 'WAITING_FOR_DEPENDENT_INPUT');
    });

    it('runs: claimed → IN_PROGRESS; SUCCEEDED → the outputs; FAILED → FAILED', async () => {
      const w = await world();
      const good = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const run = await claimRun(ctx.client, RUNNER, good.metadata.uuid);
      assert.equal(await statusOf(ctx.client, good.metadata.uuid), 'IN_PROGRESS');
      assert.equal((await readBlock(ctx.client, good.metadata.uuid)).status.latestRunUuid, run.metadata.uuid);
      await finishRun(ctx.client, run, 'SUCCEEDED', { vpc_id: 'vpc-1' });
      const done = await readBlock(ctx.client, good.metadata.uuid);
      assert.equal(done.status.status, 'SUCCEEDED');
      assert.deepEqual(
        done.status.outputs.map((o: Json) => ({ key: o.key, value: o.value, valueType: o.valueType })),
        [{ key: 'vpc_id', value: 'vpc-1', valueType: 'STRING' }],
      );
      const bad = await settledBlock(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) }, 'FAILED');
      assert.equal(await statusOf(ctx.client, bad.metadata.uuid), 'FAILED');
      assert.equal((await readBlock(ctx.client, bad.metadata.uuid, 'v1')).status.status, 'FAILED');
    });

    it('leaves WAITING_FOR_OPERATOR_INPUT by an operator PUT (MANAGED_BUILDINGBLOCK_SAVE of the definition workspace); a consumer PUT of the operator input is 403', async () => {
      const w = await world();
      const key = await consumer();
      const displayName = unique('Needs operator');
      const created = await createBlockV2(key, {
        versionUuid: w.defs.operator.versionUuid,
        target: tenantTarget(w.tenant),
        displayName,
        inputs: [input('note', 'from-consumer', 'STRING')],
      });
      assert.equal(created.status.status, 'PENDING');
      const uuid = created.metadata.uuid as string;
      const waiting = await readBlock(ctx.client, uuid);
      assert.equal(waiting.status.status, 'WAITING_FOR_OPERATOR_INPUT');
      assert.equal(waiting.status.latestRunUuid ?? null, null);

      const body = v2Body({
        versionUuid: w.defs.operator.versionUuid,
        target: tenantTarget(w.tenant),
        displayName,
        inputs: [input('op', 'operator-value', 'STRING')],
      });
      assertError(await putBlock(key, uuid, body), 403, INSUFFICIENT);
      assert.equal(await statusOf(ctx.client, uuid), 'WAITING_FOR_OPERATOR_INPUT', 'a refused PUT changes nothing');

      const operator = (await clientWithKey(ctx.client, w.provider, [MANAGED_LIST, MANAGED_SAVE])).client;
      const put = await putBlock(operator, uuid, body);
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.status.status, 'PENDING');
      const after = await readBlock(ctx.client, uuid);
      assert.equal(after.status.status, 'PENDING');
      assert.match(after.status.latestRunUuid ?? '', UUID, 'the operator input started a run');
      assert.equal(row(after.spec.inputs, 'op')?.value, 'operator-value');
      assert.equal(row(after.spec.inputs, 'op')?.assignmentType, 'PLATFORM_OPERATOR_MANUAL_INPUT');
      assert.equal(row(after.spec.inputs, 'note')?.value, 'from-consumer', 'the omitted input is kept');
      const run = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(run.metadata.uuid, after.status.latestRunUuid);
      assert.equal(row(run.spec.buildingBlock.spec.inputs, 'op')?.value, 'operator-value');
      assert.equal(row(run.spec.buildingBlock.spec.inputs, 'note')?.value, 'from-consumer');
    });

    it('leaves WAITING_FOR_OPERATOR_INPUT by an admin PUT', async () => {
      const w = await world();
      const created = await createBlockV2(ctx.client, { versionUuid: w.defs.operator.versionUuid, target: tenantTarget(w.tenant) });
      assert.equal(await statusOf(ctx.client, created.metadata.uuid), 'WAITING_FOR_OPERATOR_INPUT');
      const put = await putBlock(
        ctx.client,
        created.metadata.uuid,
        v2Body({
          versionUuid: w.defs.operator.versionUuid,
          target: tenantTarget(w.tenant),
          displayName: created.spec.displayName,
          inputs: [input('op', 'by-admin', 'STRING')],
        }),
      );
      assert.equal(put.status, 200, put.text);
      const after = await readBlock(ctx.client, created.metadata.uuid);
      assert.equal(after.status.status, 'PENDING');
      assert.match(after.status.latestRunUuid ?? '', UUID);
    });

    it('leaves WAITING_FOR_USER_INPUT when the consumer supplies the missing input (even one not updateable by consumers)', async () => {
      const w = await world();
      const key = await consumer();
      const created = await createBlockV2(key, { versionUuid: w.defs.user.versionUuid, target: tenantTarget(w.tenant) });
      assert.equal(created.status.status, 'PENDING');
      const uuid = created.metadata.uuid as string;
      assert.equal(await statusOf(ctx.client, uuid), 'WAITING_FOR_USER_INPUT');
      assert.equal((await readBlock(ctx.client, uuid)).status.latestRunUuid ?? null, null);
      const put = await putBlock(
        key,
        uuid,
        v2Body({
          versionUuid: w.defs.user.versionUuid,
          target: tenantTarget(w.tenant),
          displayName: created.spec.displayName,
          inputs: [input('needed', 'supplied', 'STRING')],
        }),
      );
      assert.equal(put.status, 200, put.text);
      const after = await readBlock(ctx.client, uuid);
      assert.equal(after.status.status, 'PENDING');
      assert.match(after.status.latestRunUuid ?? '', UUID);
      assert.equal(row(after.spec.inputs, 'needed')?.value, 'supplied');
    });
  });

  describe('PUT (v2-preview)', () => {
    it('COMPAT 17: rename-only keeps status and run, omitted inputs are kept, a changed input starts a new run; 409 while a run is pending', async () => {
      const w = await world();
      const target = tenantTarget(w.tenant);
      const versionUuid = w.defs.plain.versionUuid;
      const created = await createBlockV2(ctx.client, {
        versionUuid,
        target,
        displayName: unique('Put'),
        inputs: [input('name', 'first', 'STRING'), input('size', 20, 'INTEGER')],
      });
      const uuid = created.metadata.uuid as string;
      const firstRun = (await readBlock(ctx.client, uuid)).status.latestRunUuid as string;
      assert.match(firstRun ?? '', UUID);

      // while the APPLY run is pending: a rename is fine, an input change is 409
      const renamedPending = await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'Renamed while pending' }));
      assert.equal(renamedPending.status, 200, renamedPending.text);
      assert.equal(renamedPending.json.status.status, 'PENDING');
      assert.equal(renamedPending.json.status.latestRunUuid, firstRun, 'a rename starts no run');
      assertError(
        await putBlock(
          ctx.client,
          uuid,
          v2Body({ versionUuid, target, displayName: 'Renamed while pending', inputs: [input('size', 21, 'INTEGER')] }),
        ),
        409,
      );
      assert.strictEqual(row((await readBlock(ctx.client, uuid)).spec.inputs, 'size')?.value, 20, 'the refused change is not stored');

      const run = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(run.metadata.uuid, firstRun);
      assertError(
        await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'x', inputs: [input('size', 22, 'INTEGER')] })),
        409,
      );
      await finishRun(ctx.client, run, 'SUCCEEDED');
      assert.equal(await statusOf(ctx.client, uuid), 'SUCCEEDED');

      const renamed = await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'Renamed after success' }));
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.json.spec.displayName, 'Renamed after success');
      assert.equal(renamed.json.status.status, 'SUCCEEDED', 'a rename keeps status');
      assert.equal(renamed.json.status.latestRunUuid, firstRun);
      const reread = await readBlock(ctx.client, uuid);
      assert.equal(reread.spec.displayName, 'Renamed after success');
      assert.equal(reread.status.status, 'SUCCEEDED');
      assert.equal(reread.status.latestRunUuid, firstRun);
      assert.strictEqual(row(reread.spec.inputs, 'size')?.value, 20, 'omitted inputs are kept');
      assert.equal(row(reread.spec.inputs, 'name')?.value, 'first');
      assert.equal((await readBlock(ctx.client, uuid, 'v1')).spec.displayName, 'Renamed after success');

      const identical = await putBlock(
        ctx.client,
        uuid,
        v2Body({
          versionUuid,
          target,
          displayName: 'Renamed after success',
          inputs: [input('size', 20, 'INTEGER'), input('name', 'first', 'STRING')],
        }),
      );
      assert.equal(identical.status, 200, identical.text);
      assert.equal(identical.json.status.status, 'SUCCEEDED', 'an identical PUT starts nothing');
      assert.equal((await readBlock(ctx.client, uuid)).status.latestRunUuid, firstRun);

      const changed = await putBlock(
        ctx.client,
        uuid,
        v2Body({ versionUuid, target, displayName: 'Renamed after success', inputs: [input('name', 'second', 'STRING')] }),
      );
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.status.status, 'PENDING', 'a changed input starts a run');
      const afterChange = await readBlock(ctx.client, uuid);
      assert.equal(afterChange.status.status, 'PENDING');
      assert.match(afterChange.status.latestRunUuid ?? '', UUID);
      assert.notEqual(afterChange.status.latestRunUuid, firstRun, 'a new run');
      assert.equal(row(afterChange.spec.inputs, 'name')?.value, 'second');
      assert.strictEqual(row(afterChange.spec.inputs, 'size')?.value, 20, 'the omitted input is kept');
      const second = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(second.metadata.uuid, afterChange.status.latestRunUuid);
      assert.equal(row(second.spec.buildingBlock.spec.inputs, 'name')?.value, 'second');
      assert.equal(row(second.spec.buildingBlock.spec.inputs, 'size')?.value, 20);
      await finishRun(ctx.client, second, 'SUCCEEDED');

      // parents change only with a version change
      const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target });
      assertError(
        await putBlock(
          ctx.client,
          uuid,
          v2Body({
            versionUuid,
            target,
            displayName: 'x',
            parents: [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }],
          }),
        ),
        400,
      );
      assert.deepEqual((await readBlock(ctx.client, uuid)).spec.parentBuildingBlocks, []);
    });

    it('keeps a WAITING_FOR_OPERATOR_INPUT status on a rename', async () => {
      const w = await world();
      const created = await createBlockV2(ctx.client, { versionUuid: w.defs.operator.versionUuid, target: tenantTarget(w.tenant) });
      const put = await putBlock(
        ctx.client,
        created.metadata.uuid,
        v2Body({ versionUuid: w.defs.operator.versionUuid, target: tenantTarget(w.tenant), displayName: 'Renamed waiting' }),
      );
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.status.status, 'WAITING_FOR_OPERATOR_INPUT');
      assert.equal(await statusOf(ctx.client, created.metadata.uuid), 'WAITING_FOR_OPERATOR_INPUT');
    });

    it('COMPAT 17: changes the version only to the latest released one (400 otherwise) and not while a run is pending (409)', async () => {
      const w = await world();
      const target = tenantTarget(w.tenant);
      const { versions } = w.defs.versioned;
      const onFirst = await createBlockV2(ctx.client, { versionUuid: versions[1], target, displayName: unique('Versioned') });
      const uuid = onFirst.metadata.uuid as string;
      const displayName = onFirst.spec.displayName as string;
      assertError(await putBlock(ctx.client, uuid, v2Body({ versionUuid: versions[2], target, displayName })), 409);
      assert.equal((await readBlock(ctx.client, uuid)).spec.buildingBlockDefinitionVersionRef.uuid, versions[1]);
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');
      const runBefore = (await readBlock(ctx.client, uuid)).status.latestRunUuid;

      assertError(await putBlock(ctx.client, uuid, v2Body({ versionUuid: versions[3], target, displayName })), 400);
      const upgraded = await putBlock(ctx.client, uuid, v2Body({ versionUuid: versions[2], target, displayName }));
      assert.equal(upgraded.status, 200, upgraded.text);
      assert.equal(upgraded.json.status.status, 'PENDING', 'a version change starts a run');
      assert.equal(upgraded.json.spec.buildingBlockDefinitionVersionRef.uuid, versions[2]);
      const read = await readBlock(ctx.client, uuid);
      assert.notEqual(read.status.latestRunUuid, runBefore);
      assert.strictEqual((await readBlock(ctx.client, uuid, 'v1')).metadata.definitionVersion, 2);
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');

      const onSecond = await settledBlock(ctx.client, { versionUuid: versions[2], target });
      assertError(
        await putBlock(
          ctx.client,
          onSecond.metadata.uuid,
          v2Body({ versionUuid: versions[1], target, displayName: onSecond.spec.displayName }),
        ),
        400,
      );
      assert.equal((await readBlock(ctx.client, onSecond.metadata.uuid)).spec.buildingBlockDefinitionVersionRef.uuid, versions[2]);
    });

    it('COMPAT 19: a consumer changing a non-updateable input or an operator input → 403 "you don\'t have sufficient permissions"; an updateable one → 200', async () => {
      const w = await world();
      const key = await consumer();
      const target = tenantTarget(w.tenant);
      const versionUuid = w.defs.plain.versionUuid;
      // the non-updateable input holds an explicit value (set at create by an admin in the consumer's workspace)
      const created = await createBlockV2(ctx.client, {
        versionUuid,
        target,
        displayName: unique('Consumer'),
        inputs: [input('locked', 'set-by-admin', 'STRING'), input('op', 'set-by-admin', 'STRING')],
      });
      const uuid = created.metadata.uuid as string;
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');
      const displayName = created.spec.displayName as string;
      assert.equal((await readBlock(key, uuid)).spec.displayName, displayName, 'the consumer sees the block');
      assertError(
        await putBlock(key, uuid, v2Body({ versionUuid, target, displayName, inputs: [input('locked', 'changed', 'STRING')] })),
        403,
        INSUFFICIENT,
      );
      assertError(
        await putBlock(key, uuid, v2Body({ versionUuid, target, displayName, inputs: [input('op', 'changed', 'STRING')] })),
        403,
        INSUFFICIENT,
      );
      const unchanged = await readBlock(ctx.client, uuid);
      assert.equal(unchanged.status.status, 'SUCCEEDED', 'refused PUTs start nothing');
      assert.equal(row(unchanged.spec.inputs, 'locked')?.value, 'set-by-admin');
      assert.equal(row(unchanged.spec.inputs, 'op')?.value, 'set-by-admin');
      const allowed = await putBlock(key, uuid, v2Body({ versionUuid, target, displayName, inputs: [input('size', 24, 'INTEGER')] }));
      assert.equal(allowed.status, 200, allowed.text);
      assert.equal(allowed.json.status.status, 'PENDING');
      assert.strictEqual(row((await readBlock(ctx.client, uuid)).spec.inputs, 'size')?.value, 24);
    });

    it('a consumer overriding the default of a non-updateable input (not a missing input) → 403', async () => {
      const w = await world();
      const key = await consumer();
      const target = tenantTarget(w.tenant);
      const versionUuid = w.defs.plain.versionUuid;
      const created = await createBlockV2(key, { versionUuid, target, displayName: unique('Defaulted') });
      const uuid = created.metadata.uuid as string;
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');
      assertError(
        await putBlock(
          key,
          uuid,
          v2Body({ versionUuid, target, displayName: created.spec.displayName, inputs: [input('locked', 'changed', 'STRING')] }),
        ),
        403,
        INSUFFICIENT,
      );
      assert.equal(await statusOf(ctx.client, uuid), 'SUCCEEDED');
    });

    it('answers 404 for an unknown block, 400 for invalid inputs, 409 while the block is marked for deletion', async () => {
      const w = await world();
      const target = tenantTarget(w.tenant);
      const versionUuid = w.defs.plain.versionUuid;
      assert.equal((await putBlock(ctx.client, randomUUID(), v2Body({ versionUuid, target }))).status, 404);
      const block = await settledBlock(ctx.client, { versionUuid, target, displayName: unique('Doomed') });
      const uuid = block.metadata.uuid as string;
      assertError(
        await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'x', inputs: [input('fixed', 9, 'INTEGER')] })),
        400,
        NOT_AN_INPUT,
      );
      assertError(
        await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'x', inputs: [input('size', 'many', 'INTEGER')] })),
        400,
      );
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      assertError(await putBlock(ctx.client, uuid, v2Body({ versionUuid, target, displayName: 'Renamed while marked' })), 409);
      assertError(
        await putBlock(
          ctx.client,
          uuid,
          v2Body({ versionUuid, target, displayName: block.spec.displayName, inputs: [input('size', 99, 'INTEGER')] }),
        ),
        409,
      );
      assert.equal((await readBlock(ctx.client, uuid)).spec.displayName, block.spec.displayName);
    });
  });

  describe('delete and purge', () => {
    it('mode DELETE: 202 marks the block (PENDING, MARKED_FOR_DELETION), a DESTROY run follows; a repeated DELETE is 202; DESTROY SUCCEEDED → 404', async () => {
      const w = await world();
      const block = await settledBlock(ctx.client, plainV2(w, { displayName: unique('Delete me') }));
      const uuid = block.metadata.uuid as string;
      const before = Date.now();
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      const marked = await readBlock(ctx.client, uuid);
      assert.match(marked.metadata.markedForDeletionOn ?? '', ISO);
      assert.ok(Date.parse(marked.metadata.markedForDeletionOn) >= before - 60_000, 'markedForDeletionOn is now');
      assert.equal(typeof marked.metadata.markedForDeletionBy, 'string');
      assert.ok(marked.metadata.markedForDeletionBy.length > 0, 'markedForDeletionBy names the caller');
      assert.equal(marked.status.lifecycle?.state, 'MARKED_FOR_DELETION');
      assert.equal(marked.status.status, 'PENDING', 'a DESTROY run waits');
      const markedV1 = await readBlock(ctx.client, uuid, 'v1');
      assert.equal(markedV1.metadata.markedForDeletionOn, marked.metadata.markedForDeletionOn);
      assert.equal(markedV1.metadata.markedForDeletionBy, marked.metadata.markedForDeletionBy);
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'a repeated DELETE');

      const destroy = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(destroy.spec.behavior, 'DESTROY');
      assert.equal(await statusOf(ctx.client, uuid), 'IN_PROGRESS');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE during the destroy run');
      assert.equal(await tryClaimRun(ctx.client, RUNNER, uuid), undefined, 'a repeated DELETE queues no second DESTROY');
      await finishRun(ctx.client, destroy, 'SUCCEEDED');
      await assertGone(ctx.client, uuid, 'after DESTROY SUCCEEDED');
      assert.ok(!(await blockUuids(ctx.client, `tenantUuid=${w.tenant.uuid}`)).includes(uuid), 'gone from lists');
      assert.ok(!(await blockUuids(ctx.client, `workspaceIdentifier=${w.workspace}`, 'v1')).includes(uuid), 'gone from v1 lists');
    });

    it('mode DELETE: DESTROY FAILED → the block stays, FAILED, forcePurge false; a purge then removes it', async () => {
      const w = await world();
      const block = await settledBlock(ctx.client, plainV2(w));
      const uuid = block.metadata.uuid as string;
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      const destroy = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(destroy.spec.behavior, 'DESTROY');
      await finishRun(ctx.client, destroy, 'FAILED');
      const failed = await readBlock(ctx.client, uuid);
      assert.equal(failed.status.status, 'FAILED');
      assert.strictEqual(failed.status.forcePurge, false);
      assert.match(failed.metadata.markedForDeletionOn ?? '', ISO);
      assert.equal(failed.status.lifecycle?.state, 'MARKED_FOR_DELETION');
      assert.strictEqual((await readBlock(ctx.client, uuid, 'v1')).metadata.forcePurge, false);
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}/purge`), 'purge');
      await assertGone(ctx.client, uuid, 'after purge');
    });

    it('mode PURGE: DELETE removes the block at once, without a run', async () => {
      const w = await world();
      const block = await settledBlock(ctx.client, { versionUuid: w.defs.purge.versionUuid, target: tenantTarget(w.tenant) });
      const uuid = block.metadata.uuid as string;
      assert.equal(await statusOf(ctx.client, uuid), 'SUCCEEDED');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      await assertGone(ctx.client, uuid, 'a PURGE-mode block right after DELETE');
      assert.ok(!(await blockUuids(ctx.client, `tenantUuid=${w.tenant.uuid}`)).includes(uuid));
      assert.equal(await tryClaimRun(ctx.client, RUNNER, uuid), undefined, 'no DESTROY run');
    });

    it('removes a block that never had a run at once (mode DELETE)', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, { versionUuid: w.defs.user.versionUuid, target: tenantTarget(w.tenant) });
      assert.equal(await statusOf(ctx.client, block.metadata.uuid), 'WAITING_FOR_USER_INPUT');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${block.metadata.uuid}`), 'DELETE');
      await assertGone(ctx.client, block.metadata.uuid, 'a block without runs after DELETE');
    });

    it('aborts a pending (unclaimed) APPLY run and queues the DESTROY run', async () => {
      const w = await world();
      const block = await settledBlock(ctx.client, plainV2(w, { inputs: [input('name', 'first', 'STRING')] }));
      const uuid = block.metadata.uuid as string;
      const changed = await putBlock(
        ctx.client,
        uuid,
        v2Body({ ...plainV2(w), displayName: block.spec.displayName, inputs: [input('name', 'second', 'STRING')] }),
      );
      assert.equal(changed.status, 200, changed.text);
      assert.equal(await statusOf(ctx.client, uuid), 'PENDING', 'a second APPLY run waits');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      assert.equal((await readBlock(ctx.client, uuid)).status.lifecycle?.state, 'MARKED_FOR_DELETION');
      const next = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(next.spec.behavior, 'DESTROY', 'the pending APPLY run was aborted; the DESTROY comes next');
      await finishRun(ctx.client, next, 'SUCCEEDED');
      await assertGone(ctx.client, uuid, 'after DESTROY SUCCEEDED');
    });

    it('a block whose first APPLY run was never claimed: DELETE removes it at once or queues a DESTROY in place of the APPLY', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, plainV2(w));
      const uuid = block.metadata.uuid as string;
      assert.equal(await statusOf(ctx.client, uuid), 'PENDING');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE');
      const after = await getBlock(ctx.client, uuid);
      if (after.status === 404) return;
      assert.equal(after.status, 200, after.text);
      assert.equal(after.json.status.lifecycle?.state, 'MARKED_FOR_DELETION');
      const next = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(next.spec.behavior, 'DESTROY', 'the unclaimed APPLY never runs');
    });

    it('accepts DELETE during an IN_PROGRESS APPLY run and starts the DESTROY run when that run ends', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, plainV2(w));
      const uuid = block.metadata.uuid as string;
      const apply = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(apply.spec.behavior, 'APPLY');
      assert.equal(await statusOf(ctx.client, uuid), 'IN_PROGRESS');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`), 'DELETE during a run');
      const marked = await readBlock(ctx.client, uuid);
      assert.match(marked.metadata.markedForDeletionOn ?? '', ISO);
      assert.equal(marked.status.lifecycle?.state, 'MARKED_FOR_DELETION');
      assert.equal(await tryClaimRun(ctx.client, RUNNER, uuid), undefined, 'no DESTROY run while the APPLY run is in progress');
      assert.deepEqual(await finishRun(ctx.client, apply, 'SUCCEEDED'), { runAborted: false }, 'the running APPLY is not aborted');
      assert.equal(await statusOf(ctx.client, uuid), 'PENDING', 'the DESTROY run is queued once the APPLY ends');
      const destroy = await claimRun(ctx.client, RUNNER, uuid);
      assert.equal(destroy.spec.behavior, 'DESTROY');
      await finishRun(ctx.client, destroy, 'SUCCEEDED');
      await assertGone(ctx.client, uuid, 'after the DESTROY');
    });

    it('answers 409 naming the children for DELETE and purge of a parent; 202 once the child is gone', async () => {
      const w = await world();
      const parent = await createBlockV2(ctx.client, { versionUuid: w.defs.dependency.versionUuid, target: tenantTarget(w.tenant) });
      const childName = unique('Child');
      const child = await createBlockV2(ctx.client, {
        versionUuid: w.defs.dependent.versionUuid,
        target: tenantTarget(w.tenant),
        displayName: childName,
        parents: [{ buildingBlockUuid: parent.metadata.uuid, definitionUuid: w.defs.dependency.uuid }],
      });
      const names = new RegExp(`${child.metadata.uuid}|${childName}`);
      assertError(await ctx.client.delete(`${BLOCKS}/${parent.metadata.uuid}`), 409, names);
      assertError(await ctx.client.delete(`${BLOCKS}/${parent.metadata.uuid}/purge`), 409, names);
      const still = await readBlock(ctx.client, parent.metadata.uuid);
      assert.equal(still.metadata.markedForDeletionOn ?? null, null, 'a refused DELETE does not mark the block');
      assert.equal(still.status.lifecycle?.state, 'ACTIVE');

      assertAccepted(await ctx.client.delete(`${BLOCKS}/${child.metadata.uuid}`), 'DELETE of the child');
      await assertGone(ctx.client, child.metadata.uuid, 'the waiting child never had a run');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${parent.metadata.uuid}`), 'DELETE of the parent once alone');
    });

    it('counts the blocks of a definition in its status.usageCount and in the managedByDefinitionUuid list total', async () => {
      const w = await world();
      const usage = async () =>
        (
          await ctx.client.get(`/api/meshobjects/meshbuildingblockdefinitions/${w.defs.purge.uuid}`, {
            headers: { accept: media('meshbuildingblockdefinition', 'v1-preview') },
          })
        ).json.status.usageCount as number;
      const total = async () =>
        (await ctx.client.get(`${BLOCKS}?managedByDefinitionUuid=${w.defs.purge.uuid}`, { headers: { accept: BLOCK_V2 } })).json.page
          .totalElements as number;
      const before = await usage();
      assert.equal(await total(), before);
      const block = await createBlockV2(ctx.client, { versionUuid: w.defs.purge.versionUuid, target: tenantTarget(w.tenant) });
      assert.equal(await usage(), before + 1);
      assert.equal(await total(), before + 1);
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${block.metadata.uuid}`), 'purge-mode delete');
      assert.equal(await usage(), before);
      assert.equal(await total(), before);
    });

    it('purge: admin (API user) → 202 and 404; a consumer key with BUILDINGBLOCK_DELETE → 403; an ADM_BUILDINGBLOCK_DELETE key → 202 (COMPAT 21)', async () => {
      const w = await world();
      const a = await createBlockV2(ctx.client, plainV2(w));
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${a.metadata.uuid}/purge`), 'admin purge');
      await assertGone(ctx.client, a.metadata.uuid, 'after purge');
      assert.ok(!(await blockUuids(ctx.client, `tenantUuid=${w.tenant.uuid}`)).includes(a.metadata.uuid));

      const key = await consumer();
      const b = await createBlockV2(key, plainV2(w));
      assertError(await key.delete(`${BLOCKS}/${b.metadata.uuid}/purge`), 403);
      const kept = await readBlock(ctx.client, b.metadata.uuid);
      assert.strictEqual(kept.status.forcePurge, false);
      assert.equal(kept.metadata.markedForDeletionOn ?? null, null);
      const purger = (await clientWithKey(ctx.client, 'admin', [ADM_LIST, ADM_DELETE])).client;
      assertAccepted(await purger.delete(`${BLOCKS}/${b.metadata.uuid}/purge`), 'ADM_BUILDINGBLOCK_DELETE purge');
      await assertGone(ctx.client, b.metadata.uuid, 'after the key purge');
    });

    it('purge during a run: removes the block at once; the runner learns runAborted: true', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, plainV2(w));
      const run = await claimRun(ctx.client, RUNNER, block.metadata.uuid);
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${block.metadata.uuid}/purge`), 'purge');
      await assertGone(ctx.client, block.metadata.uuid, 'after purge');
      const report = await reportRun(ctx.client, run, 'SUCCEEDED', { anything: 'x' });
      assert.equal(report.status, 200, report.text);
      assert.deepEqual(report.json, { runAborted: true });
      await assertGone(ctx.client, block.metadata.uuid, 'a late SUCCEEDED does not bring it back');
    });

    it('COMPAT 21: DELETE → 202 → MARKED_FOR_DELETION → 404 (v1-created block, v1 view)', async () => {
      const w = await world();
      const block = await createBlockV1(ctx.client, { definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.tenant.identifier });
      const uuid = block.metadata.uuid as string;
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');
      assertAccepted(await ctx.client.delete(`${BLOCKS}/${uuid}`, { headers: { accept: BLOCK_V1 } }), 'DELETE');
      const marked = await getBlock(ctx.client, uuid, 'v1');
      assert.equal(marked.status, 200);
      assert.match(marked.json.metadata.markedForDeletionOn ?? '', ISO);
      assert.equal((await readBlock(ctx.client, uuid)).status.lifecycle?.state, 'MARKED_FOR_DELETION');
      await finishRun(ctx.client, await claimRun(ctx.client, RUNNER, uuid), 'SUCCEEDED');
      await assertGone(ctx.client, uuid, 'after the destroy');
    });

    it('shows the forcePurge link to admins only', async () => {
      const w = await world();
      const block = await createBlockV2(ctx.client, plainV2(w));
      const uuid = block.metadata.uuid as string;
      for (const representation of REPRESENTATIONS) {
        assert.equal(
          linkPath((await readBlock(ctx.client, uuid, representation))._links.forcePurge?.href ?? ''),
          `${BLOCKS}/${uuid}/purge`,
          `API user, ${representation}`,
        );
      }
      const key = await consumer();
      for (const representation of REPRESENTATIONS) {
        const read = await readBlock(key, uuid, representation);
        assert.equal(read._links.forcePurge, undefined, `workspace-scoped ${representation}: ${JSON.stringify(read._links)}`);
        assert.ok(read._links.self, 'self is still there');
      }
      const listed = await key.get(`${BLOCKS}?tenantUuid=${w.tenant.uuid}&size=350`, { headers: { accept: BLOCK_V2 } });
      assert.equal(listed.status, 200, listed.text);
      const consumerList: Json[] = listed.json._embedded.meshBuildingBlocks;
      assert.ok(consumerList.length > 0, `the consumer lists the tenant's blocks: ${listed.text.slice(0, 300)}`);
      assert.ok(
        consumerList.every((b) => b._links?.forcePurge === undefined),
        'no forcePurge in a consumer list',
      );
      const purger = (await clientWithKey(ctx.client, 'admin', [ADM_LIST, ADM_DELETE])).client;
      assert.ok((await readBlock(purger, uuid))._links.forcePurge, 'ADM_BUILDINGBLOCK_DELETE sees it');
      const reader = (await clientWithKey(ctx.client, 'admin', [ADM_LIST])).client;
      assert.equal((await readBlock(reader, uuid))._links.forcePurge, undefined, 'ADM_BUILDINGBLOCK_LIST alone does not');
    });
  });

  describe('lists', () => {
    /** A fresh world with blocks of known status, so list results are exact. */
    async function listWorld() {
      const w = await blockWorld(ctx.client);
      const tag = unique('lst');
      const t1 = w.tenant;
      const t2 = await addTenant(ctx.client, w.workspace, w.platformUuid);
      const location2 = unique('bb-loc2');
      const platform2 = unique('bb-plf2');
      await createLocation(ctx.client, location2);
      const platform2Uuid = await createPlatform(ctx.client, w.provider, platform2, location2);
      const t3 = await addTenant(ctx.client, w.workspace, platform2Uuid, w.project);
      const plain = w.defs.plain.versionUuid;
      // settled first, so draining the runner never touches the others
      const s1 = (await settledBlock(ctx.client, { versionUuid: plain, target: tenantTarget(t1), displayName: `${tag}-alpha` })).metadata
        .uuid as string;
      const uuid = async (o: Parameters<typeof createBlockV2>[1]) => (await createBlockV2(ctx.client, o)).metadata.uuid as string;
      const p1 = await uuid({ versionUuid: plain, target: tenantTarget(t1), displayName: `${tag}-beta` });
      const p2 = await uuid({ versionUuid: w.defs.purge.versionUuid, target: tenantTarget(t1), displayName: `${tag}-gamma` });
      const b2 = await uuid({ versionUuid: plain, target: tenantTarget(t2), displayName: `${tag}-delta` });
      const b3 = await uuid({ versionUuid: plain, target: tenantTarget(t3), displayName: `${tag}-eps` });
      const wl = await uuid({
        versionUuid: w.defs.workspaceLevel.versionUuid,
        target: workspaceTarget(w.workspace),
        displayName: `${tag}-zeta`,
      });
      const op = await uuid({ versionUuid: w.defs.operator.versionUuid, target: tenantTarget(t1), displayName: `${tag}-eta` });
      const v2b = await uuid({ versionUuid: w.defs.versioned.versions[2], target: tenantTarget(t1), displayName: `${tag}-theta` });
      const o1 = await uuid({ versionUuid: plain, target: tenantTarget(w.other.tenant), displayName: `${tag}-alpha` });
      assert.equal(await statusOf(ctx.client, s1), 'SUCCEEDED');
      assert.equal(await statusOf(ctx.client, op), 'WAITING_FOR_OPERATOR_INPUT');
      return { w, tag, t1, t2, t3, platform2: `${platform2}.${location2}`, s1, p1, p2, b2, b3, wl, op, v2b, o1 };
    }

    const same = (got: string[], want: string[], what: string) => assert.deepEqual([...got].sort(), [...want].sort(), what);

    it('v2-preview: each filter alone and combined (AND), with paging', async () => {
      const { w, tag, t1, t2, t3, platform2, s1, p1, p2, b2, b3, wl, op, v2b, o1 } = await listWorld();
      const inWorkspace = [s1, p1, p2, b2, b3, wl, op, v2b];
      const exact: [string, string[]][] = [
        [`workspaceIdentifier=${w.workspace}`, inWorkspace],
        [`workspaceIdentifier=${w.other.workspace}`, [o1]],
        [`projectIdentifier=${w.project}`, [s1, p1, p2, b3, op, v2b]],
        [`projectIdentifier=${t2.project}`, [b2]],
        [`platformIdentifier=${w.platformIdentifier}`, [s1, p1, p2, b2, op, v2b, o1]],
        [`platformIdentifier=${platform2}`, [b3]],
        [`name=${tag}-beta`, [p1]],
        [`name=${tag}-alpha`, [s1, o1]],
        [`definitionUuid=${w.defs.plain.uuid}`, [s1, p1, b2, b3, o1]],
        [`definitionUuid=${w.defs.versioned.uuid}`, [v2b]],
        [`versionUuid=${w.defs.plain.versionUuid}`, [s1, p1, b2, b3, o1]],
        [`versionUuid=${w.defs.versioned.versions[2]}`, [v2b]],
        [`versionUuid=${w.defs.versioned.versions[1]}`, []],
        [`tenantUuid=${t1.uuid}`, [s1, p1, p2, op, v2b]],
        [`tenantUuid=${t3.uuid}`, [b3]],
        [`managedByWorkspaceIdentifier=${w.provider}`, [...inWorkspace, o1]],
        [`managedByDefinitionUuid=${w.defs.plain.uuid}`, [s1, p1, b2, b3, o1]],
        [`managedByDefinitionUuid=${w.defs.operator.uuid}`, [op]],
        // combined
        [`workspaceIdentifier=${w.workspace}&definitionUuid=${w.defs.plain.uuid}`, [s1, p1, b2, b3]],
        [`workspaceIdentifier=${w.workspace}&status=PENDING`, [p1, p2, b2, b3, wl, v2b]],
        [`workspaceIdentifier=${w.workspace}&targetRefKind=meshTenant`, [s1, p1, p2, b2, b3, op, v2b]],
        [`workspaceIdentifier=${w.workspace}&targetRefKind=meshWorkspace`, [wl]],
        [`projectIdentifier=${w.project}&platformIdentifier=${w.platformIdentifier}`, [s1, p1, p2, op, v2b]],
        [`tenantUuid=${t1.uuid}&definitionUuid=${w.defs.plain.uuid}&status=SUCCEEDED`, [s1]],
        [`tenantUuid=${t1.uuid}&status=WAITING_FOR_OPERATOR_INPUT`, [op]],
        [`name=${tag}-alpha&workspaceIdentifier=${w.workspace}`, [s1]],
        [`name=${tag}-beta&workspaceIdentifier=${w.other.workspace}`, []],
        [`managedByWorkspaceIdentifier=${w.provider}&workspaceIdentifier=${w.other.workspace}`, [o1]],
        [`managedByDefinitionUuid=${w.defs.plain.uuid}&status=SUCCEEDED`, [s1]],
        [`managedByWorkspaceIdentifier=${w.provider}&targetRefKind=meshWorkspace`, [wl]],
        [`versionUuid=${w.defs.plain.versionUuid}&projectIdentifier=${w.project}&platformIdentifier=${platform2}`, [b3]],
      ];
      const failures: string[] = [];
      for (const [query, want] of exact) {
        const got = await blockUuids(ctx.client, query);
        if (JSON.stringify([...got].sort()) !== JSON.stringify([...want].sort()))
          failures.push(`${query}: got ${got.length} ${JSON.stringify(got)}, want ${want.length} ${JSON.stringify(want)}`);
      }
      assert.deepEqual(failures, [], failures.join('\n'));

      // filters whose results reach beyond this world: membership and the property of every item
      for (const [query, includes, excludes, check] of [
        ['status=SUCCEEDED', [s1], [p1, op], (b: Json) => b.status.status === 'SUCCEEDED'],
        ['status=WAITING_FOR_OPERATOR_INPUT', [op], [s1, p1], (b: Json) => b.status.status === 'WAITING_FOR_OPERATOR_INPUT'],
        ['targetRefKind=meshWorkspace', [wl], [s1, o1], (b: Json) => b.spec.targetRef.kind === 'meshWorkspace'],
        ['targetRefKind=meshTenant', [s1, o1], [wl], (b: Json) => b.spec.targetRef.kind === 'meshTenant'],
      ] as [string, string[], string[], (b: Json) => boolean][]) {
        const response = await ctx.client.get(`${BLOCKS}?size=350&${query}`, { headers: { accept: BLOCK_V2 } });
        assert.equal(response.status, 200, `${query}: ${response.text}`);
        const items: Json[] = response.json._embedded.meshBuildingBlocks;
        const uuids = items.map((b) => b.metadata.uuid);
        for (const u of includes) assert.ok(uuids.includes(u), `${query} includes ${u}`);
        for (const u of excludes) assert.ok(!uuids.includes(u), `${query} excludes ${u}`);
        assert.ok(items.length > 0, `${query}: some items`);
        assert.ok(items.every(check), `${query}: every item matches`);
      }

      // paging
      const pages: string[][] = [];
      for (let page = 0; page < 3; page++) {
        const response = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.workspace}&size=3&page=${page}`, {
          headers: { accept: BLOCK_V2 },
        });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.json.page, { size: 3, totalElements: 8, totalPages: 3, number: page }, `page ${page}`);
        assert.ok(response.json._links.self, 'self');
        assert.ok(response.json._links.first && response.json._links.last, 'first and last on a multi-page list');
        assert.equal(Boolean(response.json._links.next), page < 2, `next on page ${page}`);
        assert.equal(Boolean(response.json._links.prev), page > 0, `prev on page ${page}`);
        pages.push(response.json._embedded.meshBuildingBlocks.map((b: Json) => b.metadata.uuid));
      }
      assert.deepEqual(
        pages.map((p) => p.length),
        [3, 3, 2],
      );
      same(pages.flat(), inWorkspace, 'the pages together hold every block once');
      const combinedPage = await ctx.client.get(
        `${BLOCKS}?workspaceIdentifier=${w.workspace}&definitionUuid=${w.defs.plain.uuid}&size=3&page=1`,
        { headers: { accept: BLOCK_V2 } },
      );
      assert.deepEqual(combinedPage.json.page, { size: 3, totalElements: 4, totalPages: 2, number: 1 });
      assert.equal(combinedPage.json._embedded.meshBuildingBlocks.length, 1);
      const past = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.workspace}&page=5`, { headers: { accept: BLOCK_V2 } });
      assert.equal(past.json.page.number, 5);
      assert.deepEqual(past.json._embedded.meshBuildingBlocks, []);
      const capped = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.workspace}&size=1000`, { headers: { accept: BLOCK_V2 } });
      assert.equal(capped.json.page.size, 350);
      const empty = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${unique('nobody')}`, { headers: { accept: BLOCK_V2 } });
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.json._embedded.meshBuildingBlocks, []);
      assert.equal(empty.json.page.totalElements, 0);
      // list items are full v2-preview blocks
      const item = (await ctx.client.get(`${BLOCKS}?tenantUuid=${t3.uuid}`, { headers: { accept: BLOCK_V2 } })).json._embedded
        .meshBuildingBlocks[0];
      assert.equal(item.metadata.ownedByWorkspace, w.workspace);
      assert.deepEqual(item.spec.targetRef, { kind: 'meshTenant', uuid: t3.uuid });
      assert.equal(item.status.status, 'PENDING');
      assert.equal(linkPath(item._links.self.href), `${BLOCKS}/${b3}`);
    });

    it('v1: each filter alone and combined (AND), with paging; tenant blocks only', async () => {
      const { w, tag, t2, platform2, s1, p1, p2, b2, b3, op, v2b, o1 } = await listWorld();
      const tenantBlocks = [s1, p1, p2, b2, b3, op, v2b];
      const exact: [string, string[]][] = [
        [`workspaceIdentifier=${w.workspace}`, tenantBlocks],
        [`workspaceIdentifier=${w.other.workspace}`, [o1]],
        [`projectIdentifier=${t2.project}`, [b2]],
        [`projectIdentifier=${w.project}`, [s1, p1, p2, b3, op, v2b]],
        [`platformIdentifier=${platform2}`, [b3]],
        [`platformIdentifier=${w.platformIdentifier}`, [s1, p1, p2, b2, op, v2b, o1]],
        [`name=${tag}-beta`, [p1]],
        [`definitionName=${encodeURIComponent(w.defs.plain.displayName)}`, [s1, p1, b2, b3, o1]],
        [`definitionUuid=${w.defs.plain.uuid}`, [s1, p1, b2, b3, o1]],
        [`definitionUuid=${w.defs.versioned.uuid}&versionNumber=2`, [v2b]],
        [`definitionUuid=${w.defs.versioned.uuid}&versionNumber=v2`, [v2b]],
        [`definitionUuid=${w.defs.versioned.uuid}&versionNumber=1`, []],
        [`workspaceIdentifier=${w.workspace}&versionNumber=2`, [v2b]],
        [`workspaceIdentifier=${w.workspace}&status=SUCCEEDED`, [s1]],
        [`workspaceIdentifier=${w.workspace}&status=WAITING_FOR_OPERATOR_INPUT`, [op]],
        [`workspaceIdentifier=${w.workspace}&status=PENDING`, [p1, p2, b2, b3, v2b]],
        [`definitionName=${encodeURIComponent(w.defs.plain.displayName)}&workspaceIdentifier=${w.other.workspace}`, [o1]],
        [`name=${tag}-alpha&projectIdentifier=${w.project}`, [s1]],
        [`definitionUuid=${w.defs.plain.uuid}&platformIdentifier=${w.platformIdentifier}&projectIdentifier=${w.project}`, [s1, p1]],
      ];
      const failures: string[] = [];
      for (const [query, want] of exact) {
        const got = await blockUuids(ctx.client, query, 'v1');
        if (JSON.stringify([...got].sort()) !== JSON.stringify([...want].sort()))
          failures.push(`${query}: got ${got.length} ${JSON.stringify(got)}, want ${want.length} ${JSON.stringify(want)}`);
      }
      assert.deepEqual(failures, [], failures.join('\n'));

      const success = await ctx.client.get(`${BLOCKS}?status=SUCCEEDED&size=350`, { headers: { accept: BLOCK_V1 } });
      const succeeded: Json[] = success.json._embedded.meshBuildingBlocks;
      assert.ok(succeeded.some((b) => b.metadata.uuid === s1));
      assert.ok(succeeded.every((b) => b.status.status === 'SUCCEEDED'));

      const pages: string[][] = [];
      for (let page = 0; page < 4; page++) {
        const response = await ctx.client.get(`${BLOCKS}?workspaceIdentifier=${w.workspace}&size=2&page=${page}`, {
          headers: { accept: BLOCK_V1 },
        });
        assert.equal(response.status, 200, response.text);
        assertDeprecated(response, `v1 list page ${page}`);
        assert.deepEqual(response.json.page, { size: 2, totalElements: 7, totalPages: 4, number: page }, `page ${page}`);
        assert.equal(Boolean(response.json._links.next), page < 3);
        assert.equal(Boolean(response.json._links.prev), page > 0);
        pages.push(response.json._embedded.meshBuildingBlocks.map((b: Json) => b.metadata.uuid));
      }
      same(pages.flat(), tenantBlocks, 'the v1 pages hold every tenant block once');
      const item = (await ctx.client.get(`${BLOCKS}?name=${tag}-beta`, { headers: { accept: BLOCK_V1 } })).json._embedded
        .meshBuildingBlocks[0];
      assert.equal(item.metadata.tenantIdentifier, w.tenant.identifier);
      assert.equal(item.metadata.definitionUuid, w.defs.plain.uuid);
      assert.strictEqual(item.metadata.definitionVersion, 1);
    });

    it('answers 400 naming the parameter for invalid filter values', async () => {
      const cases: [Representation, string, string][] = [
        ['v2', 'status', 'BOGUS'],
        ['v2', 'targetRefKind', 'meshThing'],
        ['v2', 'definitionUuid', 'not-a-uuid'],
        ['v2', 'versionUuid', 'not-a-uuid'],
        ['v2', 'tenantUuid', 'not-a-uuid'],
        ['v2', 'managedByDefinitionUuid', 'not-a-uuid'],
        ['v1', 'status', 'BOGUS'],
        ['v1', 'definitionUuid', 'not-a-uuid'],
        ['v1', 'versionNumber', 'abc'],
        ['v1', 'versionNumber', 'v'],
      ];
      const failures: string[] = [];
      for (const [representation, parameter, value] of cases) {
        const response = await ctx.client.get(`${BLOCKS}?${parameter}=${value}`, {
          headers: { accept: representation === 'v1' ? BLOCK_V1 : BLOCK_V2 },
        });
        if (response.status !== 400)
          failures.push(`${representation} ${parameter}=${value}: ${response.status} ${response.text.slice(0, 200)}`);
        else if (!String(response.json.message).includes(parameter))
          failures.push(`${representation} ${parameter}=${value}: the message does not name it: ${response.json.message}`);
      }
      assert.deepEqual(failures, [], failures.join('\n'));
    });

    it("managedBy filters: blocks of the workspace's definitions in any workspace with MANAGED_BUILDINGBLOCK_LIST of that workspace; 403 without it", async () => {
      const w = await blockWorld(ctx.client);
      const mine = (await createBlockV2(ctx.client, { versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.tenant) })).metadata
        .uuid as string;
      const theirs = (await createBlockV2(ctx.client, { versionUuid: w.defs.operator.versionUuid, target: tenantTarget(w.other.tenant) }))
        .metadata.uuid as string;
      const byWorkspace = `managedByWorkspaceIdentifier=${w.provider}`;
      const byDefinition = `managedByDefinitionUuid=${w.defs.plain.uuid}`;

      const manager = (await clientWithKey(ctx.client, w.provider, [LIST, MANAGED_LIST])).client;
      same(await blockUuids(manager, byWorkspace), [mine, theirs], 'the managing workspace sees blocks in other workspaces');
      same(await blockUuids(manager, byDefinition), [mine], 'by definition');
      same(
        await blockUuids(manager, `${byWorkspace}&workspaceIdentifier=${w.other.workspace}`),
        [theirs],
        'combined with workspaceIdentifier',
      );

      const lister = (await clientWithKey(ctx.client, w.provider, [LIST])).client;
      for (const query of [byWorkspace, byDefinition]) {
        assertError(await lister.get(`${BLOCKS}?${query}`, { headers: { accept: BLOCK_V2 } }), 403);
      }
      const foreignManager = (await clientWithKey(ctx.client, w.workspace, [LIST, MANAGED_LIST])).client;
      for (const query of [byWorkspace, byDefinition]) {
        assertError(await foreignManager.get(`${BLOCKS}?${query}`, { headers: { accept: BLOCK_V2 } }), 403);
      }
      const admin = (await clientWithKey(ctx.client, 'admin', [ADM_LIST])).client;
      same(await blockUuids(admin, byWorkspace), [mine, theirs], 'ADM_BUILDINGBLOCK_LIST may use the filter');
      same(await blockUuids(ctx.client, byDefinition), [mine], 'the API user may use the filter');
    });

    it('managedBy filters need only MANAGED_BUILDINGBLOCK_LIST of the managing workspace', async () => {
      const w = await world();
      const block = (await createBlockV2(ctx.client, { versionUuid: w.defs.purge.versionUuid, target: tenantTarget(w.other.tenant) }))
        .metadata.uuid as string;
      const manager = (await clientWithKey(ctx.client, w.provider, [MANAGED_LIST])).client;
      assert.ok((await blockUuids(manager, `managedByWorkspaceIdentifier=${w.provider}`)).includes(block));
      same(
        await blockUuids(manager, `managedByDefinitionUuid=${w.defs.purge.uuid}&tenantUuid=${w.other.tenant.uuid}`),
        [block],
        'by definition',
      );
    });

    it("isolates workspaces: a key sees and writes only its own workspace's blocks", async () => {
      const w = await blockWorld(ctx.client);
      const own = (await createBlockV2(ctx.client, { versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.tenant) })).metadata
        .uuid as string;
      const foreign = (await createBlockV2(ctx.client, { versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.other.tenant) }))
        .metadata.uuid as string;
      const foreignWs = (
        await createBlockV2(ctx.client, { versionUuid: w.defs.workspaceLevel.versionUuid, target: workspaceTarget(w.other.workspace) })
      ).metadata.uuid as string;
      const key = (await clientWithKey(ctx.client, w.workspace, [LIST, SAVE, DELETE])).client;

      for (const representation of REPRESENTATIONS) {
        assert.equal((await getBlock(key, own, representation)).status, 200, `own block, ${representation}`);
        assert.equal((await getBlock(key, foreign, representation)).status, 404, `another workspace's block, ${representation}`);
      }
      assert.equal((await getBlock(key, foreignWs, 'v2')).status, 404);
      const visible = await blockUuids(key, '', 'v2');
      assert.ok(visible.includes(own), 'own block listed');
      assert.ok(!visible.includes(foreign) && !visible.includes(foreignWs), 'foreign blocks not listed');
      const visibleV1 = await blockUuids(key, '', 'v1');
      assert.ok(visibleV1.includes(own) && !visibleV1.includes(foreign));
      assert.ok(!(await blockUuids(key, `tenantUuid=${w.other.tenant.uuid}`)).includes(foreign), 'not even by filter');

      // Another workspace's tenant or workspace is invisible: a target that does not exist (422), never a 403 naming it.
      assertError(await postBlock(key, v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.other.tenant) })), 422);
      assertError(
        await postBlock(key, v1Body({ definitionUuid: w.defs.plain.uuid, tenantIdentifier: w.other.tenant.identifier }), 'v1'),
        422,
      );
      assertError(
        await postBlock(key, v2Body({ versionUuid: w.defs.workspaceLevel.versionUuid, target: workspaceTarget(w.other.workspace) })),
        422,
      );
      const deleted = await key.delete(`${BLOCKS}/${foreign}`);
      assert.ok(deleted.status === 403 || deleted.status === 404, `DELETE of another workspace's block: ${deleted.status} ${deleted.text}`);
      const put = await putBlock(
        key,
        foreign,
        v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.other.tenant), displayName: 'hijacked' }),
      );
      assert.ok(put.status === 403 || put.status === 404, `PUT of another workspace's block: ${put.status} ${put.text}`);
      assertError(await key.delete(`${BLOCKS}/${foreign}/purge`), 403);
      const untouched = await readBlock(ctx.client, foreign);
      assert.equal(untouched.metadata.markedForDeletionOn ?? null, null, 'still not marked');
      assert.notEqual(untouched.spec.displayName, 'hijacked');

      const created = await postBlock(key, v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.tenant) }));
      assert.equal(created.status, 201, `own workspace: ${created.text}`);
      const readOnly = (await clientWithKey(ctx.client, w.workspace, [LIST])).client;
      assertError(await postBlock(readOnly, v2Body({ versionUuid: w.defs.plain.versionUuid, target: tenantTarget(w.tenant) })), 403);
      assertError(await readOnly.delete(`${BLOCKS}/${own}`), 403);
      assertAccepted(await key.delete(`${BLOCKS}/${created.json.metadata.uuid}`), 'own DELETE');
    });
  });
});
