import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseProjectFilter } from './query.js';

describe('parseProjectFilter', () => {
  it('maps the spec parameters and ignores empty ones', () => {
    assert.deepEqual(parseProjectFilter({}), {});
    assert.deepEqual(parseProjectFilter({ workspaceIdentifier: 'ws', paymentIdentifier: 'pm', state: 'ACTIVE' }), {
      workspace: 'ws',
      paymentMethod: 'pm',
    });
    assert.deepEqual(parseProjectFilter({ workspaceIdentifier: '', state: '' }), {});
  });

  it('takes comma-separated states (any of them): with ACTIVE every live project, without it nothing', () => {
    assert.deepEqual(parseProjectFilter({ state: 'DELETED,ACTIVE' }), {});
    assert.deepEqual(parseProjectFilter({ state: 'ACTIVE, PENDING_DELETION' }), {});
    assert.equal(parseProjectFilter({ state: 'DELETED' }), 'none');
    assert.equal(parseProjectFilter({ state: 'PENDING_DELETION' }), 'none');
    assert.equal(parseProjectFilter({ state: 'PENDING_DELETION,DELETED' }), 'none');
  });

  it('rejects other states naming the parameter', () => {
    for (const state of ['active', 'ACTIVE,GONE', 'ACTIVE,']) {
      assert.throws(
        () => parseProjectFilter({ state }),
        (error: ApiError) => error.status === 400 && error.message.startsWith('state:'),
        state,
      );
    }
  });
});
