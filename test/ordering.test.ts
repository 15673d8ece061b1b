/**
 * Ordering from another workspace (a consumer): it is offered only released versions that are
 * approved (a newer release waiting for review, or rejected, never breaks its order), it reads the
 * offered version's inputs and outputs but never the implementation or a secret, a block waiting for
 * user input is given them by its PUT, and a failed block is run again by a member of its workspace.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { ApiClient } from './support/client.js';
import {
  BLOCKS,
  claimRun,
  finishRun,
  input,
  putBlock,
  readBlock,
  RUNNER,
  row,
  v2Body,
  workspaceTarget,
  postBlock,
} from './support/blocks.js';
import {
  assertError,
  createDefinition,
  DEFINITION,
  DEFINITIONS,
  getDefinition,
  getVersion,
  HASH,
  postVersion,
  putVersion,
  UUID,
  VERSION,
  VERSIONS,
} from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, unique, type Json } from './support/structure.js';

const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nordering-test-ssh-key\n-----END OPENSSH PRIVATE KEY-----';
const STATIC_SECRET = 'static-secret-of-the-provider';
const DEFAULT_SECRET = 'default-secret-of-the-provider';
const REPOSITORY = 'https://git.example.com/provider/private-modules.git';

/**
 * Version `number` of a definition: terraform with a private repository and user inputs; with
 * `secrets`, an SSH key, a static secret and a sensitive default too (a run carrying secrets needs a
 * runner key to claim it: the tests that run blocks go without).
 */
const versionSpec = (definitionUuid: string, number: number, state: 'DRAFT' | 'RELEASED', secrets: boolean): Json => ({
  buildingBlockDefinitionRef: { kind: 'meshBuildingBlockDefinition', uuid: definitionUuid },
  versionNumber: number,
  state,
  runnerRef: { uuid: RUNNER, kind: 'meshBuildingBlockRunner' },
  implementation: {
    type: 'terraform',
    terraform: {
      terraformVersion: '1.9.8',
      repositoryUrl: REPOSITORY,
      preRunScript: 'echo provider-only',
      ...(secrets ? { sshPrivateKey: SSH_KEY } : {}),
    },
  },
  inputs: {
    size: {
      displayName: 'Size',
      type: 'INTEGER',
      assignmentType: 'USER_INPUT',
      description: 'GB of storage',
      valueValidationRegex: '^[0-9]+$',
      validationRegexErrorMessage: 'digits only',
      displayOrder: 0,
    },
    tier: {
      displayName: 'Tier',
      type: 'SINGLE_SELECT',
      assignmentType: 'USER_INPUT',
      selectableValues: ['s', 'm', 'l'],
      defaultValue: 's',
      updateableByConsumer: true,
      displayOrder: 1,
    },
    ...(secrets
      ? {
          password: {
            displayName: 'Password',
            type: 'STRING',
            assignmentType: 'USER_INPUT',
            isSensitive: true,
            defaultValue: DEFAULT_SECRET,
            displayOrder: 2,
          },
          token: {
            displayName: 'Token',
            type: 'STRING',
            assignmentType: 'STATIC',
            isSensitive: true,
            argument: { plaintext: STATIC_SECRET },
            displayOrder: 3,
          },
        }
      : {}),
    region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'internal-region-7', displayOrder: 4 },
  },
  outputs: { endpoint: { displayName: 'Endpoint', type: 'STRING', assignmentType: 'RESOURCE_URL', displayOrder: 0 } },
});

