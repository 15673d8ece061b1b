import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecretBox } from '../../../crypto/secret-box.js';
import { sealSecrets } from '../../../crypto/secret-values.js';
import type { ApiError } from '../../../lib/errors.js';
import type { Block, ValueRow } from '../model.js';
import { BLOCK_CODECS } from './index.js';
import { decodeInputs, decodeParents, encodeRows } from './rows.js';
import { blockV1 } from './v1.js';
import { blockV2Preview } from './v2-preview.js';
import type { CollectionPermissions } from '../../../auth/route-access.js';

/** A reader who may list every related collection: every link is drawn. */
/** A reader who may list every collection; each relation's path is `/api/meshobjects/<rel>`. */
const READER = {
  collections: { mayList: () => true, pathOf: (rel: string) => `/api/meshobjects/${rel}` } as Pick<
    CollectionPermissions,
    'mayList' | 'pathOf'
  > as CollectionPermissions,
};

const box = new SecretBox(Buffer.alloc(32, 7));
const BASE = 'https://blockyard.example';
const DEF = '2a1c8c1e-0000-4000-8000-0000000000d1';
const VERSION = '2a1c8c1e-0000-4000-8000-0000000000f1';
const TENANT = '2a1c8c1e-0000-4000-8000-0000000000a1';
const BLOCK = '2a1c8c1e-0000-4000-8000-0000000000b1';
const P1 = '2a1c8c1e-0000-4000-8000-0000000000c1';
const P2 = '2a1c8c1e-0000-4000-8000-0000000000c2';

/** A 400 whose message starts with the field named (`<field>:`). */
const badField = (field: string) => (error: ApiError) => {
  assert.equal(error.status, 400, error.message);
  assert.ok(error.message.startsWith(`${field}:`), `expected "${error.message}" to start with "${field}:"`);
  return true;
};

const v1Body = (overrides: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } = {}) => ({
  apiVersion: 'v1',
  kind: 'meshBuildingBlock',
  metadata: { definitionUuid: DEF, definitionVersion: 3, tenantIdentifier: 'dev.web.aws.eu', ...overrides.metadata },
  spec: {
    displayName: 'My block',
    inputs: [
      { key: 'size', value: 16, valueType: 'INTEGER' },
      { key: 'name', value: 'x' },
    ],
    parentBuildingBlocks: [],
    ...overrides.spec,
  },
});

const v2Body = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v2-preview',
  kind: 'meshBuildingBlock',
  spec: {
    displayName: 'My block',
    buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: VERSION },
    targetRef: { kind: 'meshTenant', uuid: TENANT },
    inputs: [],
    parentBuildingBlocks: [],
    ...spec,
  },
});

