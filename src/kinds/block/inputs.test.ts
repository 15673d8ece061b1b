import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import type { VersionSpec } from '../definition/model.js';
import { checkBlockInputs, mergeRows, missingInputState, nativeValue } from './inputs.js';

const version = {
  buildingBlockDefinitionRef: { uuid: '00000000-0000-4000-8000-000000000001' },
  versionNumber: 1,
  state: 'RELEASED',
  implementation: { type: 'manual' },
  outputs: {},
  inputs: {
    size: { displayName: 'Size', type: 'INTEGER', assignmentType: 'USER_INPUT' },
    name: {
      displayName: 'Name',
      type: 'STRING',
      assignmentType: 'USER_INPUT',
      valueValidationRegex: '^[a-z]+$',
      validationRegexErrorMessage: 'lower-case letters only',
    },
    tier: { displayName: 'Tier', type: 'SINGLE_SELECT', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT', selectableValues: ['a', 'b'] },
    region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'eu' },
    secret: { displayName: 'Secret', type: 'STRING', assignmentType: 'USER_INPUT', isSensitive: true, defaultValue: { hash: 'sha256:x' } },
  },
} as unknown as VersionSpec;

const fails = (pattern: RegExp) => (error: ApiError) => error.status === 400 && pattern.test(error.message);

describe('block inputs', () => {
  it('keeps values as sent, typed by the version', () => {
    const rows = checkBlockInputs({ size: { value: '16' }, name: { value: 'abc', valueType: 'STRING' }, secret: { value: 'p' } }, version);
    assert.deepEqual(
      rows.map((r) => [r.key, r.value, r.valueType, r.isSensitive, r.assignmentType]),
      [
        ['size', '16', 'INTEGER', false, 'USER_INPUT'],
        ['name', 'abc', 'STRING', false, 'USER_INPUT'],
        ['secret', 'p', 'STRING', true, 'USER_INPUT'],
      ],
    );
    assert.equal(nativeValue('INTEGER', '16'), 16);
    assert.deepEqual(nativeValue('LIST', '["a"]'), ['a']);
  });

  it('refuses inputs that are not the user’s or operator’s, wrong types, bad values and regex misses', () => {
    assert.throws(
      () => checkBlockInputs({ region: { value: 'us' } }, version),
      fails(/is not defined as a customer or platform-operator input/),
    );
    assert.throws(
      () => checkBlockInputs({ nope: { value: 1 } }, version),
      fails(/is not defined as a customer or platform-operator input/),
    );
    assert.throws(() => checkBlockInputs({ constructor: { value: 1 } }, version), fails(/is not defined/));
    assert.throws(() => checkBlockInputs({ size: { value: 1, valueType: 'STRING' } }, version), fails(/valueType/));
    assert.throws(() => checkBlockInputs({ size: { value: 'big' } }, version), fails(/integer/));
    assert.throws(() => checkBlockInputs({ tier: { value: 'c' } }, version), fails(/selectable/));
    assert.throws(() => checkBlockInputs({ name: { value: 'ABC' } }, version), fails(/lower-case letters only/));
    assert.throws(() => checkBlockInputs({ secret: { value: 5 } }, version), fails(/sensitive/));
  });

  it('waits for operator inputs before user inputs, and merges changes over current rows', () => {
    assert.equal(missingInputState(version, []), 'WAITING_FOR_OPERATOR_INPUT');
    const tier = checkBlockInputs({ tier: { value: 'a' } }, version);
    assert.equal(missingInputState(version, tier), 'WAITING_FOR_USER_INPUT');
    const all = mergeRows(tier, checkBlockInputs({ size: { value: 1 }, name: { value: 'x' } }, version));
    assert.equal(missingInputState(version, all), undefined);
    assert.deepEqual(mergeRows(all, checkBlockInputs({ size: { value: 2 } }, version)).find((r) => r.key === 'size')!.value, 2);
  });
});
