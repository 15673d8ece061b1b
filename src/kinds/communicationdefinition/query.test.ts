import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseCommunicationDefinitionFilter } from './query.js';

describe('parseCommunicationDefinitionFilter', () => {
  it('takes a documented type and ignores an empty or unknown parameter', () => {
    assert.deepEqual(parseCommunicationDefinitionFilter({}), {});
    assert.deepEqual(parseCommunicationDefinitionFilter({ type: '', other: 'x' }), {});
    assert.deepEqual(parseCommunicationDefinitionFilter({ type: 'NOTIFICATION' }), { type: 'NOTIFICATION' });
    assert.deepEqual(parseCommunicationDefinitionFilter({ type: 'ACTION_REQUIRED' }), { type: 'ACTION_REQUIRED' });
  });

  it('answers another value with a 400 naming the parameter and the values', () => {
    assert.throws(
      () => parseCommunicationDefinitionFilter({ type: 'action_required' }),
      (error: ApiError) => error.status === 400 && /^type: must be one of ACTION_REQUIRED, NOTIFICATION/.test(error.message),
    );
  });
});
