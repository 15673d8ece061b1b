import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseIntegrationFilter } from './query.js';

describe('parseIntegrationFilter', () => {
  it('maps the documented parameters and ignores empty ones', () => {
    assert.deepEqual(parseIntegrationFilter({}), {});
    assert.deepEqual(parseIntegrationFilter({ displayName: 'GH', ownedByWorkspace: 'ws', type: 'AZURE_DEVOPS' }), {
      displayName: 'GH',
      ownedByWorkspace: 'ws',
      type: 'AZURE_DEVOPS',
    });
    assert.deepEqual(parseIntegrationFilter({ type: '' }), {});
  });

  it('rejects undocumented types naming the parameter', () => {
    assert.throws(
      () => parseIntegrationFilter({ type: 'github' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('type:'),
    );
  });
});
