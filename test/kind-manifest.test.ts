/**
 * A kind declared through its manifest alone. test/kinds/gadget/ declares meshGadget — two wire
 * versions, a reference to a workspace (which restricts the workspace's deletion), one list filter —
 * with the generic CRUD store, service and access rule (src/kinds/crud/). The files it needed:
 *   1. test/kinds/gadget/kind.ts   the manifest: paths, index relation, events, reference, migration, services, routes, import
 *   2. test/kinds/gadget/model.ts  its internal type and collection path
 *   3. test/kinds/gadget/wire.ts   its v1 and v2 codecs
 *   4. its registry line: `kinds: [...KINDS, gadgetKind]` below (a kind of src/ adds one line to kinds/registry.ts)
 * Nothing else of the server changed for it. Each check below is generic: it asks the route table,
 * the index, the served OpenAPI document, the event log, the import and the CLI about the new kind.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { clientFrom } from '../src/cli/client.js';
import { getObjects } from '../src/cli/get.js';
import { cliKindsOf } from '../src/cli/kinds.js';
import { KINDS } from '../src/kinds/registry.js';
import { media, type ApiClient } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createWorkspace, IMPORT_JSON, unique } from './support/structure.js';
import { gadgetKind } from './kinds/gadget/kind.js';
import { GADGETS_PATH } from './kinds/gadget/model.js';

const WITH_GADGETS = [...KINDS, gadgetKind];
const V1 = media('meshgadget', 'v1');
const V2 = media('meshgadget', 'v2');

const gadget = (name: string, workspace: string, spec: Record<string, unknown> = {}) => ({
  kind: 'meshGadget',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: `Gadget ${name}`, ...spec },
});

async function createGadget(client: ApiClient, name: string, workspace: string, type = V2, spec: Record<string, unknown> = {}) {
  const created = await client.post(GADGETS_PATH, gadget(name, workspace, spec), {
    headers: { accept: type, 'content-type': type },
  });
  assert.equal(created.status, 201, created.text);
  return created;
}

describeEachDatabase(
  'a kind declared by its manifest alone',
  (ctx) => {
    it('is served in both versions, filtered by its filter, linked from the index and documented in the served OpenAPI', async () => {
      const workspace = unique('gadgets');
      await createWorkspace(ctx.client, workspace);
      const created = await createGadget(ctx.client, unique('g'), workspace, V2, { color: 'teal' });
      assert.equal(created.headers.location, created.json._links.self.href);
      assert.equal(created.json.spec.color, 'teal');
      const asV1 = await ctx.client.get(new URL(created.headers.location!).pathname, { headers: { accept: V1 } });
      assert.equal(asV1.status, 200, asV1.text);
      assert.deepEqual(asV1.json.spec, { displayName: created.json.spec.displayName });
      await createGadget(ctx.client, unique('g'), workspace, V1);

      const other = unique('gadgets');
      await createWorkspace(ctx.client, other);
      await createGadget(ctx.client, unique('g'), other);
      const listed = await ctx.client.get(`${GADGETS_PATH}?workspaceIdentifier=${workspace}`, { headers: { accept: V2 } });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.json.page.totalElements, 2);
      assert.ok(
        listed.json._embedded.meshGadgets.every(
          (item: { metadata: { ownedByWorkspace: string } }) => item.metadata.ownedByWorkspace === workspace,
        ),
      );

      const index = await ctx.client.get('/api/meshobjects', { headers: { accept: media('meshobjects', 'v1') } });
      assert.equal(index.json._links.meshgadgets.href, `${ctx.server.url}${GADGETS_PATH}{?workspaceIdentifier}`);

      const document = (await ctx.client.get('/api/openapi.json', { anonymous: true })).json;
      const collection = document.paths[GADGETS_PATH];
      assert.ok(collection?.get && collection.post, 'the collection is documented');
      assert.deepEqual(
        Object.keys(collection.post.requestBody.content)
          .filter((type) => type.includes('meshgadget'))
          .sort(),
        [V1.replace('vendor', 'meshcloud'), V2.replace('vendor', 'meshcloud'), V1, V2].sort(),
      );
      assert.ok(document.paths[`${GADGETS_PATH}/{id}`]?.delete, 'the object path is documented');
    });

    it('answers every route of the kind by its access rule: 401 without credentials, 403 without the permission, 404 for another workspace’s object', async () => {
      const [mine, theirs] = [unique('gadgets'), unique('gadgets')];
      await createWorkspace(ctx.client, mine);
      await createWorkspace(ctx.client, theirs);
      const name = unique('g');
      await createGadget(ctx.client, name, mine);
      const routes = [...ctx.server.server.context.access.keys()].filter((route) => route.split(' ')[1]!.startsWith(GADGETS_PATH));
      assert.deepEqual(routes.sort(), [
        `DELETE ${GADGETS_PATH}/:id`,
        `GET ${GADGETS_PATH}`,
        `GET ${GADGETS_PATH}/:id`,
        `HEAD ${GADGETS_PATH}`,
        `HEAD ${GADGETS_PATH}/:id`,
        `POST ${GADGETS_PATH}`,
        `PUT ${GADGETS_PATH}/:id`,
      ]);
      const everything = ['WORKSPACE_LIST', 'WORKSPACE_SAVE', 'WORKSPACE_DELETE'];
      const member = (await clientWithKey(ctx.client, mine, everything)).client;
      const stranger = (await clientWithKey(ctx.client, theirs, everything)).client;
      const powerless = (await clientWithKey(ctx.client, mine, ['TENANT_LIST'])).client;
      const one = `${GADGETS_PATH}/${name}`;
      const body = gadget(name, mine, { color: 'red' });
      const io = { headers: { accept: V2, 'content-type': V2 } };
      const calls: [string, (client: ApiClient, anonymous?: boolean) => Promise<{ status: number }>][] = [
        ['GET list', (client, anonymous) => client.get(GADGETS_PATH, { headers: { accept: V2 }, anonymous })],
        ['GET one', (client, anonymous) => client.get(one, { headers: { accept: V2 }, anonymous })],
        ['HEAD list', (client, anonymous) => client.request('HEAD', GADGETS_PATH, { headers: { accept: V2 }, anonymous })],
        ['HEAD one', (client, anonymous) => client.request('HEAD', one, { headers: { accept: V2 }, anonymous })],
        ['POST', (client, anonymous) => client.post(GADGETS_PATH, gadget(unique('g'), mine), { ...io, anonymous })],
        ['PUT', (client, anonymous) => client.put(one, body, { ...io, anonymous })],
      ];
      assert.equal(calls.length + 1, routes.length, 'a call for every route (DELETE below)');
      assert.equal((await ctx.client.delete(one, { anonymous: true })).status, 401, 'DELETE without credentials');
      for (const [what, call] of calls) {
        assert.equal((await call(ctx.client, true)).status, 401, `${what} without credentials`);
        assert.equal((await call(powerless)).status, 403, `${what} without the permission`);
      }
      assert.equal((await stranger.get(one, { headers: { accept: V2 } })).status, 404, 'another workspace’s gadget is invisible');
      assert.equal((await stranger.put(one, body, io)).status, 404, 'and cannot be written');
      assert.equal((await stranger.delete(one)).status, 404, 'or deleted');
      assert.equal((await stranger.post(GADGETS_PATH, gadget(unique('g'), mine), io)).status, 403, 'nor created in');
      const strangerList = await stranger.get(GADGETS_PATH, { headers: { accept: V2 } });
      assert.equal(strangerList.json.page.totalElements, 0, 'its list holds only its own workspace’s');
      assert.equal(
        (await stranger.get(`${GADGETS_PATH}?workspaceIdentifier=${mine}`, { headers: { accept: V2 } })).json.page.totalElements,
        0,
      );

      assert.equal((await member.get(one, { headers: { accept: V2 } })).status, 200);
      assert.equal((await member.put(one, body, io)).status, 200);
      assert.equal((await powerless.delete(one)).status, 403);
      assert.equal((await member.delete(one)).status, 204);
      assert.equal((await member.get(one, { headers: { accept: V2 } })).status, 404);
    });

    it('writes its events, keeps its workspace while it exists, and is taken by the import', async () => {
      const workspace = unique('gadgets');
      await createWorkspace(ctx.client, workspace);
      const name = unique('g');
      await createGadget(ctx.client, name, workspace);
      const events = await ctx.client.get(`/api/meshobjects/mesheventlogs?title=Gadget%20Created&workspaceIdentifier=${workspace}`, {
        headers: { accept: media('mesheventlog', 'v1-preview') },
      });
      assert.equal(events.status, 200, events.text);
      const [event] = events.json._embedded.meshEventLogs;
      assert.equal(event.spec.description, `meshGadget ${name} was created`);
      assert.equal(event.spec.content.metadata.name, name);

      const refused = await ctx.client.delete(`/api/meshobjects/meshworkspaces/${workspace}`);
      assert.equal(refused.status, 409, refused.text);
      assert.match(refused.json.message, /still owns 1 meshGadgets/);

      const imported = unique('g');
      const answer = await ctx.client.put('/api/meshobjects', [{ apiVersion: 'v1', ...gadget(imported, workspace) }], {
        headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON },
      });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(
        answer.json.map((result: { meshObject: string; status: string }) => [result.meshObject, result.status]),
        [[`meshGadget[${imported}]`, 'SUCCESS']],
      );
      assert.equal((await ctx.client.get(`${GADGETS_PATH}/${imported}`, { headers: { accept: V1 } })).status, 200);
    });

    it('is listed by the CLI’s get, which learns it from the manifest', async () => {
      const workspace = unique('gadgets');
      await createWorkspace(ctx.client, workspace);
      const name = unique('g');
      await createGadget(ctx.client, name, workspace, V2, { color: 'blue' });
      const client = clientFrom(path.join(tmpdir(), 'blockyard-cli-none.yaml'), {
        BLOCKYARD_URL: ctx.server.url,
        BLOCKYARD_CA_FILE: path.join(ctx.server.dataDir, 'tls', 'cert.pem'),
        BLOCKYARD_USERNAME: TEST_ADMIN.username,
        BLOCKYARD_PASSWORD: TEST_ADMIN.password,
      });
      let printed = '';
      const printer = { out: (text: string) => void (printed += text), note: (text: string) => void (printed += text), table: {} };
      await getObjects(client, 'gadgets', name, { output: 'json', filter: [] }, printer, cliKindsOf(WITH_GADGETS));
      const shown = JSON.parse(printed);
      assert.equal(shown.apiVersion, 'v2');
      assert.deepEqual(shown.spec, { displayName: `Gadget ${name}`, color: 'blue' });
    });
  },
  {},
  { kinds: WITH_GADGETS },
);
