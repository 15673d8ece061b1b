import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parsePlatformTypeFilter } from './query.js';

describe('parsePlatformTypeFilter', () => {
  it('maps the documented parameters and ignores empty ones', () => {
    assert.deepEqual(parsePlatformTypeFilter({}), {});
    assert.deepEqual(parsePlatformTypeFilter({ category: 'CUSTOM', lifecycleStatus: 'DEACTIVATED' }), {
      category: 'CUSTOM',
      lifecycleState: 'DEACTIVATED',
    });
    assert.deepEqual(parsePlatformTypeFilter({ category: '', lifecycleStatus: '' }), {});
  });

  it('rejects undocumented values naming the parameter', () => {
    assert.throws(
      () => parsePlatformTypeFilter({ category: 'custom' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('category:'),
    );
    assert.throws(
      () => parsePlatformTypeFilter({ lifecycleStatus: 'GONE' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('lifecycleStatus:'),
    );
  });
});
