import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { compileDecoder, fieldName, withoutNulls } from './validation.js';

describe('fieldName', () => {
  it('turns JSON pointers into dotted paths with indexes', () => {
    assert.equal(fieldName('/spec/inputs/0/value'), 'spec.inputs[0].value');
    assert.equal(fieldName(''), 'body');
  });
});

describe('withoutNulls', () => {
  it('drops null properties deeply but keeps array items', () => {
    assert.deepEqual(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] }), { b: { d: 1 }, e: [null, {}] });
  });
});

describe('compileDecoder', () => {
  const decode = compileDecoder(Type.Object({ spec: Type.Object({ displayName: Type.String({ maxLength: 255 }) }) }));
  it('returns valid values and ignores unknown properties', () => {
    assert.deepEqual(decode({ spec: { displayName: 'x' }, status: null, extra: 1 }), { spec: { displayName: 'x' }, extra: 1 });
  });
  it('names the offending field in the 400 message', () => {
    assert.throws(() => decode({ spec: { displayName: 'x'.repeat(256) } }), (e: Error & { status?: number }) => e.status === 400 && e.message.startsWith('spec.displayName:'));
    assert.throws(() => decode({ spec: {} }), /spec\.displayName/);
  });
});
