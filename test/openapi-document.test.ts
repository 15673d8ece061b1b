/**
 * The served OpenAPI document (issue 22): `GET /api/openapi.json` and `.yaml` without credentials, a
 * valid OpenAPI 3.1 document (a maintained validator) with every route of the route table, its
 * security, versioned media types, documented query parameters, error answers and deprecations; and
 * answers serialised from the route schemas keep every field a client sent, in its order.
 * (Every answer of every black-box suite is also checked against this document: support/served-openapi.ts.)
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { REQUEST_EXAMPLES } from '../src/kinds/registry.js';
import { describeEachDatabase } from './support/server.js';
import { io, PATHS, unique, WORKSPACE, type Json } from './support/structure.js';

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describeEachDatabase('the served OpenAPI document', (ctx) => {
  let document: Json;
  /** A schema with its `$ref` (to `components.schemas`) followed. */
  const resolve = (schema: Json): Json =>
    schema.$ref
      ? resolve(
          (schema.$ref as string)
            .slice(2)
            .split('/')
            .reduce((node: Json, key) => node[key], document),
        )
      : schema;

  it('is served without credentials as JSON and YAML, the same document, and is valid OpenAPI 3.1', async () => {
    const json = await ctx.client.get('/api/openapi.json', { anonymous: true });
    assert.equal(json.status, 200, json.text);
    assert.match(json.headers['content-type']!, /^application\/json/);
    document = json.json as Json;
    assert.equal(document.openapi, '3.1.0');
    const yaml = await ctx.client.get('/api/openapi.yaml', { anonymous: true });
    assert.equal(yaml.status, 200);
    assert.match(yaml.headers['content-type']!, /^application\/yaml/);
    assert.deepEqual(parse(yaml.text), document);
    const result = await new Validator().validate(document as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors)?.slice(0, 2000));
  });

  it('has an operation for every route of the route table', () => {
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const method of HTTP_METHODS) if (item[method]) documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
    // The 405 answers and the retired kinds' paths are no operations; the event stream is the event list's text/event-stream answer;
    // the console (/console) is the web UI, a client of these operations, not one of them; OpenAPI has no
    // LOCK and UNLOCK (the Terraform state backend's locking), so those are served, not documented.
    const routes = [...ctx.server.server.context.access.keys()].filter(
      (key) =>
        !key.startsWith('HEAD ') &&
        !key.startsWith('LOCK ') &&
        !key.startsWith('UNLOCK ') &&
        !key.endsWith('*') &&
        !key.includes('/api/openapi.') &&
        key !== 'GET /console',
    );
    const missing = routes.filter(
      (key) => !documented.has(key) && !ctx.server.server.context.unservedPaths.has(key.slice(key.indexOf(' ') + 1)),
    );
    assert.deepEqual(missing, []);
    assert.ok(documented.size >= 100, `${documented.size} operations`);
  });

  it('says who may call each operation: Bearer or Basic, run tokens on the run’s own endpoints, nothing on public ones, SCIM tokens on SCIM', () => {
    const security = (path: string, method: string) => JSON.stringify(document.paths[path][method].security);
    assert.equal(security('/api/meshobjects/meshworkspaces', 'get'), JSON.stringify([{ bearer: [] }, { basic: [] }]));
    assert.equal(
      security('/api/meshobjects/meshbuildingblockruns/{id}/status/source', 'post'),
      JSON.stringify([{ bearer: [] }, { basic: [] }, { runToken: [] }]),
    );
    assert.equal(security('/oauth/token', 'post'), '[]');
    assert.equal(security('/scim/v2/Users', 'get'), JSON.stringify([{ scimToken: [] }]));
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['basic', 'bearer', 'runToken', 'scimToken']);
  });

  it('documents every versioned media type, each deprecated version as deprecated, bodies per consumed type', () => {
    const list = document.paths['/api/meshobjects/meshbuildingblocks'].get;
    const v1 = resolve(list.responses['200'].content['application/vnd.meshcloud.api.meshbuildingblock.v1.hal+json'].schema);
    const v2 = resolve(list.responses['200'].content['application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json'].schema);
    assert.equal(v1.deprecated, true);
    assert.match(v1.description, /deprecated.*use meshBuildingBlock\.v2/);
    assert.equal(v2.deprecated, undefined);
    const create = document.paths['/api/meshobjects/meshtenants'].post;
    assert.deepEqual(
      Object.keys(create.requestBody.content)
        .filter((type) => type.includes('.meshcloud.'))
        .sort(),
      [
        'application/vnd.meshcloud.api.meshtenant.v3.hal+json',
        'application/vnd.meshcloud.api.meshtenant.v4-preview.hal+json',
        'application/vnd.meshcloud.api.meshtenant.v4.hal+json',
      ],
    );
    assert.ok(resolve(create.responses['201'].content['application/vnd.meshcloud.api.meshtenant.v4.hal+json'].schema).properties.spec);
  });

  it('documents every list filter with its description, and every error answer with the error body', () => {
    const parameters = document.paths['/api/meshobjects/meshbuildingblocks'].get.parameters as Json[];
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
    for (const name of [
      'workspaceIdentifier',
      'projectIdentifier',
      'definitionUuid',
      'status',
      'managedByWorkspaceIdentifier',
      'page',
      'size',
    ]) {
      assert.ok(byName.get(name)?.description, `${name} has no description`);
      assert.equal(byName.get(name)?.in, 'query');
    }
    assert.ok(byName.get('status')?.schema.enum.includes('WAITING_FOR_APPROVAL'));
    const states = (document.paths['/api/meshobjects/meshtenants'].get.parameters as Json[]).find(
      (parameter) => parameter.name === 'state',
    );
    assert.equal(states?.schema.type, 'array', 'state is repeatable');
    const read = document.paths['/api/meshobjects/meshworkspaces/{id}'].get.responses;
    for (const status of ['401', '403', '404', '406', '429']) {
      assert.deepEqual(resolve(read[status].content['application/json'].schema).required, ['message', 'errorCode', 'errorId'], status);
    }
  });

  it('shows request examples (kinds/examples.ts) that validate against their own schema, and the server takes them', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema(document, 'served');
    const examples: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const method of HTTP_METHODS) {
        for (const [type, body] of Object.entries((item[method]?.requestBody?.content ?? {}) as Record<string, Json>)) {
          if (body.example === undefined) continue;
          examples.push(`${method.toUpperCase()} ${path} ${type}`);
          const pointer = `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/requestBody/content/${type.replaceAll('~', '~0').replaceAll('/', '~1')}/schema`;
          const validate = ajv.compile({ $ref: `served#${pointer}` });
          assert.ok(validate(body.example), `${method} ${path} ${type}: ${JSON.stringify(validate.errors)}`);
        }
      }
    }
    // The main kinds' creates, under both vendor segments.
    for (const kind of [
      'meshworkspaces',
      'meshprojects',
      'meshtenants',
      'meshbuildingblockdefinitions',
      'meshbuildingblocks',
      'meshapikeys',
      'meshusers',
    ]) {
      const create = document.paths[`/api/meshobjects/${kind}`].post.requestBody.content as Record<string, Json>;
      const shown = Object.entries(create).filter(([, body]) => body.example !== undefined);
      assert.ok(shown.length >= 2, `POST ${kind} shows no example`);
    }
    assert.ok(examples.length >= 14, examples.join('\n'));
    // The served workspace example is a body the server takes (with a name of its own).
    const served = document.paths['/api/meshobjects/meshworkspaces'].post.requestBody.content[WORKSPACE].example as Json;
    assert.deepEqual(served, REQUEST_EXAMPLES['meshworkspace/v2']);
    const name = unique('example');
    const created = await ctx.client.post(
      PATHS.workspaces,
      { ...served, metadata: { ...served.metadata, name } },
      { headers: io(WORKSPACE) },
    );
    assert.equal(created.status, 201, created.text);
  });

  it('answers an echo with every field the client sent, in the order sent (Terraform compares echoes)', async () => {
    const name = unique('echo');
    const sent = `{"kind":"meshWorkspace","metadata":{"zExtra":1,"name":"${name}","tags":{"b":["2"],"a":["1"]},"nested":{"y":[1,{"q":true}],"x":"x"}},"spec":{"platformBuilderAccessEnabled":false,"zeta":"z","displayName":"Echo"}}`;
    const created = await ctx.client.post(PATHS.workspaces, sent, { headers: io(WORKSPACE) });
    assert.equal(created.status, 201, created.text);
    for (const answer of [created, await ctx.client.get(`${PATHS.workspaces}/${name}`, { headers: { accept: WORKSPACE } })]) {
      const text = answer.text;
      const metadata = text.slice(text.indexOf('"metadata":'), text.indexOf('"spec":'));
      assert.ok(
        metadata.startsWith(`"metadata":{"zExtra":1,"name":"${name}","tags":{"b":["2"],"a":["1"]},"nested":{"y":[1,{"q":true}],"x":"x"}`),
        metadata,
      );
      const spec = text.slice(text.indexOf('"spec":'), text.indexOf('"_links":'));
      assert.equal(spec, '"spec":{"platformBuilderAccessEnabled":false,"zeta":"z","displayName":"Echo"},');
    }
  });

  it('renders the API reference at /docs from bundled assets (no CDN), under a Content-Security-Policy that allows only this server', async () => {
    const page = await ctx.client.get('/docs/', { anonymous: true });
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type']!, /^text\/html/);
    const csp = page.headers['content-security-policy']!;
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /https:|unsafe-eval|\*/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(
      assets.some((asset) => asset.endsWith('swagger-ui-bundle.js')),
      page.text,
    );
    for (const asset of assets) {
      assert.ok(!/^(https?:)?\/\//.test(asset), `${asset} is not served by this server`);
      const answer = await ctx.client.get(new URL(asset, `${ctx.server.url}/docs/`).pathname, { anonymous: true });
      assert.equal(answer.status, 200, asset);
      assert.ok(answer.text.length > 0, asset);
    }
    // The page's document: the one the API serves.
    const spec = await ctx.client.get('/docs/json', { anonymous: true });
    assert.deepEqual(spec.json, (await ctx.client.get('/api/openapi.json', { anonymous: true })).json);
    // Everything else keeps the API's policy.
    assert.equal(
      (await ctx.client.get('/api/openapi.json', { anonymous: true })).headers['content-security-policy'],
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});
