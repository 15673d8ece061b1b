import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseTenantFilter } from './query.js';

describe('parseTenantFilter', () => {
  it('defaults to live tenants and maps every spec parameter', () => {
    assert.deepEqual(parseTenantFilter({}), { deletionState: 'ACTIVE' });
    assert.deepEqual(parseTenantFilter({ workspaceIdentifier: 'ws', projectIdentifier: 'p', platformIdentifier: 'aws.eu', deletionState: 'ALL' }), {
      deletionState: 'ALL',
      workspace: 'ws',
      project: 'p',
      platform: { name: 'aws', location: 'eu' },
    });
  });

  it('matches nothing for a platform identifier of another shape and rejects unknown deletion states', () => {
    assert.equal(parseTenantFilter({ platformIdentifier: 'aws' }), 'none');
    assert.throws(() => parseTenantFilter({ deletionState: 'GONE' }), (error: ApiError) => error.status === 400 && error.message.startsWith('deletionState:'));
  });
});
