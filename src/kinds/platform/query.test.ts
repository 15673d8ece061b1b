import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePlatformFilter } from './query.js';

describe('parsePlatformFilter', () => {
  it('splits the full identifier and combines it with the other filters', () => {
    assert.deepEqual(parsePlatformFilter({ identifier: 'azure.eu-west', ownedByWorkspace: 'ops', platformTypeIdentifier: 'azure' }), { name: 'azure', location: 'eu-west', ownedByWorkspace: 'ops', platformType: 'AZURE' });
    assert.deepEqual(parsePlatformFilter({ locationIdentifier: 'eu-west', identifier: '' }), { location: 'eu-west' });
  });

  it('matches nothing for an identifier of another shape or a contradicting location', () => {
    assert.equal(parsePlatformFilter({ identifier: 'azure' }), 'none');
    assert.equal(parsePlatformFilter({ identifier: 'a.b.c' }), 'none');
    assert.equal(parsePlatformFilter({ identifier: 'azure.eu-west', locationIdentifier: 'us-east' }), 'none');
  });
});
