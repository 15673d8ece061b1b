import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { routeSchema } from '../http/route-schemas.js';
import { CodecRegistry, type Codec } from './codec.js';
import { answersOf } from './operation.js';

const Spec = Type.Object({ rows: Type.Array(Type.String()) });
const Keyed = Type.Object({ rows: Type.Record(Type.String(), Type.Boolean()) });
const view = { baseUrl: 'https://x' };
const LINKS = { self: { href: 'https://x/things/1' } };

const v2: Codec<string[]> = {
  media: { kind: 'thing', version: 'v2' },
  schema: Spec,
  encode: (rows) => ({ rows, _links: LINKS }),
  vendorForms: {
    meshcloud: { schema: Keyed, encode: (rows) => ({ rows: Object.fromEntries(rows.map((row) => [row, true])), _links: LINKS }) },
  },
};
const v1: Codec<string[]> = { media: { kind: 'thing', version: 'v1' }, schema: Spec, encode: (rows) => ({ rows, _links: LINKS }) };
const registry = new CodecRegistry('thing', [v2, v1]);

describe('CodecRegistry vendor forms', () => {
  it("answers in a vendor's own form where the version has one, else in the common form", () => {
    assert.deepEqual(registry.of('v2', 'meshcloud').encode(['a'], view), { rows: { a: true }, _links: LINKS });
    assert.equal(registry.of('v2', 'meshcloud').schema, Keyed);
    assert.equal(registry.of('v2', 'meshcloud'), registry.of('v2', 'meshcloud'), 'the variant is made once');
    assert.deepEqual(registry.of('v2', 'vendor').encode(['a'], view), { rows: ['a'], _links: LINKS });
    assert.equal(registry.of('v2'), v2);
    assert.equal(registry.of('v1', 'meshcloud'), v1);
    assert.throws(() => registry.of('v9', 'meshcloud'), /no codec for version "v9"/);
  });

  it('documents each form under its own media types: the vendor form replaces the common one under that vendor only', () => {
    const answers = answersOf(registry.codecs);
    assert.deepEqual(
      answers.map((answer) => answer.media),
      [
        { kind: 'thing', version: 'v2' },
        { kind: 'thing', version: 'v2', vendor: 'meshcloud' },
        { kind: 'thing', version: 'v1' },
      ],
    );
    const schema = routeSchema(
      'GET',
      '/things',
      { summary: 'things', responses: { 200: { description: 'a thing', body: answers } } },
      'authenticated',
      { produces: registry.codecs.map((codec) => codec.media) },
      ['vendor', 'meshcloud'],
    );
    const content = (schema.response[200] as { content: Record<string, { schema: unknown }> }).content;
    assert.equal(content['application/vnd.vendor.api.thing.v2.hal+json']?.schema, Spec);
    assert.equal(content['application/vnd.meshcloud.api.thing.v2.hal+json']?.schema, Keyed);
    assert.equal(content['application/vnd.meshcloud.api.thing.v1.hal+json']?.schema, Spec);
  });
});
