import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseBlockFilter } from './query.js';

const UUID = '0d4c5a1e-7f0b-4c55-9a7e-1b2c3d4e5f01';
const bad = (name: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${name}:`);

describe('parseBlockFilter', () => {
  it('maps every documented filter, both version number forms, upper-case uuids to lower case', () => {
    assert.deepEqual(
      parseBlockFilter({ workspaceIdentifier: 'ws', name: 'n', definitionName: 'd', versionNumber: 'v3', status: 'FAILED' }),
      {
        filter: { workspace: 'ws', displayName: 'n', definitionName: 'd', status: 'FAILED', versionNumber: 3 },
      },
    );
    assert.deepEqual(parseBlockFilter({ versionNumber: '3' }), { filter: { versionNumber: 3 } });
    assert.deepEqual(
      parseBlockFilter({
        projectIdentifier: 'p',
        platformIdentifier: 'aws.eu',
        versionUuid: UUID,
        tenantUuid: UUID.toUpperCase(),
        targetRefKind: 'meshTenant',
        managedByWorkspaceIdentifier: 'ops',
        managedByDefinitionUuid: UUID,
      }),
      {
        filter: { project: 'p', platformIdentifier: 'aws.eu', versionUuid: UUID, tenantUuid: UUID, targetKind: 'meshTenant' },
        managedByWorkspace: 'ops',
        managedByDefinition: UUID,
      },
    );
  });

  it('ignores empty and unknown parameters', () => {
    assert.deepEqual(parseBlockFilter({ workspaceIdentifier: '', status: '', other: 'x' }), { filter: {} });
  });

  it('answers 400 naming the parameter for invalid values, and nothing for WAITING_FOR_APPROVAL', () => {
    assert.throws(() => parseBlockFilter({ versionNumber: 'three' }), bad('versionNumber'));
    assert.throws(() => parseBlockFilter({ status: 'DONE' }), bad('status'));
    assert.throws(() => parseBlockFilter({ targetRefKind: 'meshProject' }), bad('targetRefKind'));
    assert.throws(() => parseBlockFilter({ definitionUuid: 'x' }), bad('definitionUuid'));
    assert.throws(() => parseBlockFilter({ managedByDefinitionUuid: 'x' }), bad('managedByDefinitionUuid'));
    assert.equal(parseBlockFilter({ status: 'WAITING_FOR_APPROVAL' }), 'none');
  });
});
