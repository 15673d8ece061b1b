import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseDefinitionQuery, parseVersionQuery } from './query.js';

describe('parseDefinitionQuery', () => {
  it('reads the workspace from the spec parameter or its alias, and the marketplace switch', () => {
    assert.deepEqual(parseDefinitionQuery({}), {});
    assert.deepEqual(parseDefinitionQuery({ workspaceIdentifier: 'a', ownedByWorkspace: 'b' }), { workspace: 'a' });
    assert.deepEqual(parseDefinitionQuery({ ownedByWorkspace: 'b', includeAllPublished: 'true' }), {
      workspace: 'b',
      includeAllPublished: true,
    });
    assert.deepEqual(parseDefinitionQuery({ includeAllPublished: 'false' }), {});
    assert.throws(
      () => parseDefinitionQuery({ includeAllPublished: 'yes' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('includeAllPublished'),
    );
  });
});

describe('parseVersionQuery', () => {
  it('takes a uuid and refuses anything else', () => {
    assert.deepEqual(parseVersionQuery({ buildingBlockDefinitionUuid: '' }), {});
    assert.deepEqual(parseVersionQuery({ buildingBlockDefinitionUuid: 'a0a5c80e-fefb-4177-8848-b9170db4e08d' }), {
      definitionUuid: 'a0a5c80e-fefb-4177-8848-b9170db4e08d',
    });
    assert.throws(
      () => parseVersionQuery({ buildingBlockDefinitionUuid: 'nope' }),
      (error: ApiError) => error.status === 400,
    );
  });
});
