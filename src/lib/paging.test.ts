import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageInfo, pageLinks, parsePagingParams } from './paging.js';

describe('parsePagingParams', () => {
  it('defaults to page 0 and size 50', () => {
    assert.deepEqual(parsePagingParams({}), { page: 0, size: 50 });
  });
  it('treats empty values as absent', () => {
    assert.deepEqual(parsePagingParams({ page: '', size: '' }), { page: 0, size: 50 });
  });
  it('lowers sizes above 350 to 350', () => {
    assert.deepEqual(parsePagingParams({ size: '1000' }), { page: 0, size: 350 });
  });
  for (const [name, value] of [
    ['page', '-1'],
    ['page', 'abc'],
    ['size', '1.5'],
    ['size', '0'],
    ['size', '-3'],
    ['page', '1e3'],
  ] as const) {
    it(`rejects ${name}=${value} naming the parameter`, () => {
      assert.throws(
        () => parsePagingParams({ [name]: value }),
        (e: Error) => e.message.startsWith(`${name}:`),
      );
    });
  }
  it('rejects repeated parameters (arrays)', () => {
    assert.throws(() => parsePagingParams({ page: ['1', '2'] }), /page/);
  });
});

describe('pageLinks', () => {
  const base = 'https://h';
  it('has only self for zero or one page', () => {
    assert.deepEqual(Object.keys(pageLinks(base, '/x', pageInfo({ page: 0, size: 50 }, 0))), ['self']);
    assert.deepEqual(Object.keys(pageLinks(base, '/x', pageInfo({ page: 0, size: 50 }, 50))), ['self']);
  });
  it('has first, next and last on the first of several pages', () => {
    const links = pageLinks(base, '/x?status=FAILED', pageInfo({ page: 0, size: 10 }, 25));
    assert.deepEqual(Object.keys(links).sort(), ['first', 'last', 'next', 'self']);
    assert.equal(links.next?.href, 'https://h/x?status=FAILED&page=1&size=10');
    assert.equal(links.last?.href, 'https://h/x?status=FAILED&page=2&size=10');
    assert.equal(links.self?.href, 'https://h/x?status=FAILED');
  });
  it('has prev and next in the middle, prev without next at the end', () => {
    assert.deepEqual(Object.keys(pageLinks(base, '/x?page=1&size=10', pageInfo({ page: 1, size: 10 }, 25))).sort(), [
      'first',
      'last',
      'next',
      'prev',
      'self',
    ]);
    assert.deepEqual(Object.keys(pageLinks(base, '/x?page=2&size=10', pageInfo({ page: 2, size: 10 }, 25))).sort(), [
      'first',
      'last',
      'prev',
      'self',
    ]);
  });
  it('has neither prev nor next far past the end', () => {
    assert.deepEqual(Object.keys(pageLinks(base, '/x?page=9&size=10', pageInfo({ page: 9, size: 10 }, 25))).sort(), [
      'first',
      'last',
      'self',
    ]);
  });
});
