import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DefinitionVersion, VersionInput } from '../definition/model.js';
import { blockStatusFor, waitingStatus } from './lifecycle.js';
import { BLOCK_STATUSES, type Block, type BlockStatus, type ParentRef, type ValueRow } from './model.js';
import { RUN_STATUSES, type RunBehavior, type RunStatus } from './run.js';

const DEF = '00000000-0000-4000-8000-00000000000d';
const parentRef = (n: number): ParentRef => ({ buildingBlockUuid: `00000000-0000-4000-8000-00000000010${n}`, definitionUuid: DEF });

function versionWith(inputs: Record<string, VersionInput>): DefinitionVersion {
  return {
    uuid: '00000000-0000-4000-8000-0000000000f1',
    definitionUuid: DEF,
    ownedByWorkspace: 'platform',
    createdOn: '2025-01-01T00:00:00Z',
    spec: { versionNumber: 1, state: 'RELEASED', implementation: { type: 'manual' }, inputs, outputs: {} },
  };
}

const version = versionWith({
  operator: { displayName: 'Operator', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT' },
  user: { displayName: 'User', type: 'INTEGER', assignmentType: 'USER_INPUT' },
  region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'eu' },
  fromParent: { displayName: 'From parent', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: `${DEF}.out` },
  workspace: { displayName: 'Workspace', type: 'STRING', assignmentType: 'WORKSPACE_IDENTIFIER' },
});

const row = (key: string, value: unknown, valueType: ValueRow['valueType'] = 'STRING'): ValueRow => ({
  key,
  value,
  valueType,
  isSensitive: false,
});
const allInputs = [row('operator', 'op'), row('user', 3, 'INTEGER')];
const block = (inputs: ValueRow[], parents: ParentRef[] = []): Pick<Block, 'parents' | 'inputs'> => ({ inputs, parents });
const parent = (status: BlockStatus): Pick<Block, 'status'> => ({ status });

describe('waitingStatus', () => {
  it('is undefined when there are no parents and every supplied input has a value', () => {
    assert.equal(waitingStatus(version, block(allInputs), []), undefined);
  });

  it('is undefined when every parent SUCCEEDED and every supplied input has a value', () => {
    assert.equal(
      waitingStatus(version, block(allInputs, [parentRef(1), parentRef(2)]), [parent('SUCCEEDED'), parent('SUCCEEDED')]),
      undefined,
    );
  });

  it('waits for a dependent input while a parent is missing (not found or not visible)', () => {
    assert.equal(
      waitingStatus(version, block(allInputs, [parentRef(1), parentRef(2)]), [parent('SUCCEEDED')]),
      'WAITING_FOR_DEPENDENT_INPUT',
    );
    assert.equal(waitingStatus(version, block(allInputs, [parentRef(1)]), []), 'WAITING_FOR_DEPENDENT_INPUT');
  });

  for (const status of BLOCK_STATUSES.filter((s) => s !== 'SUCCEEDED')) {
    it(`waits for a dependent input while a parent is ${status}`, () => {
      assert.equal(
        waitingStatus(version, block(allInputs, [parentRef(1), parentRef(2)]), [parent('SUCCEEDED'), parent(status)]),
        'WAITING_FOR_DEPENDENT_INPUT',
      );
    });
  }

  it('checks parents before inputs', () => {
    assert.equal(waitingStatus(version, block([], [parentRef(1)]), [parent('FAILED')]), 'WAITING_FOR_DEPENDENT_INPUT');
    assert.equal(waitingStatus(version, block([], [parentRef(1)]), []), 'WAITING_FOR_DEPENDENT_INPUT');
  });

  it('waits for an operator input before a user input', () => {
    assert.equal(waitingStatus(version, block([]), []), 'WAITING_FOR_OPERATOR_INPUT');
    assert.equal(waitingStatus(version, block([row('user', 1, 'INTEGER')]), []), 'WAITING_FOR_OPERATOR_INPUT');
    assert.equal(
      waitingStatus(version, block([row('user', 1, 'INTEGER')], [parentRef(1)]), [parent('SUCCEEDED')]),
      'WAITING_FOR_OPERATOR_INPUT',
    );
  });

  it('waits for a user input once operator inputs are given', () => {
    assert.equal(waitingStatus(version, block([row('operator', 'op')]), []), 'WAITING_FOR_USER_INPUT');
  });

  it('counts defaults as given', () => {
    const withDefaults = versionWith({
      operator: { displayName: 'Operator', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT', defaultValue: 'op' },
      user: { displayName: 'User', type: 'INTEGER', assignmentType: 'USER_INPUT', defaultValue: 1 },
      sensitive: {
        displayName: 'Secret',
        type: 'STRING',
        assignmentType: 'USER_INPUT',
        isSensitive: true,
        defaultValue: { hash: 'sha256:00' },
      },
    });
    assert.equal(waitingStatus(withDefaults, block([]), []), undefined);
    const operatorDefaultOnly = versionWith({
      operator: { displayName: 'Operator', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT', defaultValue: 'op' },
      user: { displayName: 'User', type: 'INTEGER', assignmentType: 'USER_INPUT' },
    });
    assert.equal(waitingStatus(operatorDefaultOnly, block([]), []), 'WAITING_FOR_USER_INPUT');
  });

  it('does not wait for inputs the service resolves (static, parent outputs, identifiers)', () => {
    const resolvedOnly = versionWith({
      region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'eu' },
      fromParent: { displayName: 'From parent', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: `${DEF}.out` },
      author: { displayName: 'Author', type: 'STRING', assignmentType: 'AUTHOR' },
    });
    assert.equal(waitingStatus(resolvedOnly, block([]), []), undefined);
  });
});

describe('blockStatusFor', () => {
  const expected: Record<RunBehavior, Record<RunStatus, BlockStatus>> = {
    APPLY: { PENDING: 'PENDING', IN_PROGRESS: 'IN_PROGRESS', SUCCEEDED: 'SUCCEEDED', FAILED: 'FAILED', ABORTED: 'ABORTED' },
    DESTROY: { PENDING: 'PENDING', IN_PROGRESS: 'IN_PROGRESS', SUCCEEDED: 'SUCCEEDED', FAILED: 'FAILED', ABORTED: 'ABORTED' },
  };
  for (const behavior of ['APPLY', 'DESTROY'] as const) {
    for (const status of RUN_STATUSES) {
      it(`${behavior} run ${status} → block ${expected[behavior][status]}`, () => {
        const result = blockStatusFor(behavior, status);
        assert.equal(result, expected[behavior][status]);
        assert.ok((BLOCK_STATUSES as readonly string[]).includes(result));
      });
    }
  }
});