describe('blockV1.decode', () => {
  for (const definitionVersion of [3, '3', 'v3']) {
    it(`takes definitionVersion ${JSON.stringify(definitionVersion)} as version 3`, () => {
      const request = blockV1.decode(v1Body({ metadata: { definitionVersion } }));
      assert.deepEqual(request.version, { definitionUuid: DEF, versionNumber: 3 });
    });
  }

  it('decodes a tenant block request: target by tenant name, inputs keyed, definition uuid lower-cased', () => {
    const request = blockV1.decode(
      v1Body({
        metadata: { definitionUuid: DEF.toUpperCase() },
        spec: { parentBuildingBlocks: [{ buildingBlockUuid: P1, definitionUuid: DEF }] },
      }),
    );
    assert.deepEqual(request, {
      target: { tenantName: 'dev.web.aws.eu' },
      version: { definitionUuid: DEF, versionNumber: 3 },
      displayName: 'My block',
      inputs: { size: { value: 16, valueType: 'INTEGER' }, name: { value: 'x' } },
      parents: [{ buildingBlockUuid: P1, definitionUuid: DEF }],
    });
  });

  it('takes a body without kind and treats null fields as absent', () => {
    const body = v1Body({ spec: { inputs: [{ key: 'name', value: null, valueType: null }] } }) as Record<string, unknown>;
    delete body.kind;
    assert.deepEqual(blockV1.decode(body).inputs, { name: { value: undefined } });
  });

  it('requires parentBuildingBlocks', () => {
    const body = v1Body();
    delete (body.spec as Record<string, unknown>).parentBuildingBlocks;
    assert.throws(() => blockV1.decode(body), badField('spec.parentBuildingBlocks'));
    assert.throws(() => blockV1.decode(v1Body({ spec: { parentBuildingBlocks: null } })), badField('spec.parentBuildingBlocks'));
  });

  const bad: [string, unknown, string][] = [
    ['a body that is no object', 'text', 'body'],
    ['a wrong kind', { ...v1Body(), kind: 'meshTenant' }, 'kind'],
    ['a missing definitionUuid', v1Body({ metadata: { definitionUuid: undefined } }), 'metadata.definitionUuid'],
    ['a definitionUuid that is no uuid', v1Body({ metadata: { definitionUuid: 'nope' } }), 'metadata.definitionUuid'],
    ['definitionVersion 0', v1Body({ metadata: { definitionVersion: 0 } }), 'metadata.definitionVersion'],
    ['definitionVersion "v0"', v1Body({ metadata: { definitionVersion: 'v0' } }), 'metadata.definitionVersion'],
    ['definitionVersion "three"', v1Body({ metadata: { definitionVersion: 'three' } }), 'metadata.definitionVersion'],
    ['definitionVersion 1.5', v1Body({ metadata: { definitionVersion: 1.5 } }), 'metadata.definitionVersion'],
    ['an empty tenantIdentifier', v1Body({ metadata: { tenantIdentifier: '' } }), 'metadata.tenantIdentifier'],
    ['an empty displayName', v1Body({ spec: { displayName: '' } }), 'spec.displayName'],
    ['inputs that are no list', v1Body({ spec: { inputs: { size: { value: 1 } } } }), 'spec.inputs'],
    ['an input key with a space', v1Body({ spec: { inputs: [{ key: 'a b', value: 1 }] } }), 'spec.inputs[0].key'],
    ['an unknown valueType', v1Body({ spec: { inputs: [{ key: 'a', value: 1, valueType: 'NUMBER' }] } }), 'spec.inputs[0].valueType'],
    [
      'a parent uuid that is no uuid',
      v1Body({ spec: { parentBuildingBlocks: [{ buildingBlockUuid: 'x' }] } }),
      'spec.parentBuildingBlocks[0].buildingBlockUuid',
    ],
    [
      'a duplicate input key',
      v1Body({
        spec: {
          inputs: [
            { key: 'a', value: 1 },
            { key: 'a', value: 2 },
          ],
        },
      }),
      'spec.inputs[1].key',
    ],
  ];
  for (const [name, body, field] of bad) {
    it(`refuses ${name} with a 400 naming ${field}`, () => {
      assert.throws(() => blockV1.decode(body), badField(field));
    });
  }
});

