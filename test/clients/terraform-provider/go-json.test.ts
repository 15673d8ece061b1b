import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeGo, go, isZeroGo, tryDecodeGo } from './go-json.js';

const Input = go.struct('client.MeshBuildingBlockInput', { value: go.any, valueType: go.ptr(go.string), isSensitive: go.bool });
const Spec = go.struct('client.MeshBuildingBlockV2Spec', { displayName: go.string, inputs: go.map(go.ptr(Input)) });
const Block = go.struct('client.MeshBuildingBlockV2', { spec: Spec, count: go.int64, ratio: go.float64, tags: go.map(go.slice(go.string)) });

describe('decodeGo: what Go rejects', () => {
  const rejects: [string, string, RegExp][] = [
    ['an array into a map', '{"spec":{"inputs":[]}}', /^Error: json: cannot unmarshal array into Go struct field MeshBuildingBlockV2Spec\.spec\.inputs of type map\[string\]\*client\.MeshBuildingBlockInput$/],
    ['an object into a string', '{"spec":{"displayName":{}}}', /cannot unmarshal object into Go struct field MeshBuildingBlockV2Spec\.spec\.displayName of type string$/],
    ['a number into a string', '{"spec":{"displayName":1}}', /cannot unmarshal number into Go struct field .*displayName of type string/],
    ['a string into an int64', '{"count":"16"}', /cannot unmarshal string into Go struct field MeshBuildingBlockV2\.count of type int64/],
    ['16.0 into an int64', '{"count":16.0}', /cannot unmarshal number 16\.0 into Go struct field MeshBuildingBlockV2\.count of type int64/],
    ['1e3 into an int64', '{"count":1e3}', /cannot unmarshal number 1e3 into/],
    ['an int64 overflow', '{"count":9223372036854775808}', /cannot unmarshal number 9223372036854775808 into/],
    ['a float64 overflow', '{"ratio":1e400}', /cannot unmarshal number 1e400 into Go struct field MeshBuildingBlockV2\.ratio of type float64/],
    ['a string into a []string inside a map', '{"tags":{"env":"prod"}}', /cannot unmarshal string into Go struct field MeshBuildingBlockV2\.tags of type \[\]string/],
    ['a bool into a nested struct', '{"spec":{"inputs":{"a":{"isSensitive":"yes"}}}}', /cannot unmarshal string into Go struct field MeshBuildingBlockInput\.spec\.inputs\.isSensitive of type bool/],
    ['an object at the top into a slice', '{}', /^Error: json: cannot unmarshal object into Go value of type \[\]string$/],
    ['a syntax error', '{"spec":', /unexpected end of JSON input/],
    ['a trailing value', '{} {}', /invalid character "\{" after top-level value/],
    ['a leading zero', '{"count":016}', /invalid character/],
  ];
  for (const [title, text, message] of rejects) {
    it(title, () => {
      const type = title.includes('top into a slice') ? go.slice(go.string) : Block;
      assert.throws(() => decodeGo(type, text), message);
    });
  }

  it('reports the first mismatch but decodes the rest, as Go does', () => {
    const { value, error } = tryDecodeGo<{ count: number; spec: { displayName: string } }>(Block, '{"count":"x","ratio":"y","spec":{"displayName":"kept"}}');
    assert.match(error!.message, /MeshBuildingBlockV2\.count/);
    assert.equal(value.spec.displayName, 'kept');
  });

  it('a custom decoder\'s error ends the decode', () => {
    const strict = go.custom('client.Strict', (text) => {
      if (text !== '"ok"') throw new Error(`not ok: ${text}`);
      return 'ok';
    });
    assert.throws(() => decodeGo(go.struct('client.Holder', { a: strict }), '{"a":"no"}'), /^Error: not ok: "no"$/);
    assert.equal(decodeGo<{ a: unknown }>(go.struct('client.Holder', { a: strict }), '{"a":"ok"}').a, 'ok');
  });

  it('a named scalar is named in the message', () => {
    const Status = go.named('enum.Entry[client.BuildingBlockStatus]', go.string);
    assert.throws(() => decodeGo(go.struct('client.S', { status: Status }), '{"status":1}'), /cannot unmarshal number into Go struct field S\.status of type enum\.Entry\[client\.BuildingBlockStatus\]/);
    // Unknown values are fine: the provider's enums have no UnmarshalJSON.
    assert.equal(decodeGo<{ status: string }>(go.struct('client.S', { status: Status }), '{"status":"NEW"}').status, 'NEW');
  });
});

