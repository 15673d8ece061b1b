import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseRunnerFilter } from './query.js';

it('parseRunnerFilter takes the owning workspace, ignoring an empty one', () => {
  assert.deepEqual(parseRunnerFilter({ workspaceIdentifier: 'dev', other: 'x' }), { workspace: 'dev' });
  assert.equal(parseRunnerFilter({ workspaceIdentifier: '' }).workspace, undefined);
});
