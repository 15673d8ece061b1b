import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../errors.js';
import { parseBlockFilter } from './parse-block-filter.js';

const UUID = '0d4c5a1e-7f0b-4c55-9a7e-1b2c3d4e5f01';
const bad = (name: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${name}:`);

describe('parseBlockFilter', () => {
  it('maps v1 filters, with tenant blocks only and both version number forms', () => {
    assert.deepEqual(parseBlockFilter({ workspaceIdentifier: 'ws', name: 'n', definitionName: 'd', versionNumber: 'v3', status: 'FAILED', tenantUuid: 'ignored' }, 'v1'), {
      filter: { workspace: 'ws', displayName: 'n', status: 'FAILED', targetKind: 'meshTenant', definitionName: 'd', versionNumber: 3 },
    });
    assert.equal(parseBlockFilter({ versionNumber: '3' }, 'v1') !== 'none' && (parseBlockFilter({ versionNumber: '3' }, 'v1') as { filter: { versionNumber: number } }).filter.versionNumber, 3);
    assert.throws(() => parseBlockFilter({ versionNumber: 'three' }, 'v1'), bad('versionNumber'));
  });

  it('maps v2-preview filters and the managedBy parameters', () => {
    assert.deepEqual(parseBlockFilter({ projectIdentifier: 'p', platformIdentifier: 'aws.eu', versionUuid: UUID, tenantUuid: UUID.toUpperCase(), targetRefKind: 'meshTenant', managedByWorkspaceIdentifier: 'ops', managedByDefinitionUuid: UUID }, 'v2-preview'), {
      filter: { project: 'p', platformIdentifier: 'aws.eu', versionUuid: UUID, tenantUuid: UUID, targetKind: 'meshTenant' },
      managedByWorkspace: 'ops',
      managedByDefinition: UUID,
    });
  });

  it('answers 400 naming the parameter for invalid values, and nothing for WAITING_FOR_APPROVAL', () => {
    assert.throws(() => parseBlockFilter({ status: 'DONE' }, 'v2-preview'), bad('status'));
    assert.throws(() => parseBlockFilter({ targetRefKind: 'meshProject' }, 'v2-preview'), bad('targetRefKind'));
    assert.throws(() => parseBlockFilter({ definitionUuid: 'x' }, 'v1'), bad('definitionUuid'));
    assert.throws(() => parseBlockFilter({ managedByDefinitionUuid: 'x' }, 'v2-preview'), bad('managedByDefinitionUuid'));
    assert.equal(parseBlockFilter({ status: 'WAITING_FOR_APPROVAL' }, 'v1'), 'none');
  });
});
