import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseLocationFilter } from './query.js';

it('parseLocationFilter takes the display name as sent (exact), ignoring an empty one', () => {
  assert.equal(parseLocationFilter({ displayName: 'EU West' }).displayName, 'EU West');
  assert.equal(parseLocationFilter({ displayName: '' }).displayName, undefined);
});