describe('decodeGo: what Go accepts', () => {
  it('missing fields are zero values, null is zero, unknown fields are ignored', () => {
    const value = decodeGo<Record<string, unknown>>(Block, '{"spec":null,"count":null,"unknown":[1,2],"tags":null}');
    assert.deepEqual(value, { spec: { displayName: '', inputs: null }, count: 0, ratio: 0, tags: null });
  });

  it('a map of pointers keeps null entries as nil and decodes the rest', () => {
    const value = decodeGo<{ spec: { inputs: Record<string, unknown> } }>(Block, '{"spec":{"inputs":{"a":null,"b":{"value":16,"valueType":"INTEGER"}}}}');
    assert.deepEqual(value.spec.inputs, { a: null, b: { value: 16, valueType: 'INTEGER', isSensitive: false } });
  });

  it('keys match case-insensitively after the exact match', () => {
    const value = decodeGo<{ spec: { displayName: string } }>(Block, '{"SPEC":{"displayname":"x"}}');
    assert.equal(value.spec.displayName, 'x');
  });

  it('empty arrays and maps are not nil', () => {
    const value = decodeGo<{ tags: Record<string, unknown> }>(Block, '{"tags":{"a":[]}}');
    assert.deepEqual(value.tags, { a: [] });
    assert.equal(isZeroGo(Block, decodeGo(Block, '{}')), true);
    assert.equal(isZeroGo(Block, value), false);
  });

  it('interface{} takes numbers as float64 and objects as maps; RawMessage keeps the text', () => {
    const Holder = go.struct('client.H', { any: go.any, raw: go.raw, big: go.int });
    const value = decodeGo<Record<string, unknown>>(Holder, '{"any":{"n":16.0,"l":[true,null,"s"]},"raw":{ "a" : 1 },"big":-9223372036854775808}');
    assert.deepEqual(value, { any: { n: 16, l: [true, null, 's'] }, raw: '{ "a" : 1 }', big: -9223372036854775808 });
    assert.equal(decodeGo<Record<string, unknown>>(Holder, '{"raw":null}').raw, 'null');
  });

  it('a duplicate key\'s last value wins; __proto__ is an ordinary key', () => {
    const value = decodeGo<Record<string, unknown>>(go.map(go.int), '{"a":1,"a":2,"__proto__":3}');
    assert.equal(value.a, 2);
    assert.equal(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, 3);
  });
});

describe('decodeGo: embedded structs', () => {
  const Ref = go.struct('client.UuidRef', { uuid: go.string, kind: go.string });
  const Wire = go.struct('client.wire', { inputs: go.map(go.string), kind: go.int }, { UuidRef: Ref });
  const Target = go.struct({ parents: go.slice(go.string) }, { wire: Wire });

  it('promotes their fields; a direct field hides a promoted one', () => {
    assert.deepEqual(decodeGo(Target, '{"uuid":"u","kind":3,"inputs":{"a":"b"},"parents":["p"]}'), { parents: ['p'], inputs: { a: 'b' }, kind: 3, uuid: 'u' });
  });

  it("names the embedded structs' Go names in a mismatch's path, the outer struct as the struct", () => {
    assert.throws(() => decodeGo(Target, '{"inputs":[]}'), /^Error: json: cannot unmarshal array into Go struct field \.wire\.inputs of type map\[string\]string$/);
    assert.throws(() => decodeGo(Target, '{"uuid":1}'), /cannot unmarshal number into Go struct field \.wire\.UuidRef\.uuid of type string/);
  });
});
