import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseProjectFilter } from './query.js';

describe('parseProjectFilter', () => {
  it('maps the spec parameters and ignores empty ones', () => {
    assert.deepEqual(parseProjectFilter({}), {});
    assert.deepEqual(parseProjectFilter({ workspaceIdentifier: 'ws', paymentIdentifier: 'pm', state: 'ACTIVE' }), { workspace: 'ws', paymentMethod: 'pm' });
    assert.deepEqual(parseProjectFilter({ workspaceIdentifier: '', state: '' }), {});
  });

  it('matches nothing for DELETED and rejects other states naming the parameter', () => {
    assert.equal(parseProjectFilter({ state: 'DELETED' }), 'none');
    assert.throws(() => parseProjectFilter({ state: 'active' }), (error: ApiError) => error.status === 400 && error.message.startsWith('state:'));
  });
});
