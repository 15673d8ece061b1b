import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { ApiClient } from '../../support/client.js';
import { io } from '../../support/structure.js';
import { blockWorld, claimRun, RUNNER, RUNS, RUN, tryClaimRun, type BlockWorld } from '../../support/blocks.js';
import {
  BlockV1,
  BlockV2,
  blocksV1,
  blocksV2,
  createSuccessful,
  deletionSuccessful,
  expectHash,
  getRunLogs,
  type BlockV2Value,
  type BlockInputValue,
} from './building-block-structs.js';
import { describeProvider, type ProviderClient } from './provider-client.js';
import { differences, expectImportEqual, expectNoDiff, expectSentComesBack, planned } from './terraform.js';

/**
 * The building block resources and data sources, replayed as the provider runs them:
 * - meshstack_building_block (internal/provider/building_block_resource.go, the v2-preview client):
 *   POST the spec (metadata and status zero: `{"uuid":null,"ownedByWorkspace":""}`, `null`), poll
 *   until CreateSuccessful (the poll of internal/util/poll: a read at once, then after 0.5, 1, 2, …
 *   10 s), PUT on update and poll when the backend runs again, DELETE (or …/purge) and poll until
 *   DeletionSuccessful (404 or lifecycle DELETED); a read drops the block on 404 or DELETED. The
 *   state keeps only the inputs the configuration declares (SetFromClientDto).
 * - meshstack_building_block_v2 (deprecated): the same client, inputs with their valueType, parents
 *   through the deprecated parentBuildingBlocks (whose definitionUuid the state keeps).
 * - meshstack_buildingblock (v1): POST, GET, DELETE; parent_building_blocks defaults to an empty set.
 * - the data sources meshstack_building_block, _v2, meshstack_buildingblock (reads by uuid) and
 *   meshstack_building_blocks (the v2-preview list with its filters); run logs
 *   (client/building_block_run.go) as the provider reads them after a failed run.
 * The runs are driven the way a runner would, through test/support (claim, report).
 */

type Json = Record<string, unknown>;

