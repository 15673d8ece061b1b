import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecretBox } from '../../../crypto/secret-box.js';
import { sealSecrets } from '../../../crypto/secret-values.js';
import type { ApiError } from '../../../lib/errors.js';
import type { Run } from '../../block/run.js';
import type { StepRow } from '../../block/run.js';
import { RUN_CODECS } from './index.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { runV1 } from './v1.js';

const box = new SecretBox(Buffer.alloc(32, 7));
const BASE = 'https://blockyard.example';
const RUN = '3b2d9d2f-0000-4000-8000-000000000001';
const SELF = `${BASE}/api/meshobjects/meshbuildingblockruns/${RUN}`;

const badField = (field: string) => (error: ApiError) => {
  assert.equal(error.status, 400, error.message);
  assert.ok(error.message.startsWith(`${field}:`), `expected "${error.message}" to start with "${field}:"`);
  return true;
};

describe('runV1.decodeRegistration', () => {
  it('decodes a source and its steps', () => {
    assert.deepEqual(
      runV1.decodeRegistration({
        source: { id: 'ci', externalRunId: 'r-1', externalRunUrl: 'https://ci/r-1' },
        steps: [
          { id: 'plan', displayName: 'Plan', status: 'PENDING' },
          { id: 'apply', displayName: 'Apply' },
        ],
      }),
      {
        sourceId: 'ci',
        source: { id: 'ci', externalRunId: 'r-1', externalRunUrl: 'https://ci/r-1' },
        steps: [
          { id: 'plan', displayName: 'Plan', status: 'PENDING' },
          { id: 'apply', displayName: 'Apply' },
        ],
      },
    );
  });

  it('takes the aliases externalId and externalUrl', () => {
    assert.deepEqual(runV1.decodeRegistration({ source: { id: 'ci', externalId: 'r-2', externalUrl: 'https://ci/r-2' } }).source, {
      id: 'ci',
      externalRunId: 'r-2',
      externalRunUrl: 'https://ci/r-2',
    });
  });

  it('prefers externalRunId and externalRunUrl over the aliases', () => {
    const { source } = runV1.decodeRegistration({
      source: { id: 'ci', externalRunId: 'a', externalId: 'b', externalRunUrl: 'https://a', externalUrl: 'https://b' },
    });
    assert.deepEqual(source, { id: 'ci', externalRunId: 'a', externalRunUrl: 'https://a' });
  });

  it('turns numeric ids into strings', () => {
    const registration = runV1.decodeRegistration({ source: { id: 42, externalRunId: 7 }, steps: [{ id: 1, displayName: 'One' }] });
    assert.equal(registration.sourceId, '42');
    assert.deepEqual(registration.source, { id: '42', externalRunId: '7' });
    assert.deepEqual(registration.steps, [{ id: '1', displayName: 'One' }]);
  });

  it('omits a null step status, an empty display name and null source fields', () => {
    const registration = runV1.decodeRegistration({
      source: { id: 'ci', externalRunId: null, externalRunUrl: null },
      steps: [{ id: 's', displayName: '', status: null }],
    });
    assert.deepEqual(registration.source, { id: 'ci' });
    assert.deepEqual(registration.steps, [{ id: 's' }]);
    assert.equal('status' in registration.steps[0]!, false);
    assert.equal('displayName' in registration.steps[0]!, false);
  });

  it('takes absent or null steps as none', () => {
    assert.deepEqual(runV1.decodeRegistration({ source: { id: 'ci' } }).steps, []);
    assert.deepEqual(runV1.decodeRegistration({ source: { id: 'ci' }, steps: null }).steps, []);
  });

  it('refuses bodies without a source id, with an empty id or a non-integer number', () => {
    assert.throws(() => runV1.decodeRegistration({}), badField('source'));
    assert.throws(() => runV1.decodeRegistration({ source: {} }), badField('source.id'));
    assert.throws(() => runV1.decodeRegistration({ source: { id: '' } }), badField('source.id'));
    assert.throws(() => runV1.decodeRegistration({ source: { id: 1.5 } }), badField('source.id'));
    assert.throws(() => runV1.decodeRegistration({ source: { id: 'ci' }, steps: [{ displayName: 'x' }] }), badField('steps[0].id'));
  });
});

