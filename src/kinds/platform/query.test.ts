import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseQueryString } from '../../lib/query.js';
import { parsePlatformFilter } from './query.js';

const bad = (name: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${name}:`);

describe('parsePlatformFilter', () => {
  it('splits the full identifier and combines it with the other filters', () => {
    assert.deepEqual(parsePlatformFilter({ identifier: 'azure.eu-west', ownedByWorkspace: 'ops', platformTypeIdentifier: 'azure' }), {
      name: 'azure',
      location: 'eu-west',
      ownedByWorkspace: 'ops',
      platformType: 'AZURE',
    });
    assert.deepEqual(parsePlatformFilter({ locationIdentifier: 'eu-west', identifier: '' }), { location: 'eu-west' });
  });

  it('maps publicationState, restriction, displayName and every contributingWorkspace (OR)', () => {
    const query = parseQueryString(
      'publicationState=PUBLISHED&restriction=RESTRICTED&displayName=My%20Cloud&contributingWorkspace=a&contributingWorkspace=b&contributingWorkspace=',
    );
    assert.deepEqual(parsePlatformFilter(query), {
      publicationState: 'PUBLISHED',
      restriction: 'RESTRICTED',
      displayName: 'My Cloud',
      contributingWorkspaces: ['a', 'b'],
    });
    assert.deepEqual(parsePlatformFilter({ contributingWorkspace: 'solo' }), { contributingWorkspaces: ['solo'] });
  });

  it('ignores empty and unknown parameters', () => {
    assert.deepEqual(
      parsePlatformFilter({ publicationState: '', restriction: '', displayName: '', contributingWorkspace: '', searchTerm: 'x' }),
      {},
    );
  });

  it('answers 400 naming the parameter for a publication state or restriction outside the lists', () => {
    assert.throws(() => parsePlatformFilter({ publicationState: 'published' }), bad('publicationState'));
    assert.throws(() => parsePlatformFilter({ restriction: 'EVERYONE' }), bad('restriction'));
  });

  it('matches nothing for an identifier of another shape or a contradicting location', () => {
    assert.equal(parsePlatformFilter({ identifier: 'azure' }), 'none');
    assert.equal(parsePlatformFilter({ identifier: 'a.b.c' }), 'none');
    assert.equal(parsePlatformFilter({ identifier: 'azure.eu-west', locationIdentifier: 'us-east' }), 'none');
  });
});