describe('blockV2Preview.decode', () => {
  it('names a tenant target by uuid, lower-cased for lookup and echoed as sent', () => {
    const request = blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshTenant', uuid: TENANT.toUpperCase() } }));
    assert.deepEqual(request.target, { tenantUuid: TENANT });
    assert.deepEqual(request.targetRef, { kind: 'meshTenant', uuid: TENANT.toUpperCase() });
    assert.deepEqual(request.version, { uuid: VERSION });
  });

  it('lower-cases the version uuid', () => {
    assert.deepEqual(blockV2Preview.decode(v2Body({ buildingBlockDefinitionVersionRef: { uuid: VERSION.toUpperCase() } })).version, {
      uuid: VERSION,
    });
  });

  it('requires the uuid of a tenant target', () => {
    assert.throws(() => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshTenant' } })), badField('spec.targetRef.uuid'));
    assert.throws(
      () => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshTenant', identifier: 'dev' } })),
      badField('spec.targetRef.uuid'),
    );
  });

  it('names a workspace target by identifier or by name, echoed with the key sent', () => {
    const byIdentifier = blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace', identifier: 'dev' } }));
    assert.deepEqual(byIdentifier.target, { workspace: 'dev' });
    assert.deepEqual(byIdentifier.targetRef, { kind: 'meshWorkspace', identifier: 'dev' });
    const byName = blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace', name: 'dev' } }));
    assert.deepEqual(byName.target, { workspace: 'dev' });
    assert.deepEqual(byName.targetRef, { kind: 'meshWorkspace', name: 'dev' });
    const both = blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace', identifier: 'dev', name: 'dev' } }));
    assert.deepEqual(both.target, { workspace: 'dev' });
    assert.deepEqual(both.targetRef, { kind: 'meshWorkspace', identifier: 'dev' });
  });

  it('refuses a workspace target whose identifier and name differ, or that names none', () => {
    assert.throws(
      () => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace', identifier: 'dev', name: 'ops' } })),
      badField('spec.targetRef'),
    );
    assert.throws(() => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace' } })), badField('spec.targetRef.identifier'));
    assert.throws(
      () => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshWorkspace', identifier: 'Dev' } })),
      badField('spec.targetRef.identifier'),
    );
    assert.throws(
      () => blockV2Preview.decode(v2Body({ targetRef: { kind: 'meshProject', identifier: 'dev' } })),
      badField('spec.targetRef.kind'),
    );
  });

  it('takes inputs as spec rows', () => {
    const request = blockV2Preview.decode(
      v2Body({
        inputs: [
          { key: 'size', value: '16', valueType: 'INTEGER' },
          { key: 'flag', value: true },
        ],
      }),
    );
    assert.deepEqual(request.inputs, { size: { value: '16', valueType: 'INTEGER' }, flag: { value: true } });
  });

  it('takes inputs as a keyed map', () => {
    const inputs = { size: { value: 16, valueType: 'INTEGER' }, secret: { value: { plaintext: 'p' }, isSensitive: true } };
    assert.deepEqual(blockV2Preview.decode(v2Body({ inputs })).inputs, inputs);
  });

  it('takes absent inputs as none', () => {
    const body = v2Body();
    delete (body.spec as Record<string, unknown>).inputs;
    assert.deepEqual(blockV2Preview.decode(body).inputs, {});
  });

  it('refuses a key given twice, naming the later row', () => {
    assert.throws(
      () =>
        blockV2Preview.decode(
          v2Body({
            inputs: [
              { key: 'a', value: 1 },
              { key: 'b', value: 2 },
              { key: 'a', value: 3 },
            ],
          }),
        ),
      badField('spec.inputs[2].key'),
    );
  });

  it('refuses malformed inputs', () => {
    assert.throws(() => blockV2Preview.decode(v2Body({ inputs: 'size=16' })), badField('spec.inputs'));
    assert.throws(
      () => blockV2Preview.decode(v2Body({ inputs: { size: { value: 1, valueType: 'NUMBER' } } })),
      (error: ApiError) => error.status === 400 && error.message.startsWith('spec.inputs'),
    );
  });

  it('takes parents from parentBuildingBlocks', () => {
    assert.deepEqual(blockV2Preview.decode(v2Body({ parentBuildingBlocks: [{ buildingBlockUuid: P1, definitionUuid: DEF }] })).parents, [
      { buildingBlockUuid: P1, definitionUuid: DEF },
    ]);
  });

  it('takes parents from parentBuildingBlockRefs alone', () => {
    const body = v2Body({ parentBuildingBlockRefs: [{ kind: 'meshBuildingBlock', uuid: P1 }, { uuid: P2 }] });
    delete (body.spec as Record<string, unknown>).parentBuildingBlocks;
    assert.deepEqual(blockV2Preview.decode(body).parents, [{ buildingBlockUuid: P1 }, { buildingBlockUuid: P2 }]);
  });

  it('takes both forms when they name the same blocks (any order, any case), keeping parentBuildingBlocks', () => {
    const parents = [{ buildingBlockUuid: P1, definitionUuid: DEF }, { buildingBlockUuid: P2 }];
    const request = blockV2Preview.decode(
      v2Body({ parentBuildingBlocks: parents, parentBuildingBlockRefs: [{ uuid: P2.toUpperCase() }, { uuid: P1 }] }),
    );
    assert.deepEqual(request.parents, parents);
  });

  it('refuses both forms when they disagree', () => {
    assert.throws(
      () => blockV2Preview.decode(v2Body({ parentBuildingBlocks: [{ buildingBlockUuid: P1 }], parentBuildingBlockRefs: [{ uuid: P2 }] })),
      badField('spec.parentBuildingBlockRefs'),
    );
    assert.throws(
      () =>
        blockV2Preview.decode(
          v2Body({ parentBuildingBlocks: [{ buildingBlockUuid: P1 }], parentBuildingBlockRefs: [{ uuid: P1 }, { uuid: P2 }] }),
        ),
      badField('spec.parentBuildingBlockRefs'),
    );
  });

  it('requires one of the parent forms', () => {
    const body = v2Body();
    delete (body.spec as Record<string, unknown>).parentBuildingBlocks;
    assert.throws(() => blockV2Preview.decode(body), badField('spec.parentBuildingBlocks'));
  });

  it('refuses a body without a version reference or display name, naming the field', () => {
    assert.throws(
      () => blockV2Preview.decode(v2Body({ buildingBlockDefinitionVersionRef: undefined })),
      badField('spec.buildingBlockDefinitionVersionRef'),
    );
    assert.throws(
      () => blockV2Preview.decode(v2Body({ buildingBlockDefinitionVersionRef: { uuid: 'x' } })),
      badField('spec.buildingBlockDefinitionVersionRef.uuid'),
    );
    assert.throws(() => blockV2Preview.decode(v2Body({ displayName: '' })), badField('spec.displayName'));
    assert.throws(() => blockV2Preview.decode({ kind: 'meshBuildingBlock' }), badField('spec'));
  });
});

describe('blockV2Preview.decodeUpdate', () => {
  it('returns what a PUT may change: display name, inputs, version and parents', () => {
    const update = blockV2Preview.decodeUpdate(
      v2Body({
        displayName: 'Renamed',
        buildingBlockDefinitionVersionRef: { uuid: VERSION.toUpperCase() },
        inputs: { size: { value: 2 } },
        parentBuildingBlocks: [{ buildingBlockUuid: P1 }],
      }),
    );
    assert.deepEqual(update, {
      displayName: 'Renamed',
      inputs: { size: { value: 2 } },
      versionUuid: VERSION,
      parents: [{ buildingBlockUuid: P1 }],
    });
  });

  it('validates like a create', () => {
    assert.throws(() => blockV2Preview.decodeUpdate(v2Body({ displayName: '' })), badField('spec.displayName'));
    assert.throws(() => blockV2Preview.decodeUpdate(v2Body({ inputs: [{ key: 'a' }, { key: 'a' }] })), badField('spec.inputs[1].key'));
  });
});

describe('shared rows', () => {
  it('decodeInputs keeps a keyed map as it is and turns rows into one', () => {
    const keyed = { a: { value: 1 } };
    assert.equal(decodeInputs(keyed), keyed);
    assert.deepEqual(decodeInputs([{ key: 'a', value: 1, valueType: 'INTEGER' }]), { a: { value: 1, valueType: 'INTEGER' } });
  });

  it('decodeParents requires one form and compares both', () => {
    assert.throws(() => decodeParents(undefined, undefined), badField('spec.parentBuildingBlocks'));
    assert.deepEqual(decodeParents([], []), []);
    assert.deepEqual(decodeParents(undefined, [{ uuid: P1 }]), [{ buildingBlockUuid: P1 }]);
    assert.throws(() => decodeParents([], [{ uuid: P1 }]), badField('spec.parentBuildingBlockRefs'));
  });

  it('decodeParents refuses a parent named twice (in any letter case), naming the entry', () => {
    assert.throws(
      () => decodeParents([{ buildingBlockUuid: P1 }, { buildingBlockUuid: P1.toUpperCase() }], undefined),
      badField('spec.parentBuildingBlocks[1].buildingBlockUuid'),
    );
    assert.throws(() => decodeParents(undefined, [{ uuid: P2 }, { uuid: P2 }]), badField('spec.parentBuildingBlocks[1].buildingBlockUuid'));
  });
});

// ---- encoding ----

const sealed = sealSecrets({ plaintext: 's3cret' }, undefined, box, 'spec.inputs.secret') as { hash: string; ciphertext: string };
const sealedOutput = sealSecrets({ plaintext: 'out-secret' }, undefined, box, 'outputs.token') as { hash: string; ciphertext: string };

const inputs: ValueRow[] = [
  { key: 'size', value: 16, valueType: 'INTEGER', isSensitive: false, assignmentType: 'USER_INPUT' },
  { key: 'name', value: 'x', valueType: 'STRING', assignmentType: 'USER_INPUT' },
  { key: 'secret', value: sealed, valueType: 'STRING', isSensitive: true, assignmentType: 'USER_INPUT' },
];
const outputs: ValueRow[] = [
  { key: 'url', value: 'https://x', valueType: 'STRING' },
  { key: 'token', value: sealedOutput, valueType: 'STRING', isSensitive: true },
];

const tenantBlock: Block = {
  uuid: BLOCK,
  workspace: 'dev',
  targetKind: 'meshTenant',
  tenant: { uuid: TENANT, project: 'web', platformIdentifier: 'aws.eu' },
  definitionUuid: DEF,
  definitionOwner: 'platform',
  versionUuid: VERSION,
  versionNumber: 3,
  displayName: 'My block',
  status: 'SUCCEEDED',
  forcePurge: false,
  latestRunUuid: '2a1c8c1e-0000-4000-8000-0000000000e1',
  createdOn: '2025-01-01T00:00:00Z',
  createdBy: 'alice',
  inputs,
  parents: [{ buildingBlockUuid: P1, definitionUuid: DEF }],
  outputs,
};

const workspaceBlock: Block = {
  ...tenantBlock,
  uuid: '2a1c8c1e-0000-4000-8000-0000000000b2',
  targetKind: 'meshWorkspace',
  tenant: undefined,
  targetRef: { kind: 'meshWorkspace', name: 'dev' },
  latestRunUuid: undefined,
  parents: [],
  markedForDeletionOn: '2025-02-01T00:00:00Z',
  markedForDeletionBy: 'bob',
};

const expectedInputs = [
  { key: 'size', value: 16, valueType: 'INTEGER', isSensitive: false, assignmentType: 'USER_INPUT' },
  { key: 'name', value: 'x', valueType: 'STRING', isSensitive: false, assignmentType: 'USER_INPUT' },
  { key: 'secret', value: { hash: sealed.hash }, valueType: 'STRING', isSensitive: true, assignmentType: 'USER_INPUT' },
];
const expectedOutputs = [
  { key: 'url', value: 'https://x', valueType: 'STRING', isSensitive: false },
  { key: 'token', value: { hash: sealedOutput.hash }, valueType: 'STRING', isSensitive: true },
];

const noSecretsIn = (encoded: unknown) => {
  const text = JSON.stringify(encoded);
  assert.doesNotMatch(text, /ciphertext|s3cret|out-secret/);
  assert.ok(!text.includes(sealed.ciphertext));
};

describe('encodeRows', () => {
  it('shows sealed values {hash, ciphertext} only as {hash} and marks plain rows not sensitive', () => {
    assert.deepEqual(encodeRows(inputs), expectedInputs);
    assert.deepEqual(encodeRows(outputs), expectedOutputs);
    noSecretsIn(encodeRows(inputs));
  });
});

describe('blockV1.encode', () => {
  it('shows a tenant block in the v1 form', () => {
    const encoded = blockV1.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: false });
    assert.deepEqual(encoded, {
      apiVersion: 'v1',
      kind: 'meshBuildingBlock',
      metadata: {
        uuid: BLOCK,
        definitionUuid: DEF,
        definitionVersion: 3,
        tenantIdentifier: 'dev.web.aws.eu',
        forcePurge: false,
        createdOn: '2025-01-01T00:00:00Z',
      },
      spec: { displayName: 'My block', inputs: expectedInputs, parentBuildingBlocks: [{ buildingBlockUuid: P1, definitionUuid: DEF }] },
      status: { status: 'SUCCEEDED', outputs: expectedOutputs },
      _links: {
        self: { href: `${BASE}/api/meshobjects/meshbuildingblocks/${BLOCK}` },
        meshtenant: { href: `${BASE}/api/meshobjects/meshtenants/dev.web.aws.eu` },
      },
    });
    noSecretsIn(encoded);
  });

  it('links forcePurge only when the view may purge', () => {
    const encoded = blockV1.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: true });
    assert.deepEqual(encoded._links.forcePurge, { href: `${BASE}/api/meshobjects/meshbuildingblocks/${BLOCK}/purge` });
    assert.equal('forcePurge' in blockV1.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: false })._links, false);
  });

  it('shows deletion metadata when the block is marked for deletion', () => {
    const encoded = blockV1.encode(
      { ...tenantBlock, markedForDeletionOn: '2025-02-01T00:00:00Z', markedForDeletionBy: 'bob', forcePurge: true },
      { baseUrl: BASE, ...READER, showPurge: false },
    );
    assert.equal(encoded.metadata.markedForDeletionOn, '2025-02-01T00:00:00Z');
    assert.equal(encoded.metadata.markedForDeletionBy, 'bob');
    assert.equal(encoded.metadata.forcePurge, true);
  });

  it('has no representation of a workspace block', () => {
    assert.equal(blockV1.unrepresentable(tenantBlock), undefined);
    const reason = blockV1.unrepresentable(workspaceBlock);
    assert.ok(reason);
    assert.match(reason, new RegExp(workspaceBlock.uuid));
    assert.match(reason, /v2-preview/);
  });

  it('lists tenant blocks only, and nothing for a workspace-target filter', () => {
    assert.deepEqual(blockV1.listFilter({}), { targetKind: 'meshTenant' });
    assert.deepEqual(blockV1.listFilter({ workspace: 'dev', status: 'FAILED' }), {
      workspace: 'dev',
      status: 'FAILED',
      targetKind: 'meshTenant',
    });
    assert.deepEqual(blockV1.listFilter({ targetKind: 'meshTenant', workspace: 'dev' }), { targetKind: 'meshTenant', workspace: 'dev' });
    assert.equal(blockV1.listFilter({ targetKind: 'meshWorkspace' }), 'none');
    assert.equal(blockV1.listFilter({ targetKind: 'meshWorkspace', workspace: 'dev' }), 'none');
  });
});

