import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { valueProblem } from './value-types.js';

describe('valueProblem', () => {
  it('accepts each type in its native JSON form', () => {
    assert.equal(valueProblem('STRING', 'x'), undefined);
    assert.equal(valueProblem('CODE', '{"a":1}'), undefined);
    assert.equal(valueProblem('INTEGER', 16), undefined);
    assert.equal(valueProblem('BOOLEAN', false), undefined);
    assert.equal(valueProblem('FILE', 'data:text/plain;base64,aGk='), undefined);
    assert.equal(valueProblem('LIST', ['a', 1]), undefined);
    assert.equal(valueProblem('SINGLE_SELECT', 'b', ['a', 'b']), undefined);
    assert.equal(valueProblem('MULTI_SELECT', ['a'], ['a', 'b']), undefined);
  });

  it('names what is wrong otherwise', () => {
    assert.match(valueProblem('INTEGER', '16')!, /integer/);
    assert.match(valueProblem('INTEGER', 1.5)!, /integer/);
    assert.match(valueProblem('BOOLEAN', 'true')!, /boolean/);
    assert.match(valueProblem('FILE', 'hello')!, /data URL/);
    assert.match(valueProblem('SINGLE_SELECT', 'c', ['a', 'b'])!, /selectable/);
    assert.match(valueProblem('MULTI_SELECT', ['a', 2], ['a'])!, /strings/);
  });
});