describeEachDatabase('ordering from another workspace', (ctx) => {
  let provider: string;
  let consumerWorkspace: string;
  /** The provider's key: defines and releases (its releases wait for an admin's review). */
  let owner: ApiClient;
  /** A member of the consumer workspace: reads the marketplace and orders. */
  let consumer: ApiClient;

  before(async () => {
    provider = unique('ord-prov');
    consumerWorkspace = unique('ord-cons');
    await Promise.all([createWorkspace(ctx.client, provider), createWorkspace(ctx.client, consumerWorkspace)]);
    owner = (
      await clientWithKey(ctx.client, provider, ['BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCKDEFINITION_SAVE', 'BUILDINGBLOCK_LIST'])
    ).client;
    consumer = (
      await clientWithKey(ctx.client, consumerWorkspace, ['BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE'])
    ).client;
  });

  /** The owner releases the next version (it waits for review); returns its uuid. */
  async function release(definitionUuid: string, number: number, secrets = false): Promise<string> {
    let uuid: string;
    if (number === 1) {
      const versions = await owner.get(`${VERSIONS}?buildingBlockDefinitionUuid=${definitionUuid}`, { headers: { accept: VERSION } });
      uuid = versions.json._embedded.meshBuildingBlockDefinitionVersions[0].metadata.uuid;
    } else {
      const draft = await postVersion(owner, versionSpec(definitionUuid, number, 'DRAFT', secrets));
      assert.equal(draft.status, 201, draft.text);
      uuid = draft.json.metadata.uuid;
    }
    const released = await putVersion(owner, uuid, versionSpec(definitionUuid, number, 'RELEASED', secrets));
    assert.equal(released.status, 200, released.text);
    assert.equal(released.json.status.reviewState, 'IN_REVIEW');
    return uuid;
  }

  async function review(versionUuid: string, decision: 'approve' | 'reject'): Promise<void> {
    const response = await ctx.client.post(
      `${VERSIONS}/${versionUuid}/${decision}${decision === 'reject' ? '?reason=not+yet' : ''}`,
      undefined,
      { headers: { accept: VERSION } },
    );
    assert.equal(response.status, 200, response.text);
  }

  /** A definition of the provider with version 1 approved and version 2 released and waiting for review. */
  async function offered(secrets = false): Promise<{ definition: string; v1: string; v2: string }> {
    const definition = (await createDefinition(owner, provider, { displayName: unique('Storage') })).metadata.uuid as string;
    const v1 = await release(definition, 1, secrets);
    await review(v1, 'approve');
    const v2 = await release(definition, 2, secrets);
    return { definition, v1, v2 };
  }

  /** The consumer orders the version the definition offers it, with the inputs; the created block. */
  async function order(definition: string, inputs: Json[]): Promise<Json> {
    const read = await getDefinition(consumer, definition);
    assert.equal(read.status, 200, read.text);
    const response = await postBlock(
      consumer,
      v2Body({ versionUuid: read.json.status.latestReleasedVersionUuid, target: workspaceTarget(consumerWorkspace), inputs }),
    );
    assert.equal(response.status, 201, `ordering the offered version ${read.json.status.latestReleasedVersionUuid}: ${response.text}`);
    return response.json;
  }

  it('offers a consumer the approved version while a newer one is in review, and after it is rejected; the owner sees every version', async () => {
    const { definition, v1, v2 } = await offered();
    const check = async (when: string) => {
      const read = await getDefinition(consumer, definition);
      assert.equal(read.status, 200, read.text);
      const { status } = read.json;
      assert.equal(status.latestReleasedVersion, 1, `${when}: ${JSON.stringify(status)}`);
      assert.equal(status.latestReleasedVersionUuid, v1, when);
      assert.equal(status.latestVersion, 1, `${when}: the consumer is not told of versions it cannot order`);
      assert.equal(status.latestVersionUuid, v1, when);
      assert.deepEqual(
        status.versions.map((v: Json) => v.versionUuid),
        [v1],
        `${when}: ${JSON.stringify(status.versions)}`,
      );
      assert.equal(status.publicationState, 'PUBLISHED', when);
      // The marketplace list says the same.
      const list = await consumer.get(`${DEFINITIONS}?size=350`, { headers: { accept: DEFINITION } });
      assert.equal(list.status, 200, list.text);
      const listed = list.json._embedded.meshBuildingBlockDefinitions.find((d: Json) => d.metadata.uuid === definition);
      assert.deepEqual(listed?.status, status, `${when}: the list answers as the read`);
      const block = await order(definition, [input('size', 20, 'INTEGER')]);
      assert.equal(block.spec.buildingBlockDefinitionVersionRef.uuid, v1, when);
    };
    await check('version 2 in review');
    const ownerView = (await getDefinition(owner, definition)).json.status;
    assert.equal(ownerView.latestReleasedVersion, 2, JSON.stringify(ownerView));
    assert.equal(ownerView.latestReleasedVersionUuid, v2);
    assert.deepEqual(
      ownerView.versions.map((v: Json) => [v.versionNumber, v.reviewState]),
      [
        [1, 'APPROVED'],
        [2, 'IN_REVIEW'],
      ],
    );
    await review(v2, 'reject');
    await check('version 2 rejected');
    assert.equal((await getDefinition(owner, definition)).json.status.versions[1].reviewState, 'REJECTED');
    // Approved, version 2 is what the consumer is offered.
    const v3 = await release(definition, 3);
    await review(v3, 'approve');
    const now = (await getDefinition(consumer, definition)).json.status;
    assert.equal(now.latestReleasedVersionUuid, v3, JSON.stringify(now));
    assert.deepEqual(
      now.versions.map((v: Json) => v.versionNumber),
      [1, 3],
    );
  });

  it('moves a consumer block to the latest approved version while a newer one is in review', async () => {
    const { definition, v1, v2 } = await offered();
    await review(v2, 'approve');
    const v3 = await release(definition, 3);
    const block = (
      await postBlock(
        consumer,
        v2Body({ versionUuid: v1, target: workspaceTarget(consumerWorkspace), inputs: [input('size', 1, 'INTEGER')] }),
      )
    ).json;
    const uuid = block.metadata.uuid as string;
    const run = await claimRun(ctx.client, RUNNER, uuid);
    await finishRun(ctx.client, run, 'SUCCEEDED');
    const moved = await putBlock(
      consumer,
      uuid,
      v2Body({ versionUuid: v2, target: workspaceTarget(consumerWorkspace), displayName: block.spec.displayName }),
    );
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.json.spec.buildingBlockDefinitionVersionRef.uuid, v2);
    // The version in review stays out of the consumer's reach.
    const run2 = await claimRun(ctx.client, RUNNER, uuid);
    await finishRun(ctx.client, run2, 'SUCCEEDED');
    const refused = await putBlock(
      consumer,
      uuid,
      v2Body({ versionUuid: v3, target: workspaceTarget(consumerWorkspace), displayName: block.spec.displayName }),
    );
    assertError(refused, 422, /does not exist/);
  });

  it('lets a consumer read the offered version’s inputs and outputs, never its implementation or secrets', async () => {
    const { definition, v1, v2 } = await offered(true);
    const read = await getVersion(consumer, v1);
    assert.equal(read.status, 200, read.text);
    const { spec } = read.json;
    assert.equal(read.json.kind, 'meshBuildingBlockDefinitionVersion');
    assert.equal(spec.buildingBlockDefinitionRef.uuid, definition);
    assert.equal(spec.versionNumber, 1);
    assert.equal(spec.state, 'RELEASED');
    assert.equal(read.json.status.reviewState, 'APPROVED');
    // What ordering needs: every input the consumer fills, with its type, default and validation.
    assert.deepEqual(spec.inputs.size, {
      displayName: 'Size',
      type: 'INTEGER',
      assignmentType: 'USER_INPUT',
      description: 'GB of storage',
      valueValidationRegex: '^[0-9]+$',
      validationRegexErrorMessage: 'digits only',
      displayOrder: 0,
      defaultValue: null,
    });
    assert.deepEqual(spec.inputs.tier.selectableValues, ['s', 'm', 'l']);
    assert.equal(spec.inputs.tier.defaultValue, 's');
    assert.equal(spec.inputs.password.isSensitive, true);
    assert.equal(spec.inputs.password.defaultValue, null, 'a secret default is not shown, not even by hash');
    assert.equal(spec.inputs.password.hasDefaultValue, true, 'but the consumer learns it need not fill it');
    assert.equal(spec.inputs.size.hasDefaultValue, undefined);
    assert.equal(spec.inputs.token.assignmentType, 'STATIC');
    assert.deepEqual(spec.outputs, {
      endpoint: { displayName: 'Endpoint', type: 'STRING', assignmentType: 'RESOURCE_URL', displayOrder: 0 },
    });
    // Never the implementation, the runner, static arguments or any secret (not even its hash).
    assert.equal(spec.implementation, undefined, JSON.stringify(spec));
    assert.equal(spec.runnerRef, undefined);
    for (const leak of [
      REPOSITORY,
      'ssh',
      'provider-only',
      STATIC_SECRET,
      DEFAULT_SECRET,
      'internal-region-7',
      'sha256:',
      'argument',
      'reviewedBy',
    ]) {
      assert.ok(!read.text.toLowerCase().includes(leak.toLowerCase()), `the consumer's answer shows ${leak}: ${read.text}`);
    }
    // The version in review, and the versions list, stay the owner's.
    assertError(await getVersion(consumer, v2), 404);
    assertError(await consumer.get(`${VERSIONS}?buildingBlockDefinitionUuid=${definition}`, { headers: { accept: VERSION } }), 403);
    // Another workspace's key without the definition permission reads nothing.
    const stranger = (await clientWithKey(ctx.client, consumerWorkspace, ['BUILDINGBLOCK_SAVE'])).client;
    assertError(await getVersion(stranger, v1), 403);
    // The owner's answer is exact: implementation and secrets by hash.
    const own = await getVersion(owner, v1);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.spec.implementation.terraform.repositoryUrl, REPOSITORY);
    assert.match(own.json.spec.implementation.terraform.sshPrivateKey.hash, HASH);
    assert.match(own.json.spec.inputs.password.defaultValue.hash, HASH);
    assert.equal(own.json.spec.inputs.password.hasDefaultValue, undefined);
    assert.equal(own.json.spec.inputs.region.argument, 'internal-region-7');
  });

  it('gives a block waiting for user input its inputs by its PUT, and the block runs', async () => {
    const { definition, v1 } = await offered();
    const block = await order(definition, []);
    const uuid = block.metadata.uuid as string;
    assert.equal((await readBlock(consumer, uuid)).status.status, 'WAITING_FOR_USER_INPUT');
    const invalid = await putBlock(
      consumer,
      uuid,
      v2Body({
        versionUuid: v1,
        target: workspaceTarget(consumerWorkspace),
        displayName: block.spec.displayName,
        inputs: [input('size', 'ten', 'INTEGER')],
      }),
    );
    assertError(invalid, 400, /spec\.inputs\.size/);
    assert.equal((await readBlock(consumer, uuid)).status.status, 'WAITING_FOR_USER_INPUT', 'nothing stored on a refusal');
    const put = await putBlock(
      consumer,
      uuid,
      v2Body({
        versionUuid: v1,
        target: workspaceTarget(consumerWorkspace),
        displayName: block.spec.displayName,
        inputs: [input('size', 30, 'INTEGER')],
      }),
    );
    assert.equal(put.status, 200, put.text);
    const after = await readBlock(consumer, uuid);
    assert.equal(after.status.status, 'PENDING');
    assert.match(after.status.latestRunUuid ?? '', UUID);
    const run = await claimRun(ctx.client, RUNNER, uuid);
    assert.equal(row(run.spec.buildingBlock.spec.inputs, 'size')?.value, 30);
    await finishRun(ctx.client, run, 'SUCCEEDED');
    assert.equal((await readBlock(consumer, uuid)).status.status, 'SUCCEEDED');
  });

  it('runs a failed block again for a member of its workspace, and for nobody else', async () => {
    const { definition } = await offered();
    const block = await order(definition, [input('size', 5, 'INTEGER')]);
    const uuid = block.metadata.uuid as string;
    const first = await claimRun(ctx.client, RUNNER, uuid);
    await finishRun(ctx.client, first, 'FAILED');
    assert.equal((await readBlock(consumer, uuid)).status.status, 'FAILED');
    const trigger = (client: ApiClient) => client.post(`${BLOCKS}/${uuid}/trigger-run`, undefined);
    // A key of another workspace cannot see the block; a reader of its own workspace may not run it.
    const outsider = (await clientWithKey(ctx.client, provider, ['BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE'])).client;
    assertError(await trigger(outsider), 404);
    const reader = (await clientWithKey(ctx.client, consumerWorkspace, ['BUILDINGBLOCK_LIST'])).client;
    assertError(await trigger(reader), 403);
    assert.equal((await readBlock(consumer, uuid)).status.status, 'FAILED', 'nothing changed on a refusal');
    const again = await trigger(consumer);
    assert.equal(again.status, 202, again.text);
    const after = await readBlock(consumer, uuid);
    assert.equal(after.status.status, 'PENDING');
    assert.notEqual(after.status.latestRunUuid, first.metadata.uuid);
    const second = await claimRun(ctx.client, RUNNER, uuid);
    assert.equal(second.metadata.uuid, after.status.latestRunUuid);
    await finishRun(ctx.client, second, 'SUCCEEDED');
    assert.equal((await readBlock(consumer, uuid)).status.status, 'SUCCEEDED');
  });
});