describe('blockV2Preview.encode', () => {
  it('shows a tenant block in the v2-preview form', () => {
    const encoded = blockV2Preview.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: false });
    assert.deepEqual(encoded, {
      apiVersion: 'v2-preview',
      kind: 'meshBuildingBlock',
      metadata: { uuid: BLOCK, ownedByWorkspace: 'dev', createdOn: '2025-01-01T00:00:00Z' },
      spec: {
        displayName: 'My block',
        buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: VERSION },
        targetRef: { kind: 'meshTenant', uuid: TENANT },
        inputs: expectedInputs,
        parentBuildingBlocks: [{ buildingBlockUuid: P1, definitionUuid: DEF }],
        parentBuildingBlockRefs: [{ kind: 'meshBuildingBlock', uuid: P1 }],
      },
      status: {
        status: 'SUCCEEDED',
        outputs: expectedOutputs,
        forcePurge: false,
        lifecycle: { state: 'ACTIVE' },
        latestRunUuid: '2a1c8c1e-0000-4000-8000-0000000000e1',
        latestDryRunUuid: null,
      },
      _links: {
        self: { href: `${BASE}/api/meshobjects/meshbuildingblocks/${BLOCK}` },
        meshtenant: { href: `${BASE}/api/meshobjects/meshtenants/${TENANT}` },
      },
    });
    noSecretsIn(encoded);
  });

  it('shows a workspace block with the target as sent, its deletion state and no tenant link', () => {
    const encoded = blockV2Preview.encode(workspaceBlock, { baseUrl: BASE, ...READER, showPurge: true });
    assert.deepEqual(encoded.spec.targetRef, { kind: 'meshWorkspace', name: 'dev' });
    assert.deepEqual(encoded.metadata, {
      uuid: workspaceBlock.uuid,
      ownedByWorkspace: 'dev',
      createdOn: '2025-01-01T00:00:00Z',
      markedForDeletionOn: '2025-02-01T00:00:00Z',
      markedForDeletionBy: 'bob',
    });
    assert.deepEqual(encoded.status.lifecycle, { state: 'MARKED_FOR_DELETION' });
    assert.equal(encoded.status.latestRunUuid, null);
    assert.deepEqual(encoded._links, {
      self: { href: `${BASE}/api/meshobjects/meshbuildingblocks/${workspaceBlock.uuid}` },
      forcePurge: { href: `${BASE}/api/meshobjects/meshbuildingblocks/${workspaceBlock.uuid}/purge` },
    });
    noSecretsIn(encoded);
  });

  it('derives the target of a block stored without the sent reference', () => {
    assert.deepEqual(
      blockV2Preview.encode({ ...workspaceBlock, targetRef: undefined }, { baseUrl: BASE, ...READER, showPurge: false }).spec.targetRef,
      { kind: 'meshWorkspace', identifier: 'dev' },
    );
    assert.deepEqual(
      blockV2Preview.encode(
        { ...tenantBlock, targetRef: { kind: 'meshTenant', uuid: TENANT.toUpperCase() } },
        { baseUrl: BASE, ...READER, showPurge: false },
      ).spec.targetRef,
      {
        kind: 'meshTenant',
        uuid: TENANT.toUpperCase(),
      },
    );
  });

  it('links forcePurge only when the view may purge', () => {
    assert.equal('forcePurge' in blockV2Preview.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: false })._links, false);
    assert.ok('forcePurge' in blockV2Preview.encode(tenantBlock, { baseUrl: BASE, ...READER, showPurge: true })._links);
  });
});

