import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseApiKeyFilter } from './query.js';

it('parseApiKeyFilter takes the workspace, ignoring an empty one', () => {
  assert.deepEqual(parseApiKeyFilter({ workspaceIdentifier: 'dev' }), { workspace: 'dev' });
  assert.deepEqual(parseApiKeyFilter({ workspaceIdentifier: '' }), {});
});
