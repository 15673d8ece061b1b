import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesPattern, patternProblem } from './patterns.js';

describe('user-supplied patterns', () => {
  it('match as RegExp.test does: a search, anchored only when the pattern says so', () => {
    assert.equal(matchesPattern('^[a-z]+$', 'abc'), true);
    assert.equal(matchesPattern('^[a-z]+$', 'abc1'), false);
    assert.equal(matchesPattern('[0-9]', 'a1b'), true);
  });

  it('run in linear time: the classic catastrophic pattern answers at once', () => {
    const started = performance.now();
    assert.equal(matchesPattern('^([a-z0-9]+)*$', `${'a'.repeat(5000)}!`), false);
    assert.ok(performance.now() - started < 1000, 'a backtracking engine would take longer than the age of the universe');
  });

  it('refuses what RE2 cannot express, saying why', () => {
    assert.equal(patternProblem('^[a-z]+$'), undefined);
    assert.match(patternProblem('(a)\\1') ?? '', /RE2/);
    assert.match(patternProblem('(?=a)b') ?? '', /RE2/);
    assert.match(patternProblem('[') ?? '', /RE2/);
  });
});