describe('BLOCK_CODECS', () => {
  it('serves v1 and v2-preview of meshBuildingBlock', () => {
    assert.equal(BLOCK_CODECS.kind, 'meshBuildingBlock');
    assert.deepEqual(BLOCK_CODECS.media, [
      { kind: 'meshbuildingblock', version: 'v1' },
      { kind: 'meshbuildingblock', version: 'v2-preview' },
    ]);
    assert.equal(BLOCK_CODECS.of('v1'), blockV1);
    assert.equal(BLOCK_CODECS.of('v2-preview'), blockV2Preview);
    assert.equal(BLOCK_CODECS.has('v2'), false);
    assert.throws(() => BLOCK_CODECS.of('v2'));
  });

  it('only v2-preview takes a PUT body; only v1 restricts lists', () => {
    assert.equal(typeof BLOCK_CODECS.of('v2-preview').decodeUpdate, 'function');
    assert.equal(BLOCK_CODECS.of('v1').decodeUpdate, undefined);
    assert.equal(BLOCK_CODECS.of('v2-preview').listFilter, undefined);
  });
});

describe('the meshcloud form of v2-preview', () => {
  it('keys inputs and outputs by name under meshcloud; the spec vendor keeps the rows; everything else is the same', () => {
    const view = { baseUrl: BASE, ...READER, showPurge: false };
    const block: Block = { ...tenantBlock, outputs: [{ key: 'url', value: 'https://x', valueType: 'STRING', assignmentType: 'NONE' }] };
    const rows = BLOCK_CODECS.of('v2-preview', 'vendor').encode(block, view) as ReturnType<typeof blockV2Preview.encode>;
    const keyed = BLOCK_CODECS.of('v2-preview', 'meshcloud').encode(block, view) as unknown as {
      spec: { inputs: Record<string, unknown> };
      status: { outputs: Record<string, unknown> };
    };
    assert.ok(Array.isArray(rows.spec.inputs));
    assert.deepEqual(keyed.spec.inputs, Object.fromEntries((rows.spec.inputs as { key: string }[]).map(({ key, ...row }) => [key, row])));
    assert.deepEqual(keyed.status.outputs, {
      url: { value: 'https://x', valueType: 'STRING', assignmentType: 'NONE', isSensitive: false },
    });
    assert.deepEqual(
      { ...keyed, spec: { ...keyed.spec, inputs: undefined }, status: { ...keyed.status, outputs: undefined } },
      { ...rows, spec: { ...rows.spec, inputs: undefined }, status: { ...rows.status, outputs: undefined } },
    );
    assert.notEqual(BLOCK_CODECS.of('v2-preview', 'meshcloud').schema, blockV2Preview.schema);
    assert.equal(BLOCK_CODECS.of('v1', 'meshcloud'), blockV1, 'a version without vendor forms answers alike under both');
  });
});
