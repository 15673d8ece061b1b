import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from './errors.js';
import { filterValue, filterValues, MAX_FILTER_VALUES, parseQueryString } from './query.js';

describe('parseQueryString', () => {
  it('keeps the last value of a repeated parameter as the value, and every value for filterValues', () => {
    const query = parseQueryString('state=ACTIVE&size=5&state=DELETED&state=&state=ACTIVE');
    assert.deepEqual({ ...query }, { state: 'ACTIVE', size: '5' });
    assert.equal(filterValue(query, 'state'), 'ACTIVE');
    assert.deepEqual(filterValues(query, 'state'), ['ACTIVE', 'DELETED']);
    assert.deepEqual(filterValues(query, 'size'), ['5']);
    assert.equal(filterValues(query, 'other'), undefined);
  });

  it('decodes values and makes prototype keys plain properties', () => {
    const query = parseQueryString('name=a%20b&__proto__=x&constructor=y');
    assert.equal(query.name, 'a b');
    assert.equal(Object.getPrototypeOf(query), Object.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(query, '__proto__')?.value, 'x');
    assert.deepEqual(filterValues(query, '__proto__'), ['x']);
  });
});

describe('filterValues', () => {
  it('reads a plain object (one value per name) and ignores empty values', () => {
    assert.deepEqual(filterValues({ state: 'DELETED' }, 'state'), ['DELETED']);
    assert.equal(filterValues({ state: '' }, 'state'), undefined);
  });

  it(`answers 400 naming the parameter above ${MAX_FILTER_VALUES} values`, () => {
    const text = Array.from({ length: MAX_FILTER_VALUES + 1 }, (_, i) => `contributingWorkspace=w${i}`).join('&');
    assert.throws(
      () => filterValues(parseQueryString(text), 'contributingWorkspace'),
      (error: ApiError) => error.status === 400 && error.message.startsWith('contributingWorkspace:'),
    );
  });
});
