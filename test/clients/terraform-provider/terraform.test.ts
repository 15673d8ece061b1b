import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { go } from './go-json.js';
import { goJsonEncode, HttpError, parseMeshVersion, ProviderClient } from './provider-client.js';
import { differences, expectImportEqual, expectSentComesBack, Findings, planned } from './terraform.js';

describe("Terraform's consistency rules (terraform.ts)", () => {
  it('a changed, missing or added value is a difference; null and [] are not the same', () => {
    assert.deepEqual(differences({ a: 1, b: [] }, { a: 2, b: null }, {}), ['.a: was 1, but now 2', '.b: was [], but now null']);
    assert.deepEqual(differences({ m: { x: 'v' } }, { m: { x: 'v', y: 'w' } }, {}), ['.m.y: was absent, but now "w"']);
  });

  it('ignored paths (computed attributes) are not compared, * matching any key or index', () => {
    const rules = { ignore: ['metadata.uuid', 'spec.inputs.*.valueType', 'status'] };
    assert.deepEqual(differences({ metadata: { uuid: null }, spec: { inputs: { a: { value: 1, valueType: null } } }, status: null }, { metadata: { uuid: 'u' }, spec: { inputs: { a: { value: 1, valueType: 'INTEGER' } } }, status: { s: 1 } }, rules), []);
    assert.deepEqual(differences({ spec: { inputs: { a: { value: 1 } } } }, { spec: { inputs: { a: { value: 2 } } } }, rules), ['.spec.inputs.a.value: was 1, but now 2']);
  });

  it('sets compare in any order, lists in order', () => {
    const rules = { sets: ['spec.permissions'] };
    assert.deepEqual(differences({ spec: { permissions: ['A', 'B'], list: [1, 2] } }, { spec: { permissions: ['B', 'A'], list: [1, 2] } }, rules), []);
    assert.equal(differences({ spec: { permissions: ['A', 'B'] } }, { spec: { permissions: ['A', 'A'] } }, rules).length, 1);
    assert.equal(differences({ spec: { list: [1, 2] } }, { spec: { list: [2, 1] } }, rules).length, 2);
  });

  it('planned values decode the body through the Go type: left out is the zero value', () => {
    const Type = go.struct('client.T', { name: go.string, tags: go.map(go.string), count: go.ptr(go.int64) });
    const plan = planned<Record<string, unknown>>(Type, { name: 'x' });
    assert.deepEqual(plan, { name: 'x', tags: null, count: null });
    assert.throws(() => expectSentComesBack(plan, { name: 'x', tags: {}, count: null }, {}, 'meshstack_x'), /Provider produced inconsistent result after apply.*meshstack_x[\s\S]*\.tags: was null, but now \{\}/);
    assert.throws(() => expectImportEqual({ a: 1 }, { a: 2 }), /ImportStateVerify attributes not equivalent/);
  });

  it('Findings reports every failed check together', () => {
    const findings = new Findings();
    findings.check(() => assert.fail('first'));
    findings.check(() => undefined);
    findings.check(() => assert.fail('second'));
    assert.throws(() => findings.done(), /first\nsecond/);
  });
});

describe('the provider client (provider-client.ts)', () => {
  it("encodes bodies as Go's json.Encoder does: HTML escaped, sorted maps, a trailing newline", () => {
    assert.equal(goJsonEncode({ b: '<a&b>', a: { d: 1, c: [2] } }, true), '{"a":{"c":[2],"d":1},"b":"\\u003ca\\u0026b\\u003e"}\n');
    assert.equal(goJsonEncode({ clientSecret: 's', clientId: 'i' }, false), '{"clientSecret":"s","clientId":"i"}\n');
  });

  it('parses /mesh/info versions as version.Parse does', () => {
    assert.deepEqual(parseMeshVersion('2026.34.0'), [2026, 34, 0]);
    assert.throws(() => parseMeshVersion('2026.34'), /expected 3, got 2 fields/);
    assert.throws(() => parseMeshVersion('2026.34.0-SNAPSHOT'), /part i=2/);
    assert.throws(() => parseMeshVersion('2026.-1.0'), /part i=1/);
  });

  it('retries GET, PUT and DELETE on 429/503 after Retry-After, never a create POST', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const first = seen.filter((s) => s === `${request.method} ${request.url}`).length === 1;
      if (first) {
        response.writeHead(request.method === 'PUT' ? 503 : 429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"message":"slow down"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"metadata":{"name":"x"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = await ProviderClient.connect({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ca: '' }, { token: 't' }, { skipVersionCheck: true });
      const objects = client.objects<{ metadata: { name: string } }>('meshThing', 'v1', go.struct('client.T', { metadata: go.struct('client.M', { name: go.string }) }));
      assert.equal((await objects.get('x'))?.metadata.name, 'x');
      assert.equal((await objects.put('x', {})).metadata.name, 'x');
      await assert.rejects(objects.post({}), (error) => error instanceof HttpError && error.statusCode === 429 && error.message === `http error 429, response '{"message":"slow down"}'`);
      assert.deepEqual(seen, ['GET /api/meshobjects/meshthings/x', 'GET /api/meshobjects/meshthings/x', 'PUT /api/meshobjects/meshthings/x', 'PUT /api/meshobjects/meshthings/x', 'POST /api/meshobjects/meshthings']);
      await client.close();
    } finally {
      server.close();
    }
  });
});
