import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../lib/errors.js';
import { checkBody, MAX_BODY_DEPTH } from './content-parsers.js';

/** Every refusal is an ApiError 400 whose message starts `body:` (and matches `pattern`). */
const refused = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, 400);
  assert.equal(error.errorCode, 'BadRequest');
  assert.ok(error.message.startsWith('body:'), error.message);
  assert.match(error.message, pattern);
  return true;
};

/** `levels` containers nested in one another (the outermost is level 1), the innermost holding `leaf`. */
function nested(levels: number, container: 'object' | 'array', leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = container === 'object' ? { a: value } : [value];
  return value;
}

describe('checkBody', () => {
  it('accepts normal bodies', () => {
    const bodies: unknown[] = [
      {
        kind: 'meshBuildingBlock',
        metadata: { tags: { env: ['prod'] } },
        spec: {
          displayName: 'Grüße 👋 日本',
          inputs: [
            { key: 'size', value: 16 },
            { key: 'on', value: true },
            { key: 'nothing', value: null },
          ],
          parentBuildingBlocks: [],
        },
      },
      [],
      {},
      'plain text',
      '',
      42,
      true,
      null,
      undefined,
      { constructor: 'a string is fine', prototype: { x: 1 }, proto: 1, __proto: 2 },
      { constructor: { name: 'no prototype key' } },
      { constructor: null },
      { text: 'tab\tnewline\nemoji \uD83D\uDE00' },
    ];
    for (const body of bodies) assert.doesNotThrow(() => checkBody(body), JSON.stringify(body));
  });

  it(`accepts bodies nested ${MAX_BODY_DEPTH} levels deep`, () => {
    assert.equal(MAX_BODY_DEPTH, 64);
    assert.doesNotThrow(() => checkBody(nested(64, 'object')));
    assert.doesNotThrow(() => checkBody(nested(64, 'array')));
    assert.doesNotThrow(() => checkBody(nested(64, 'object', 7)));
  });

  it('refuses bodies nested deeper than 64 levels', () => {
    assert.throws(() => checkBody(nested(65, 'object')), refused(/nested deeper than 64 levels/));
    assert.throws(() => checkBody(nested(65, 'array')), refused(/nested deeper than 64 levels/));
    assert.throws(() => checkBody(nested(64, 'object', {})), refused(/nested deeper than 64 levels/));
    assert.throws(() => checkBody({ ok: 1, deep: nested(1000, 'array') }), refused(/nested deeper than 64 levels/));
  });

  it('refuses __proto__ keys at any depth', () => {
    assert.throws(
      () => checkBody(JSON.parse('{"__proto__": {"admin": true}}')),
      refused(/__proto__ and constructor\.prototype keys are not allowed/),
    );
    assert.throws(() => checkBody(JSON.parse('{"spec": {"inputs": [{"__proto__": 1}]}}')), refused(/__proto__/));
    assert.throws(() => checkBody(JSON.parse('[{"a": {"__proto__": null}}]')), refused(/__proto__/));
  });

  it('refuses constructor.prototype keys at any depth', () => {
    assert.throws(
      () => checkBody({ constructor: { prototype: { admin: true } } }),
      refused(/__proto__ and constructor\.prototype keys are not allowed/),
    );
    assert.throws(() => checkBody({ spec: [{ constructor: { prototype: null } }] }), refused(/constructor\.prototype/));
  });

  it('refuses NUL characters in values and keys', () => {
    assert.throws(() => checkBody({ name: 'a\u0000b' }), refused(/NUL characters are not allowed/));
    assert.throws(() => checkBody(['ok', ['\u0000']]), refused(/NUL/));
    assert.throws(() => checkBody('\u0000'), refused(/NUL/));
    assert.throws(() => checkBody({ 'a\u0000': 1 }), refused(/NUL characters are not allowed \(in a key\)/));
  });

  it('refuses lone surrogates in values and keys', () => {
    for (const lone of ['\uD800', 'a\uDBFFb', '\uDC00', 'x\uDFFF', '\uDE00\uD83D']) {
      assert.throws(() => checkBody({ value: lone }), refused(/valid Unicode \(a lone surrogate was sent\)/), JSON.stringify(lone));
      assert.throws(() => checkBody({ [lone]: 'v' }), refused(/lone surrogate was sent\) \(in a key\)/), JSON.stringify(lone));
    }
    assert.throws(() => checkBody([[['\uD83D']]]), refused(/lone surrogate/));
  });

  it('accepts paired surrogates', () => {
    assert.doesNotThrow(() => checkBody({ '\uD83D\uDE00': '\uD83D\uDE00\uD83D\uDE00' }));
  });
});
