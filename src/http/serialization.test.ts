import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Echoed, Links, Nullable, Uuid } from '../lib/wire-schemas.js';
import { StringEnum } from '../lib/validation.js';
import { serializerFor } from './serialization.js';

describe('answer serialisation from schemas', () => {
  const schema = Type.Object({
    kind: Type.Literal('meshThing'),
    metadata: Echoed({ name: Type.String(), uuid: Uuid }),
    status: Type.Object({ state: StringEnum(['ACTIVE', 'DELETED'] as const), latestRunUuid: Nullable(Uuid), count: Type.Integer() }),
    _links: Links,
  });
  const serialize = serializerFor(schema);

  it('writes an echoed object whole, in the order it has, with fields the schema does not name', () => {
    const metadata = {
      zFirst: { nested: [1, 'two', { deep: true }] },
      uuid: 'c0ffee00-0000-4000-8000-000000000000',
      name: 'n',
      extra: null,
    };
    const text = serialize({
      kind: 'meshThing',
      metadata,
      status: { state: 'ACTIVE', latestRunUuid: null, count: 2 },
      _links: { self: { href: 'https://x/1' } },
    });
    assert.ok(text.includes(`"metadata":${JSON.stringify(metadata)}`), text);
  });

  it('drops what a described object does not name, keeps every link, and writes unions of plain values by their types', () => {
    const text = serialize({
      kind: 'meshThing',
      secret: 'never written',
      metadata: {},
      status: { state: 'DELETED', latestRunUuid: 'c0ffee00-0000-4000-8000-000000000000', count: 3, internal: 'x' },
      _links: { self: { href: 'https://x/1' }, owner: { href: 'https://x/2' } },
    });
    assert.deepEqual(JSON.parse(text), {
      kind: 'meshThing',
      metadata: {},
      status: { state: 'DELETED', latestRunUuid: 'c0ffee00-0000-4000-8000-000000000000', count: 3 },
      _links: { self: { href: 'https://x/1' }, owner: { href: 'https://x/2' } },
    });
    assert.equal(
      JSON.parse(
        serialize({
          kind: 'meshThing',
          metadata: {},
          status: { state: 'ACTIVE', latestRunUuid: null, count: 0 },
          _links: { self: { href: 'h' } },
        }),
      ).status.latestRunUuid,
      null,
    );
  });

  it('writes every key of a record, a line break in a key included, in the order a JS object has', () => {
    const record = serializerFor(Type.Object({ outputs: Type.Record(Type.String(), Type.Object({ value: Type.String() })) }));
    const outputs = { 'line\nbreak': { value: 'a' }, b: { value: 'b' }, '10': { value: 'c' }, '2': { value: 'd' } };
    assert.equal(record({ outputs }), JSON.stringify({ outputs }));
  });
});
