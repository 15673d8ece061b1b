import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parsePaymentMethodFilter } from './query.js';

it('parsePaymentMethodFilter takes the owning workspace, ignoring an empty one', () => {
  assert.equal(parsePaymentMethodFilter({ workspaceIdentifier: 'dev' }).workspace, 'dev');
  assert.equal(parsePaymentMethodFilter({}).workspace, undefined);
});