describe('runV1.decodeUpdate', () => {
  it('decodes a status and step changes, ids as strings', () => {
    const outputs = { url: { value: 'https://x', type: 'STRING', isSensitive: false } };
    assert.deepEqual(
      runV1.decodeUpdate({
        status: 'SUCCEEDED',
        steps: [{ id: 3, displayName: 'Apply', status: 'SUCCEEDED', userMessage: 'done', systemMessage: 'ok', outputs }],
      }),
      {
        status: 'SUCCEEDED',
        steps: [{ id: '3', displayName: 'Apply', status: 'SUCCEEDED', userMessage: 'done', systemMessage: 'ok', outputs }],
      },
    );
  });

  it('takes a null body as no change', () => {
    assert.deepEqual(runV1.decodeUpdate(null), { steps: [] });
    assert.deepEqual(runV1.decodeUpdate(undefined), { steps: [] });
    assert.deepEqual(runV1.decodeUpdate({}), { steps: [] });
  });

  it('takes null, absent and "" as no change', () => {
    for (const value of [null, undefined, '']) {
      const update = runV1.decodeUpdate({
        status: value,
        steps: [{ id: 's', displayName: value, status: value, userMessage: value, systemMessage: value }],
      });
      assert.deepEqual(update, { steps: [{ id: 's' }] }, JSON.stringify(value));
      assert.equal('status' in update, false);
      assert.deepEqual(Object.keys(update.steps[0]!), ['id']);
    }
  });

  it('takes steps: null as no step changes', () => {
    assert.deepEqual(runV1.decodeUpdate({ status: 'FAILED', steps: null }), { status: 'FAILED', steps: [] });
  });

  it('ignores unknown fields', () => {
    assert.deepEqual(runV1.decodeUpdate({ status: 'IN_PROGRESS', foo: 1, summary: { x: 1 }, steps: [{ id: 's', extra: true }] }), {
      status: 'IN_PROGRESS',
      steps: [{ id: 's' }],
    });
  });

  it('keeps messages up to 1 MiB and refuses longer ones, naming the field', () => {
    const long = 'x'.repeat(TEXT_LIMITS.runMessage);
    assert.equal(runV1.decodeUpdate({ steps: [{ id: 's', userMessage: long }] }).steps[0]!.userMessage, long);
    assert.throws(() => runV1.decodeUpdate({ steps: [{ id: 's', systemMessage: `${long}x` }] }), badField('steps[0].systemMessage'));
  });

  it('refuses malformed updates, naming the field', () => {
    assert.throws(() => runV1.decodeUpdate({ status: 5 }), badField('status'));
    assert.throws(() => runV1.decodeUpdate({ steps: {} }), badField('steps'));
    assert.throws(() => runV1.decodeUpdate({ steps: [{ status: 'FAILED' }] }), badField('steps[0].id'));
    assert.throws(
      () => runV1.decodeUpdate({ steps: [{ id: 's', outputs: { a: { isSensitive: 'yes' } } }] }),
      badField('steps[0].outputs.a.isSensitive'),
    );
  });
});

// ---- encoding ----

const sealedInput = sealSecrets({ plaintext: 'pass' }, undefined, box, 'inputs.password') as { hash: string; ciphertext: string };
const sealedKey = sealSecrets({ plaintext: 'ssh-key' }, undefined, box, 'implementation.sshPrivateKey') as {
  hash: string;
  ciphertext: string;
};

const run: Run = {
  logBytes: 0,
  uuid: RUN,
  blockUuid: '3b2d9d2f-0000-4000-8000-0000000000b1',
  runNumber: 2,
  behavior: 'APPLY',
  status: 'FAILED',
  runnerUuid: '98520496-627d-43e6-82da-ce499179ff3f',
  definitionUuid: '3b2d9d2f-0000-4000-8000-0000000000d1',
  definitionOwner: 'platform',
  workspace: 'dev',
  createdOn: '2025-01-01T00:00:00Z',
  claimedOn: '2025-01-01T00:01:00Z',
  endedOn: '2025-01-01T00:02:00Z',
  updatedOn: '2025-01-01T00:02:00Z',
  snapshot: {
    buildingBlock: {
      uuid: '3b2d9d2f-0000-4000-8000-0000000000b1',
      spec: {
        displayName: 'My block',
        workspaceIdentifier: 'dev',
        projectIdentifier: 'web',
        fullPlatformIdentifier: 'aws.eu',
        inputs: [
          { key: 'size', value: 16, type: 'INTEGER', isSensitive: false, isEnvironment: false },
          { key: 'password', value: sealedInput, type: 'STRING', isSensitive: true, isEnvironment: true },
        ],
        parentBuildingBlocks: [],
      },
    },
    buildingBlockDefinition: {
      uuid: '3b2d9d2f-0000-4000-8000-0000000000d1',
      spec: {
        workspaceIdentifier: 'platform',
        version: 1,
        implementation: { type: 'terraform', terraform: { repositoryUrl: 'https://git/x', sshPrivateKey: sealedKey } },
      },
    },
    trigger: { reason: 'BUILDING_BLOCK_CREATION', author: { identifier: 'alice', type: 'ApiUser' } },
  },
  outputs: {},
};