/** retry.RetryContext as the provider's poll uses it: a read at once, then waits from 0.5 s doubling to 10 s. */
async function pollUntil<T>(read: () => Promise<T>, done: (item: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 500; ; wait = Math.min(wait * 2, 10_000)) {
    const item = await read();
    if (done(item)) return item;
    if (Date.now() > deadline) throw new Error('timeout while waiting for state to become \'success\'');
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The provider's poll after a create (or a rerun), while a runner claims the block's run and reports it. */
async function awaitRun(provider: ProviderClient, admin: ApiClient, uuid: string, outcome: { status: 'SUCCEEDED' | 'FAILED'; outputs?: Record<string, string>; message?: string }): Promise<BlockV2Value> {
  const polling = pollUntil(() => blocksV2(provider).get(uuid), createSuccessful);
  polling.catch(() => undefined);
  const run = await claimRun(admin, RUNNER, uuid);
  await report(admin, run, outcome);
  // CreateSuccessful fails on a missing block, so a settled poll has one.
  return (await polling)!;
}

/** A runner's final status report: one step with its messages and STRING outputs. */
async function report(admin: ApiClient, run: Json, outcome: { status: string; outputs?: Record<string, string>; message?: string }): Promise<void> {
  const token = (run.spec as Json).runToken as string;
  const outputs = Object.fromEntries(Object.entries(outcome.outputs ?? {}).map(([name, value]) => [name, { value, type: 'STRING', isSensitive: false }]));
  const step = { id: 'apply', displayName: 'Terraform apply', status: outcome.status, outputs, ...(outcome.message ? { userMessage: outcome.message, systemMessage: `system: ${outcome.message}` } : {}) };
  const response = await admin.with({ authorization: `Bearer ${token}` }).patch(`${RUNS}/${(run.metadata as Json).uuid}/status/source/terraform-runner`, { status: outcome.status, steps: [step] }, { headers: io(RUN) });
  assert.equal(response.status, 200, response.text);
}

/** Drives the runs a deletion starts until the provider's poll sees DeletionSuccessful. */
async function awaitDeletion(provider: ProviderClient, admin: ApiClient, uuid: string): Promise<BlockV2Value | null> {
  const polling = pollUntil(() => blocksV2(provider).get(uuid), deletionSuccessful);
  polling.catch(() => undefined);
  const run = await claimRun(admin, RUNNER, uuid);
  await report(admin, run, { status: 'SUCCEEDED' });
  return polling;
}

/** The v3 resource's create body: only the spec, metadata and status zero. */
const v3Body = (spec: Json, metadata: Json = { uuid: null, ownedByWorkspace: '' }) => ({ metadata, spec, status: null });

/** MeshBuildingBlockV2Spec.MarshalJSON: the parents under both names. */
function spec(versionUuid: string, targetRef: Json, displayName: string, inputs: Json, parents: string[] = []): Json {
  return {
    buildingBlockDefinitionVersionRef: { uuid: versionUuid, kind: 'meshBuildingBlockDefinitionVersion' },
    targetRef,
    displayName,
    inputs,
    parentBuildingBlockRefs: parents.map((uuid) => ({ uuid, kind: 'meshBuildingBlock' })),
    parentBuildingBlocks: parents.map((uuid) => ({ buildingBlockUuid: uuid })),
  };
}

/** A configured input as the v3 resource sends it (value from jsondecode, valueType and assignmentType omitted). */
const value = (v: unknown) => ({ value: v, isSensitive: false });

/** buildingBlockModel.SetFromClientDto: the state keeps the declared user and operator inputs only. */
function v3State(answer: BlockV2Value, declared: Record<string, unknown>, isImport = false): BlockV2Value {
  const inputs: Record<string, BlockInputValue | null> = {};
  for (const [key, input] of Object.entries(answer.spec.inputs ?? {})) {
    if (!input) continue;
    const isNull = input.value.Y === null && !input.value.X.hash && !input.value.X.plaintext && !input.isSensitive;
    if (input.assignmentType === 'USER_INPUT') {
      if (key in declared || (isImport && !isNull)) inputs[key] = input;
    } else if (input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT' && key in declared) inputs[key] = input;
  }
  return { ...answer, spec: { ...answer.spec, inputs } };
}

const V3_RULES = {
  ignore: [
    'metadata',
    'status',
    'spec.buildingBlockDefinitionVersionRef.kind',
    'spec.parentBuildingBlocks',
    'spec.inputs.*.valueType',
    'spec.inputs.*.assignmentType',
    'spec.inputs.*.isSensitive',
    'spec.inputs.*.value.X',
  ],
  sets: ['spec.parentBuildingBlockRefs'],
};

describeProvider('building blocks', (ctx) => {
  let world: BlockWorld;
  before(async () => {
    world = await blockWorld(ctx.server.client);
  });
  const admin = () => ctx.server.client;

  it('meshstack_building_block on a tenant: create and await the run, read, plan again, update, rerun, import, destroy', async () => {
    const client = blocksV2(ctx.provider);
    const resource = 'meshstack_building_block';
    // Every user input of the definition is declared, so the import (which keeps every set user input) verifies.
    const inputs = {
      name: value('my-block'),
      size: value(32),
      flag: value(true),
      tier: value('m'),
      zones: value(['a', 'b']),
      items: value(['x', 'y']),
      file: value('data:text/plain;base64,aGVsbG8='),
      locked: value('l1'),
    };
    const sent = v3Body(spec(world.defs.plain.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'A tenant block', inputs));
    const created = await client.post(sent);
    assert.ok(created.metadata.uuid, 'the provider dereferences metadata.uuid');
    const uuid = created.metadata.uuid;
    expectSentComesBack(planned(BlockV2, sent), v3State(created, inputs), V3_RULES, resource);

    const settled = createSuccessful(created) ? created : await awaitRun(ctx.provider, admin(), uuid, { status: 'SUCCEEDED' });
    assert.equal(settled.status?.status, 'SUCCEEDED');
    assert.equal(settled.status?.lifecycle.state, 'ACTIVE', 'status.lifecycle.state');
    expectSentComesBack(planned(BlockV2, sent), v3State(settled, inputs), V3_RULES, resource);

    // Read and plan again.
    const read = await client.get(uuid);
    assert.ok(read && read.status?.lifecycle.state !== 'DELETED', 'a read keeps the block');
    expectNoDiff(v3State(settled, inputs), v3State(read, inputs), V3_RULES, resource);

    // Update the display name only: a PUT, no run awaited.
    const metadata = { uuid, ownedByWorkspace: settled.metadata.ownedByWorkspace };
    const renamed = v3Body(spec(world.defs.plain.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'A tenant block renamed', inputs), metadata);
    const afterRename = await client.put(uuid, renamed);
    expectSentComesBack(planned(BlockV2, renamed), v3State(afterRename, inputs), V3_RULES, resource);

    // Change an input: the backend runs again and the provider awaits it.
    const changedInputs = { ...inputs, size: value(64) };
    const changed = v3Body(spec(world.defs.plain.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'A tenant block renamed', changedInputs), metadata);
    const afterChange = await client.put(uuid, changed);
    expectSentComesBack(planned(BlockV2, changed), v3State(afterChange, changedInputs), V3_RULES, resource);
    const rerun = await awaitRun(ctx.provider, admin(), uuid, { status: 'SUCCEEDED' });
    expectSentComesBack(planned(BlockV2, changed), v3State(rerun, changedInputs), V3_RULES, resource);

    // Import by uuid: the imported state keeps every set user input, the applied one the declared.
    const imported = await client.get(uuid);
    const refreshed = await client.get(uuid);
    expectImportEqual(v3State(refreshed!, changedInputs), v3State(imported!, {}, true), [], resource);

    // The data sources read the same block.
    const fromDataSource = await client.get(uuid);
    assert.equal(fromDataSource?.metadata.uuid, uuid);
    const listed = await client.list({ workspaceIdentifier: world.workspace });
    assert.ok(listed.some((b) => b.metadata.uuid === uuid), 'meshstack_building_blocks lists it by workspaceIdentifier');
    assert.ok(listed.every((b) => b.metadata.ownedByWorkspace === world.workspace), 'the workspaceIdentifier filter holds');
    const byDefinition = await client.list({ definitionUuid: world.defs.plain.uuid, status: 'SUCCEEDED' });
    assert.ok(byDefinition.some((b) => b.metadata.uuid === uuid) && byDefinition.every((b) => b.status?.status === 'SUCCEEDED'), 'definitionUuid and status filters');

    // Destroy: DELETE, then the poll until DeletionSuccessful; a read then drops it.
    await client.delete(uuid);
    await awaitDeletion(ctx.provider, admin(), uuid);
    const gone = await client.get(uuid);
    assert.ok(gone === null || gone.status?.lifecycle.state === 'DELETED', `read after destroy: ${JSON.stringify(gone?.status)}`);
  });

  it('meshstack_building_block: outputs as a map, parents by reference, a workspace target by name', async () => {
    const client = blocksV2(ctx.provider);
    const parentSent = v3Body(spec(world.defs.dependency.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'The parent', {}));
    const parent = await client.post(parentSent);
    const parentSettled = await awaitRun(ctx.provider, admin(), parent.metadata.uuid!, { status: 'SUCCEEDED', outputs: { vpc_id: 'vpc-123' } });
    const output = parentSettled.status?.outputs?.vpc_id;
    assert.ok(output, `status.outputs.vpc_id: ${JSON.stringify(parentSettled.status?.outputs)}`);
    assert.equal(output.value, 'vpc-123');
    assert.equal(output.valueType, 'STRING');

    const childInputs = { label: value('child') };
    const childSent = v3Body(spec(world.defs.dependent.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'The child', childInputs, [parent.metadata.uuid!]));
    const child = await client.post(childSent);
    expectSentComesBack(planned(BlockV2, childSent), v3State(child, childInputs), V3_RULES, 'meshstack_building_block (parents)');
    assert.deepEqual(
      child.spec.parentBuildingBlocks?.map((p) => [p.uuid, p.definitionUuid]),
      [[parent.metadata.uuid, world.defs.dependency.uuid]],
      'the deprecated parentBuildingBlocks carries the parent definition (meshstack_building_block_v2 keeps it in state)',
    );

    const workspaceInputs = { note: value('hello') };
    const workspaceSent = v3Body(spec(world.defs.workspaceLevel.versionUuid, { kind: 'meshWorkspace', uuid: null, name: world.workspace }, 'A workspace block', workspaceInputs));
    const workspaceBlock = await client.post(workspaceSent);
    expectSentComesBack(planned(BlockV2, workspaceSent), v3State(workspaceBlock, workspaceInputs), V3_RULES, 'meshstack_building_block (workspace)');
    const read = await client.get(workspaceBlock.metadata.uuid!);
    expectSentComesBack(planned(BlockV2, workspaceSent), v3State(read!, workspaceInputs), V3_RULES, 'meshstack_building_block (workspace, refresh)');
  });

  it('meshstack_building_block: a sensitive input is sent as {plaintext} and answered as {hash}; purge_on_delete purges', async () => {
    const client = blocksV2(ctx.provider);
    const plaintext = `sensitive-${Date.now()}-input-value`;
    const inputs = { secret: { value: { plaintext }, isSensitive: true } };
    const sent = v3Body(spec(world.defs.sensitive.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'A sensitive block', inputs));
    // wait_for_completion = false: no poll (nothing runs GitHub workflows here).
    const created = await client.post(sent);
    const input = created.spec.inputs?.secret;
    assert.ok(input, 'spec.inputs.secret');
    assert.equal(input.isSensitive, true);
    const hash = expectHash(input.value.X, 'spec.inputs.secret.value');
    const read = await client.get(created.metadata.uuid!);
    assert.equal(read?.spec.inputs?.secret?.value.X.hash, hash, 'a read answers the same hash');
    expectSentComesBack(planned(BlockV2, sent), v3State(read!, inputs), V3_RULES, 'meshstack_building_block (sensitive)');

    await client.delete(created.metadata.uuid!, { pathElems: ['purge'] });
    const final = await pollUntil(() => client.get(created.metadata.uuid!), deletionSuccessful);
    assert.ok(final === null || final.status?.lifecycle.state === 'DELETED');
  });

  it('a failed run: CreateSuccessful fails and the provider reads the run logs of status.latestRunUuid', async () => {
    const client = blocksV2(ctx.provider);
    const created = await client.post(v3Body(spec(world.defs.plain.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'A failing block', { name: value('fails') })));
    await assert.rejects(awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'FAILED', message: 'terraform apply failed' }), /reached FAILED state, check run logs in meshStack/);
    const failed = await client.get(created.metadata.uuid!);
    assert.ok(failed?.status?.latestRunUuid, 'status.latestRunUuid');
    const logs = await getRunLogs(ctx.provider, failed.status.latestRunUuid);
    const step = logs.steps?.find((s) => s.status === 'FAILED');
    assert.ok(step, `a FAILED step in the logs: ${JSON.stringify(logs)}`);
    assert.equal(step.displayName, 'Terraform apply');
    assert.equal(step.userMessage, 'terraform apply failed');
  });

  it('meshstack_building_block_v2 (deprecated): inputs with their valueType, read, destroy with purge', async () => {
    const client = blocksV2(ctx.provider);
    const inputs = { note: { value: 'from v2', valueType: 'STRING', isSensitive: false } };
    const sent = v3Body(spec(world.defs.workspaceLevel.versionUuid, { kind: 'meshWorkspace', uuid: null, name: world.workspace }, 'A v2 block', inputs));
    const created = await client.post(sent);
    assert.equal(created.spec.displayName, 'A v2 block');
    assert.equal(created.spec.inputs?.note?.value.Y, 'from v2');
    assert.equal(created.spec.inputs?.note?.valueType, 'STRING');
    assert.deepEqual(differences(created.spec.targetRef, { kind: 'meshWorkspace', uuid: null, name: world.workspace }, {}), [], 'targetRef with only the name sent');
    const read = await client.get(created.metadata.uuid!);
    assert.equal(read?.spec.inputs?.note?.value.Y, 'from v2');
    await client.delete(created.metadata.uuid!, { pathElems: ['purge'] });
    await pollUntil(() => client.get(created.metadata.uuid!), deletionSuccessful);
  });

  it('meshstack_building_block: a version upgrade is a PUT with the new version, awaited as a rerun', async () => {
    const client = blocksV2(ctx.provider);
    const target = { kind: 'meshTenant', uuid: world.tenant.uuid, name: null };
    const inputs = { name: value('upgraded') };
    const created = await client.post(v3Body(spec(world.defs.versioned.versions[1], target, 'To upgrade', inputs)));
    const settled = await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    // The provider refuses to upgrade unless the block is SUCCEEDED, FAILED or ABORTED.
    assert.equal(settled.status?.status, 'SUCCEEDED');
    const upgrade = v3Body(spec(world.defs.versioned.versions[2], target, 'To upgrade', inputs), { uuid: created.metadata.uuid, ownedByWorkspace: settled.metadata.ownedByWorkspace });
    const put = await client.put(created.metadata.uuid!, upgrade);
    expectSentComesBack(planned(BlockV2, upgrade), v3State(put, inputs), V3_RULES, 'meshstack_building_block (upgrade)');
    const rerun = await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    assert.equal(rerun.spec.buildingBlockDefinitionVersionRef.uuid, world.defs.versioned.versions[2]);
    expectSentComesBack(planned(BlockV2, upgrade), v3State(rerun, inputs), V3_RULES, 'meshstack_building_block (upgrade, settled)');
  });

  it('a block waiting for operator input ends the poll (a warning); the operator supplies the input and the run is awaited', async () => {
    const client = blocksV2(ctx.provider);
    const target = { kind: 'meshTenant', uuid: world.tenant.uuid, name: null };
    const created = await client.post(v3Body(spec(world.defs.operator.versionUuid, target, 'Needs an operator', { note: value('n1') })));
    const parked = createSuccessful(created) ? created : await pollUntil(() => client.get(created.metadata.uuid!), createSuccessful);
    assert.equal(parked?.status?.status, 'WAITING_FOR_OPERATOR_INPUT');
    // The platform operator's configuration declares the operator input (and the user's note).
    const operatorInputs = { note: value('n1'), op: value('operator value') };
    const supplied = v3Body(spec(world.defs.operator.versionUuid, target, 'Needs an operator', operatorInputs), { uuid: created.metadata.uuid, ownedByWorkspace: parked!.metadata.ownedByWorkspace });
    const put = await client.put(created.metadata.uuid!, supplied);
    expectSentComesBack(planned(BlockV2, supplied), v3State(put, operatorInputs), V3_RULES, 'meshstack_building_block (operator input)');
    const settled = await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    assert.equal(settled.spec.inputs?.op?.value.Y, 'operator value');
  });

  it('TriggerRun (a content_hash change alone): POST …/trigger-run without a body, then the awaited run', async () => {
    const client = blocksV2(ctx.provider);
    const created = await client.post(v3Body(spec(world.defs.plain.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'To trigger', { name: value('trigger') })));
    await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    await ctx.provider.doAuthorizedRequest('POST', client.url(created.metadata.uuid!, 'trigger-run'), undefined, { accept: client.mimeType });
    const trigger = ctx.provider.exchanges.at(-1)!;
    assert.equal(trigger.requestBody, undefined);
    assert.equal(trigger.requestHeaders['content-type'], undefined);
    const rerun = await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    assert.notEqual(rerun.status?.latestRunUuid, null);
  });

  it('deletion with deletion_mode PURGE: a FAILED delete run (if any) is transient while forcePurge holds; the poll ends at DELETED or 404', async () => {
    const client = blocksV2(ctx.provider);
    const created = await client.post(v3Body(spec(world.defs.purge.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'To purge', { name: value('purged') })));
    await awaitRun(ctx.provider, admin(), created.metadata.uuid!, { status: 'SUCCEEDED' });
    await client.delete(created.metadata.uuid!);
    const polling = pollUntil(() => client.get(created.metadata.uuid!), deletionSuccessful);
    polling.catch(() => undefined);
    // Whether a purge runs the destroy at all is the backend's choice; when one runs, it fails here.
    const run = await tryClaimRun(admin(), RUNNER, created.metadata.uuid!);
    if (run) await report(admin(), run, { status: 'FAILED', message: 'destroy failed' });
    const final = await polling;
    assert.ok(final === null || final.status?.lifecycle.state === 'DELETED', `after a purge: ${JSON.stringify(final?.status)}`);
  });

  it('meshstack_building_blocks: every filter of MeshBuildingBlockV2ListFilter is honoured by its query name', async () => {
    const client = blocksV2(ctx.provider);
    const tenantBlock = await client.post(v3Body(spec(world.defs.versioned.versionUuid, { kind: 'meshTenant', uuid: world.tenant.uuid, name: null }, 'Filtered on a tenant', {})));
    const workspaceBlock = await client.post(v3Body(spec(world.defs.workspaceLevel.versionUuid, { kind: 'meshWorkspace', uuid: null, name: world.workspace }, 'Filtered in a workspace', { note: value('n') })));
    const otherBlock = await client.post(v3Body(spec(world.defs.versioned.versionUuid, { kind: 'meshTenant', uuid: world.other.tenant.uuid, name: null }, 'Another workspace', {})));
    const uuids = async (filter: Record<string, unknown>) => (await client.list(filter)).map((b) => b.metadata.uuid);
    const has = async (filter: Record<string, unknown>, expected: (string | null)[], absent: (string | null)[]) => {
      const found = await uuids(filter);
      for (const uuid of expected) assert.ok(found.includes(uuid), `${JSON.stringify(filter)} lists ${uuid}`);
      for (const uuid of absent) assert.ok(!found.includes(uuid), `${JSON.stringify(filter)} leaves out ${uuid}`);
    };
    const [t, w, o] = [tenantBlock.metadata.uuid, workspaceBlock.metadata.uuid, otherBlock.metadata.uuid];
    await has({ workspaceIdentifier: world.workspace }, [t, w], [o]);
    await has({ workspaceIdentifier: world.workspace, projectIdentifier: world.project }, [t], [w, o]);
    await has({ platformIdentifier: world.platformIdentifier }, [t, o], [w]);
    await has({ name: 'Filtered on a tenant' }, [t], [w, o]);
    await has({ definitionUuid: world.defs.versioned.uuid }, [t, o], [w]);
    await has({ versionUuid: world.defs.workspaceLevel.versionUuid }, [w], [t, o]);
    // The backend parses versionNumber leniently: "1" and "v1" alike.
    await has({ definitionUuid: world.defs.versioned.uuid, versionNumber: '1' }, [t, o], []);
    await has({ definitionUuid: world.defs.versioned.uuid, versionNumber: 'v1' }, [t, o], []);
    await has({ definitionUuid: world.defs.versioned.uuid, versionNumber: 'v2' }, [], [t, o]);
    await has({ tenantUuid: world.tenant.uuid }, [t], [w, o]);
    await has({ workspaceIdentifier: world.workspace, targetRefKind: 'meshWorkspace' }, [w], [t]);
    await has({ workspaceIdentifier: world.workspace, targetRefKind: 'meshTenant' }, [t], [w]);
    await has({ managedByWorkspaceIdentifier: world.provider }, [t, w, o], []);
    await has({ managedByDefinitionUuid: world.defs.workspaceLevel.uuid }, [w], [t, o]);
  });

  it('meshstack_buildingblock (v1): create, read, plan again, data source, destroy', async () => {
    const client = blocksV1(ctx.provider);
    const resource = 'meshstack_buildingblock';
    const sent = {
      metadata: { definitionUuid: world.defs.plain.uuid, definitionVersion: 1, tenantIdentifier: world.tenant.identifier },
      spec: {
        displayName: 'A v1 block',
        parentBuildingBlocks: [],
        inputs: [
          { key: 'name', value: 'v-one', valueType: 'STRING' },
          { key: 'size', value: 8, valueType: 'INTEGER' },
        ],
      },
    };
    const created = await client.post(sent);
    // The state: metadata and display name, parent_building_blocks (an empty set by default); inputs kept from the plan.
    const plan = planned<Json>(BlockV1, sent);
    const rules = { ignore: ['metadata.uuid', 'metadata.forcePurge', 'metadata.createdOn', 'metadata.markedForDeletionOn', 'metadata.markedForDeletionBy', 'spec.inputs', 'status'], sets: ['spec.parentBuildingBlocks'] };
    expectSentComesBack(plan, created, rules, resource);
    // toResourceModel: every input and output has a known type, INTEGER values are numbers.
    for (const io of [...(created.spec.inputs ?? []), ...(created.status.outputs ?? [])]) {
      assert.ok(['STRING', 'INTEGER', 'BOOLEAN', 'SINGLE_SELECT', 'MULTI_SELECT', 'FILE', 'LIST', 'CODE'].includes(io.valueType), `Key ${io.key}: Type '${io.valueType}' is not supported`);
      if (io.valueType === 'INTEGER' && io.value !== null) assert.equal(typeof io.value, 'number', `Key ${io.key}: an INTEGER value`);
    }
    const read = await client.get(created.metadata.uuid);
    assert.ok(read);
    expectNoDiff(created, read, rules, resource);
    // meshstack_buildingblock (data source) reads the same.
    expectImportEqual(read, await client.get(created.metadata.uuid), ['status'], resource);
    await client.delete(created.metadata.uuid);
  });
});
