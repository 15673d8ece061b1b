import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseClaimForNode, parseClaimForRunner, parseRunFilter } from './query.js';

const badRequestNaming = (field: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${field}:`);

describe('parseRunFilter', () => {
  it('takes a block uuid in its canonical form and a node id, ignoring empty ones', () => {
    assert.deepEqual(parseRunFilter({}), {});
    assert.deepEqual(parseRunFilter({ buildingBlockUuid: '', runnerNodeId: '' }), {});
    assert.deepEqual(parseRunFilter({ buildingBlockUuid: '0B8C5A3E-2D41-4F6A-9C7E-8E1F2A3B4C5D', runnerNodeId: 'node-1' }), {
      blockUuid: '0b8c5a3e-2d41-4f6a-9c7e-8e1f2a3b4c5d',
      nodeId: 'node-1',
    });
  });

  it('refuses a block uuid that is none, naming the parameter', () => {
    assert.throws(() => parseRunFilter({ buildingBlockUuid: 'block-1' }), badRequestNaming('buildingBlockUuid'));
  });
});

describe('the claim parameters', () => {
  it('require the runner or the node, naming the parameter', () => {
    assert.equal(parseClaimForRunner({ forRunnerUuid: 'r-1' }), 'r-1');
    assert.throws(() => parseClaimForRunner({ forRunnerUuid: '' }), badRequestNaming('forRunnerUuid'));
    assert.deepEqual(parseClaimForNode({ runnerNodeId: 'n-1' }), { nodeId: 'n-1' });
    assert.deepEqual(parseClaimForNode({ runnerNodeId: 'n-1', selector: 'terraform' }), { nodeId: 'n-1', selector: 'terraform' });
    assert.throws(() => parseClaimForNode({ selector: 'terraform' }), badRequestNaming('runnerNodeId'));
  });
});
