import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { it } from 'node:test';
import { media } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, unique } from './support/structure.js';

const API = media('', 'v1');
const MESHOBJECTS = media('meshobjects', 'v2');

describeEachDatabase('service foundation', (ctx) => {
  it('serves the API index with metadata, meshobjects and self as absolute links', async () => {
    const response = await ctx.client.get('/api', { headers: { accept: API } });
    assert.equal(response.status, 200);
    assert.match(response.headers['content-type']!, /^application\/vnd\.vendor\.api\.v1\.hal\+json/);
    assert.deepEqual(Object.keys(response.json._links).sort(), ['meshobjects', 'metadata', 'self']);
    assert.equal(response.json._links.self.href, `${ctx.server.url}/api`);
  });

  it('answers 406 with the error body when Accept is missing, */*, plain JSON or an unknown version', async () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      media('', 'v9'),
      media('meshobjects', 'v7'),
      'application/vnd.other.api.v1.hal+json',
    ]) {
      const response = await ctx.client.get('/api', { headers: { accept } });
      assert.equal(response.status, 406, `Accept ${accept}`);
      assert.match(response.headers['content-type']!, /^application\/json/);
      assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message']);
      assert.equal(response.json.errorCode, 'NotAcceptable');
      assert.match(response.json.errorId, /^[0-9a-f-]{36}$/);
    }
  });

  it('accepts camelCase kinds, the meshcloud vendor, parameters and quality lists, answering in the client vendor', async () => {
    const camel = await ctx.client.get('/api/meshobjects', {
      headers: { accept: 'application/vnd.meshcloud.api.meshObjects.v2.hal+json;charset=UTF-8' },
    });
    assert.equal(camel.status, 200);
    assert.match(camel.headers['content-type']!, /^application\/vnd\.meshcloud\.api\.meshobjects\.v2\.hal\+json/);
    const listed = await ctx.client.get('/api/meshobjects', {
      headers: { accept: `application/json, ${media('meshobjects', 'v9')};q=0.9, ${media('meshobjects', 'v1')};q=0.5` },
    });
    assert.equal(listed.status, 200);
    assert.match(listed.headers['content-type']!, /meshobjects\.v1\.hal\+json/);
  });

  it('lists only relations of served endpoints, templated with exactly the spec variables', async () => {
    const response = await ctx.client.get('/api/meshobjects', { headers: { accept: MESHOBJECTS } });
    assert.equal(response.status, 200);
    const links = response.json._links as Record<string, { href: string; templated?: boolean }>;
    assert.equal(links.self?.href, `${ctx.server.url}/api/meshobjects`);
    for (const [rel, value] of Object.entries(links)) {
      if (rel === 'self') continue;
      const path = new URL(value.href.replace(/\{.*$/, '')).pathname;
      const served = await ctx.client.get(path, { headers: { accept: 'application/json' } });
      assert.notEqual(served.status, 404, `${rel} is listed but ${path} is not served`);
      if (value.href.includes('{')) assert.equal(value.templated, true, rel);
    }
    if (links.meshbuildingblocks) {
      assert.equal(
        links.meshbuildingblocks.href,
        `${ctx.server.url}/api/meshobjects/meshbuildingblocks{?workspaceIdentifier,projectIdentifier,platformIdentifier,name,definitionUuid,versionUuid,tenantUuid,targetRefKind,status,managedByWorkspaceIdentifier,managedByDefinitionUuid}`,
      );
    }
  });

  it('lists a relation to a caller who may list it or create in it (a runner’s claim), and not to one who may do neither', async () => {
    const workspace = unique('index');
    await createWorkspace(ctx.client, workspace);
    const relations = async (permissions: string[]) => {
      const { client } = await clientWithKey(ctx.client, workspace, permissions);
      return Object.keys((await client.get('/api/meshobjects', { headers: { accept: MESHOBJECTS } })).json._links);
    };
    const claimer = await relations(['MANAGED_BUILDINGBLOCKRUN_SAVE']);
    assert.ok(claimer.includes('meshbuildingblockruns'));
    const creator = await relations(['SERVICEINSTANCE_SAVE']);
    assert.ok(creator.includes('meshserviceinstances'));
    assert.ok(!creator.includes('meshbuildingblockruns'));
    const lister = await relations(['SERVICEINSTANCE_LIST']);
    assert.ok(lister.includes('meshserviceinstances'));
    const neither = await relations(['WORKSPACE_LIST']);
    assert.ok(neither.includes('meshworkspaces'));
    for (const rel of ['meshserviceinstances', 'meshbuildingblockruns', 'meshprojects']) assert.ok(!neither.includes(rel), rel);
  });

  it('answers 404 for retired paths, naming the replacement', async () => {
    for (const path of [
      '/api/meshobjects/meshcustomers',
      '/api/meshobjects/meshcustomers/acme',
      '/api/meshobjects/meshchargebacks',
      '/api/meshobjects/meshcustomerusergroups/x',
    ]) {
      const response = await ctx.client.get(path, { headers: { accept: media('meshcustomer', 'v1') } });
      assert.equal(response.status, 404, path);
      assert.equal(response.json.errorCode, 'NotFound');
      assert.match(response.json.message, /retired/);
    }
  });

  it('answers 404 with the error body for unknown routes', async () => {
    const response = await ctx.client.get('/api/nothing-here', { headers: { accept: API } });
    assert.equal(response.status, 404);
    assert.equal(response.json.errorCode, 'NotFound');
  });

  it('publishes served versions and the deprecation list in the metadata API', async () => {
    const response = await ctx.client.get('/api/metadata', { headers: { accept: media('metadata', 'v1') } });
    assert.equal(response.status, 200);
    const retired = response.json.deprecations
      .filter((d: { phase: string }) => d.phase === 'retired')
      .map((d: { kind: string; version: string }) => `${d.kind}.${d.version}`);
    assert.ok(retired.includes('meshchargeback.v3'));
    assert.ok(!retired.includes('meshbuildingblock.v1'));
    assert.ok(response.json.mediaTypes.some((m: { kind: string; version: string }) => m.kind === 'meshobjects' && m.version === 'v2'));
  });

  it('sends security headers on every response, errors included', async () => {
    for (const response of [await ctx.client.get('/api', { headers: { accept: API } }), await ctx.client.get('/api')]) {
      assert.match(response.headers['strict-transport-security']!, /max-age=\d+/);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('serves health endpoints without credentials or Accept', async () => {
    const health = await ctx.client.get('/healthz', { anonymous: true });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, { status: 'UP' });
    const ready = await ctx.client.get('/readyz', { anonymous: true });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.json, { status: 'UP', database: 'UP', keyring: 'UP' });
  });

  it('answers /mesh/info without credentials with a version real clients accept', async () => {
    const response = await ctx.client.get('/mesh/info', { anonymous: true });
    assert.equal(response.status, 200);
    const [year, week, patch] = String(response.json.version).split('.').map(Number) as [number, number, number];
    assert.ok([year, week, patch].every(Number.isInteger));
    assert.ok(year * 1000 + week >= 2026 * 1000 + 34, response.json.version);
    assert.equal(typeof response.json.adminWorkspaceIdentifier, 'string');
  });

  it('serves nothing over plain HTTP on the TLS port: only a plain-text 400 saying to use https', async () => {
    const port = Number(new URL(ctx.server.url).port);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /api HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
      socket.setTimeout(5000, () => socket.destroy());
    });
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(answer, /\r\n\r\nThis port speaks HTTPS: use https:\/\/localhost\/ instead of http:\/\/\.\n$/);
    assert.doesNotMatch(answer, /application\/(json|hal)|errorCode/i, 'no answer of the API');
  });

  it('refuses TLS versions older than 1.2', async () => {
    const port = Number(new URL(ctx.server.url).port);
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, maxVersion: 'TLSv1.1', minVersion: 'TLSv1' }, () => {
        resolve('connected');
        socket.destroy();
      });
      socket.on('error', (error) => resolve(error.message));
    });
    assert.notEqual(outcome, 'connected');
  });

  it('keeps working after a restart on the same database and certificate', async () => {
    await ctx.server.restart();
    const response = await ctx.client.get('/api', { headers: { accept: API } });
    assert.equal(response.status, 200);
  });
});