const links = {
  self: { href: SELF },
  downloadLogs: { href: `${SELF}/logs` },
  registerSource: { href: `${SELF}/status/source` },
  updateSource: { href: `${SELF}/status/source/{sourceId}`, templated: true },
  meshstackBaseUrl: { href: BASE },
};

describe('runV1.encode', () => {
  it('shows a read without a run token, sensitive values as {hash} and the stored status', () => {
    const encoded = runV1.encode(run, { baseUrl: BASE });
    assert.deepEqual(encoded, {
      kind: 'meshBuildingBlockRun',
      apiVersion: 'v1',
      metadata: { uuid: RUN, createdOn: '2025-01-01T00:00:00Z', claimedOn: '2025-01-01T00:01:00Z', endedOn: '2025-01-01T00:02:00Z' },
      spec: {
        runNumber: 2,
        behavior: 'APPLY',
        trigger: { reason: 'BUILDING_BLOCK_CREATION', author: { identifier: 'alice', type: 'ApiUser' } },
        buildingBlock: {
          uuid: '3b2d9d2f-0000-4000-8000-0000000000b1',
          spec: {
            displayName: 'My block',
            workspaceIdentifier: 'dev',
            projectIdentifier: 'web',
            fullPlatformIdentifier: 'aws.eu',
            inputs: [
              { key: 'size', value: 16, type: 'INTEGER', isSensitive: false, isEnvironment: false },
              { key: 'password', value: { hash: sealedInput.hash }, type: 'STRING', isSensitive: true, isEnvironment: true },
            ],
            parentBuildingBlocks: [],
          },
        },
        buildingBlockDefinition: {
          uuid: '3b2d9d2f-0000-4000-8000-0000000000d1',
          spec: {
            workspaceIdentifier: 'platform',
            version: 1,
            implementation: { type: 'terraform', terraform: { repositoryUrl: 'https://git/x', sshPrivateKey: { hash: sealedKey.hash } } },
          },
        },
      },
      status: 'FAILED',
      _links: links,
    });
    assert.equal('runToken' in encoded.spec, false);
    assert.doesNotMatch(JSON.stringify(encoded), /ciphertext|pass"|ssh-key/);
  });

  it('shows the stored status of a read, whatever it is', () => {
    for (const status of ['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'ABORTED'] as const)
      assert.equal(runV1.encode({ ...run, status }, { baseUrl: BASE }).status, status);
  });

  it('omits claimedOn and endedOn until they happened', () => {
    const { claimedOn: _claimed, endedOn: _ended, ...pending } = run;
    assert.deepEqual(runV1.encode({ ...pending, status: 'PENDING' }, { baseUrl: BASE }).metadata, {
      uuid: RUN,
      createdOn: '2025-01-01T00:00:00Z',
    });
  });

  it('shows a claim with its run token, IN_PROGRESS and the claim’s inputs and implementation', () => {
    const claimed = {
      runToken: 'run-token-jwt',
      inputs: [{ key: 'password', value: 'runner-encrypted', type: 'STRING', isSensitive: true, isEnvironment: true }],
      implementation: { type: 'terraform', terraform: { repositoryUrl: 'https://git/x', sshPrivateKey: 'runner-encrypted-key' } },
    };
    const encoded = runV1.encode({ ...run, status: 'PENDING', endedOn: undefined }, { baseUrl: BASE, claimed });
    assert.ok('runToken' in encoded.spec);
    assert.equal(encoded.spec.runToken, 'run-token-jwt');
    assert.equal(encoded.status, 'IN_PROGRESS');
    assert.deepEqual(encoded.spec.buildingBlock.spec?.inputs, claimed.inputs);
    assert.deepEqual(encoded.spec.buildingBlockDefinition.spec?.implementation, claimed.implementation);
    assert.equal(encoded.spec.buildingBlock.spec?.displayName, 'My block');
    assert.deepEqual(encoded._links, links);
    assert.doesNotMatch(JSON.stringify(encoded), /ciphertext/);
  });

  it('links self, registerSource, the templated updateSource with a literal {sourceId} and meshstackBaseUrl', () => {
    const { _links } = runV1.encode(run, { baseUrl: BASE });
    assert.deepEqual(_links, links);
    assert.ok(_links.updateSource.href.endsWith('/status/source/{sourceId}'));
    assert.equal(_links.updateSource.templated, true);
  });
});

describe('runV1.encode for a consumer', () => {
  it('shows statuses, never inputs, the implementation or a run token', () => {
    const encoded = runV1.encode(run, { baseUrl: BASE, audience: 'consumer' });
    assert.equal(encoded.kind, 'meshBuildingBlockRun');
    assert.equal(encoded.status, 'FAILED');
    assert.equal(encoded.spec.runNumber, 2);
    assert.equal(encoded.spec.buildingBlock.uuid, run.snapshot.buildingBlock.uuid);
    assert.equal(encoded._links.self.href, SELF);
    assert.equal('runToken' in encoded.spec, false);
    const text = JSON.stringify(encoded);
    assert.doesNotMatch(text, /inputs|implementation|sshPrivateKey|password|ciphertext|sha256:/);
    assert.ok(!text.includes(sealedInput.hash) && !text.includes(sealedKey.hash));
  });
});

const steps: StepRow[] = [
  {
    sourceId: 'ci',
    stepId: 'plan',
    position: 0,
    displayName: 'Plan',
    status: 'SUCCEEDED',
    userMessage: 'planned',
    systemMessage: 'ok',
    outputs: {},
    updatedOn: '2025-01-01T00:01:00Z',
  },
  { sourceId: 'ci', stepId: 'apply', position: 1, displayName: 'Apply', status: 'FAILED', outputs: {}, updatedOn: '2025-01-01T00:02:00Z' },
];

/** The streamed log, read whole and parsed. */
async function logOf(rows: StepRow[], audience?: 'operator' | 'consumer'): Promise<{ steps: Record<string, unknown>[] }> {
  let text = '';
  for await (const chunk of runV1.encodeLogs(
    (async function* () {
      yield* rows;
    })(),
    audience,
  ))
    text += chunk;
  return JSON.parse(text) as { steps: Record<string, unknown>[] };
}

describe('runV1.encodeLogs', () => {
  it('lists steps with null for absent messages', async () => {
    assert.deepEqual(await logOf(steps), {
      steps: [
        {
          displayName: 'Plan',
          status: 'SUCCEEDED',
          userMessage: 'planned',
          systemMessage: 'ok',
          id: 'plan',
          sourceId: 'ci',
          updatedOn: '2025-01-01T00:01:00Z',
        },
        {
          displayName: 'Apply',
          status: 'FAILED',
          userMessage: null,
          systemMessage: null,
          id: 'apply',
          sourceId: 'ci',
          updatedOn: '2025-01-01T00:02:00Z',
        },
      ],
    });
    assert.deepEqual(await logOf([]), { steps: [] });
  });

  it('shows a consumer user messages but no system messages', async () => {
    const { steps: shown } = await logOf(steps, 'consumer');
    assert.deepEqual(
      shown.map((step) => [step.id, step.status, step.userMessage, step.systemMessage]),
      [
        ['plan', 'SUCCEEDED', 'planned', null],
        ['apply', 'FAILED', null, null],
      ],
    );
    assert.equal((await logOf(steps, 'operator')).steps[0]!.systemMessage, 'ok');
  });
});

describe('RUN_CODECS', () => {
  it('serves meshBuildingBlockRun v1', () => {
    assert.deepEqual(RUN_CODECS.media, [{ kind: 'meshbuildingblockrun', version: 'v1' }]);
    assert.equal(RUN_CODECS.of('v1'), runV1);
  });
});
