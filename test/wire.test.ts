/**
 * Wire exactness: what a client generated from the published OpenAPI, or a new user
 * following the README, meets — methods a path does not have, the CLI's help.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { media, type Response } from './support/client.js';
import { OPENAPI } from './support/openapi.js';
import { describeEachDatabase } from './support/server.js';
import { IMPORT_JSON, io, PATHS, unique, WORKSPACE, type Json } from './support/structure.js';
import { blockyardArgs } from './support/blockyard-command.js';

/** Asserts the status and the `{message, errorCode, errorId}` error body; optionally what the message names. */
function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

describe('the command line', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, blockyardArgs(args), { encoding: 'utf8', timeout: 60_000 });

  it('prints its usage for --help, -h and help (exit 0), and for an unknown command on stderr (exit 2)', () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = run(flag);
      assert.equal(result.status, 0, `${flag}: ${result.stderr}`);
      assert.match(result.stdout, /^Usage: blockyard \[options\] \[command\]/);
      assert.match(result.stdout, /^ {2}serve\b/m);
      assert.match(result.stdout, /^ {2}admin <command>/m);
    }
    const unknown = run('frobnicate');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    assert.match(unknown.stderr, /blockyard --help lists the commands/);
  });
});

describeEachDatabase('wire exactness', (ctx) => {
  describe('methods a path does not have', () => {
    it('answers 405 with Allow for GET /api/login (no credentials needed), not 401', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await ctx.client.request(method, '/api/login', { anonymous: true });
        assertError(response, 405, /not allowed on \/api\/login; use POST/);
        assert.equal(response.headers.allow, 'POST');
        assert.equal(response.json.errorCode, 'MethodNotAllowed');
        assert.equal(response.headers['x-content-type-options'], 'nosniff', 'the security headers of every answer');
      }
      const head = await ctx.client.request('HEAD', '/api/login', { anonymous: true });
      assert.equal(head.status, 405);
    });

    it('answers 405 for any method a route path lacks, listing the ones it has', async () => {
      const patch = await ctx.client.request('PATCH', '/api/meshobjects/meshworkspaces/any-name', { anonymous: true, body: '{}' });
      assertError(patch, 405, /meshworkspaces\/\{id\}/);
      assert.equal(patch.headers.allow, 'GET, HEAD, PUT, DELETE');
      const post = await ctx.client.request('POST', '/api/meshobjects/meshtenants/x', { body: '{}' });
      assertError(post, 405);
      assert.equal(post.headers.allow, 'GET, HEAD, DELETE');
      // Paths that do not exist stay 404 (after authentication, as before).
      assertError(await ctx.client.get('/api/meshobjects/nothing-here', { headers: { accept: 'application/json' } }), 404);
      assertError(await ctx.client.get('/api/meshobjects/nothing-here', { anonymous: true }), 401);
    });
  });

  describe('deprecated versions are served, retired ones answer as retired (spec §3.4, §9)', () => {
    const WORKSPACE_V1 = media('meshworkspace', 'v1');

    it('serves meshWorkspace v1 over REST with the deprecation headers: spec.tags, one workspace in both shapes', async () => {
      const name = unique('wsv1');
      const body = {
        apiVersion: 'v1',
        kind: 'meshWorkspace',
        metadata: { name },
        spec: { displayName: 'Old style', tags: { costCenter: ['2411', '9122'] } },
      };
      const created = await ctx.client.post(PATHS.workspaces, body, { headers: io(WORKSPACE_V1) });
      assert.equal(created.status, 201, created.text);
      assert.ok(created.headers.deprecation, 'Deprecation header');
      assert.equal(created.headers.sunset, undefined, 'no end-of-life date is announced');
      assert.match(
        created.headers.link ?? '',
        new RegExp(
          `<${ctx.server.url}${PATHS.workspaces}>; rel="successor-version"; type="application/vnd\\.vendor\\.api\\.meshworkspace\\.v2\\.hal\\+json"`,
        ),
      );
      assert.equal(created.json.apiVersion, 'v1');
      assert.deepEqual(created.json.spec, body.spec);
      assert.equal(created.json.metadata.tags, undefined, 'v1 has its tags in spec');
      const v2 = await ctx.client.get(`${PATHS.workspaces}/${name}`, { headers: { accept: WORKSPACE } });
      assert.deepEqual(v2.json.metadata.tags, body.spec.tags);
      assert.equal(v2.json.spec.tags, undefined);
      assert.equal(v2.headers.deprecation, undefined);
      const v1 = await ctx.client.get(`${PATHS.workspaces}/${name}`, { headers: { accept: WORKSPACE_V1 } });
      assert.equal(v1.status, 200, v1.text);
      assert.ok(v1.headers.deprecation);
      assert.deepEqual(v1.json, created.json);
      const list = await ctx.client.get(`${PATHS.workspaces}?size=350`, { headers: { accept: WORKSPACE_V1 } });
      assert.equal(list.status, 200, list.text);
      assert.ok(list.headers.deprecation);
      assert.deepEqual(
        list.json._embedded.meshWorkspaces.find((w: Json) => w.metadata.name === name),
        created.json,
      );
      const put = await ctx.client.put(
        `${PATHS.workspaces}/${name}`,
        { ...body, spec: { displayName: 'Renamed', tags: {} } },
        { headers: io(WORKSPACE_V1) },
      );
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.spec, { displayName: 'Renamed', tags: {} });
    });

    it("imports the vendor's own example (meshUser v1, meshWorkspace v1): the retired version refused as retired, the deprecated one imported with a remark", async () => {
      const example = OPENAPI.paths['/api/meshobjects'].put.requestBody.content['application/vnd.meshcloud.api.meshobjects.v1+json']
        .examples.importInJson.value as Json[];
      const workspace = unique('imp');
      const objects = example.map((object) => (object.kind === 'meshWorkspace' ? { ...object, metadata: { name: workspace } } : object));
      const response = await ctx.client.put(PATHS.import, JSON.stringify(objects), {
        headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON },
      });
      assert.equal(response.status, 200, response.text);
      const [user, imported] = response.json as Json[];
      assert.equal(user!.meshObject, 'meshUser[test-user]');
      assert.equal(user!.status, 'FAILED');
      assert.equal(user!.resultCode, 'INVALID_MESH_OBJECT');
      assert.match(user!.message, /version v1 of meshuser was retired on 2025-07-01; use meshUser\.v2 instead/);
      assert.equal(imported!.meshObject, `meshWorkspace[${workspace}]`);
      assert.equal(imported!.status, 'SUCCESS', JSON.stringify(imported));
      assert.deepEqual(imported!.remarks, [
        'version v1 of meshworkspace is deprecated (no end-of-life date announced); use meshWorkspace.v2 instead',
      ]);
      const read = await ctx.client.get(`${PATHS.workspaces}/${workspace}`, { headers: { accept: WORKSPACE } });
      assert.deepEqual(read.json.metadata.tags, { costCenter: ['2411', '9122'], workspaceOwner: ['Anna Admin'] });
      assert.equal(read.json.spec.displayName, 'test-display-name');
      const again = await ctx.client.put(
        PATHS.import,
        JSON.stringify([
          { apiVersion: 'v2', kind: 'meshTenant', metadata: {}, spec: {} },
          { apiVersion: 'v1', kind: 'meshCustomer', metadata: { name: 'acme' }, spec: {} },
        ]),
        { headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON } },
      );
      const [tenant, customer] = again.json as Json[];
      assert.match(tenant!.message, /meshtenant was retired on 2025-07-01; use meshTenant\.v3/);
      assert.equal(customer!.meshObject, 'meshCustomer[acme]');
      assert.match(customer!.message, /meshcustomer was retired on 2025-03-01/);
    });

    it('answers a retired version as retired, on built kinds (meshUser.v1 406 "retired on 2025-03-01", 415 as a body) and on kinds not built here; other versions of those 404', async () => {
      for (const path of ['/api/meshobjects/meshusers', '/api/meshobjects/meshusers/someone']) {
        assertError(
          await ctx.client.get(path, { headers: { accept: media('meshUser', 'v1', 'meshcloud') } }),
          406,
          /version v1 of meshuser was retired on 2025-03-01; use meshUser\.v2 instead/,
        );
        assertError(await ctx.client.get(path, { anonymous: true, headers: { accept: media('meshuser', 'v1') } }), 401);
      }
      assertError(
        await ctx.client.post('/api/meshobjects/meshusers', '{}', {
          headers: { accept: media('meshuser', 'v2'), 'content-type': media('meshuser', 'v1') },
        }),
        415,
        /retired on 2025-03-01/,
      );
      // Served: an unknown payment method is an ordinary 404.
      assertError(
        await ctx.client.get('/api/meshobjects/meshpaymentmethods/x', { headers: { accept: media('meshpaymentmethod', 'v2') } }),
        404,
        /meshPaymentMethod x not found/,
      );
      assertError(
        await ctx.client.get('/api/meshobjects/meshpaymentmethods', { headers: { accept: media('meshpaymentmethod', 'v1') } }),
        406,
        /retired on 2025-07-01; use meshPaymentMethod\.v2/,
      );
      // Served: v1 answers as retired, an unknown instance is an ordinary 404.
      assertError(
        await ctx.client.get('/api/meshobjects/meshserviceinstances/x', { headers: { accept: media('meshserviceinstance', 'v1') } }),
        406,
        /retired on 2025-03-01/,
      );
      assertError(
        await ctx.client.get('/api/meshobjects/meshserviceinstances/x', { headers: { accept: media('meshserviceinstance', 'v2') } }),
        404,
        /meshServiceInstance x not found/,
      );
      // A kind of the deprecation list that is not built here (every version retired): 404 saying so.
      assertError(
        await ctx.client.get('/api/meshobjects/meshchargebacks', { headers: { accept: media('meshchargeback', 'v4') } }),
        404,
        /every version of meshchargeback was retired on 2025-10-01/,
      );
      // Served kinds: their retired versions answer as retired, other kinds' versions as not served.
      assertError(
        await ctx.client.get(PATHS.tenants, { headers: { accept: media('meshtenant', 'v2') } }),
        406,
        /retired on 2025-07-01; use meshTenant\.v3/,
      );
      assertError(await ctx.client.get(PATHS.projects, { headers: { accept: media('meshproject', 'v1') } }), 406, /retired on 2025-07-01/);
      assertError(
        await ctx.client.get(PATHS.projects, { headers: { accept: media('meshproject', 'v3') } }),
        406,
        /names no version served here/,
      );
      // Kinds wholly replaced by another kind stay 404 on their paths.
      assertError(
        await ctx.client.get('/api/meshobjects/meshcustomers/acme', { headers: { accept: media('meshcustomer', 'v1') } }),
        404,
        /every version of meshcustomer was retired on 2025-03-01/,
      );
    });

    it('does not list the paths that only answer for retired versions in the index', async () => {
      const index = await ctx.client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v2') } });
      assert.equal(index.status, 200, index.text);
      for (const rel of ['meshcustomers', 'meshchargebacks']) assert.equal(index.json._links[rel], undefined, rel);
      for (const rel of [
        'meshserviceinstances',
        'meshcommunicationdefinitions',
        'meshcommunications',
        'meshtenants',
        'meshpaymentmethods',
        'meshusers',
        'meshworkspaceusergroups',
        'meshworkspaceuserbindings',
        'meshworkspacegroupbindings',
        'meshprojectuserbindings',
        'meshprojectgroupbindings',
      ])
        assert.ok(index.json._links[rel], rel);
    });
  });
});
