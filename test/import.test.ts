import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ApiClient, Response } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import {
  createLocation,
  createPlatform,
  createStructure,
  createWorkspace,
  IMPORT_JSON,
  IMPORT_YAML,
  LOCATION,
  PATHS,
  PLATFORM,
  PROJECT,
  projectBody,
  TENANT,
  unique,
  WORKSPACE,
  workspaceBody,
  type Json,
} from './support/structure.js';

const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'import.yaml');

const importObjects = (client: ApiClient, body: string, contentType: string) =>
  client.put(PATHS.import, body, { headers: { accept: IMPORT_JSON, 'content-type': contentType } });

/** Asserts 200 and the result array shape; returns the entries. */
function results(response: Response, count: number): Json[] {
  assert.equal(response.status, 200, `import: ${response.status} ${response.text}`);
  assert.match(response.headers['content-type'] ?? '', /meshobjects\.v1\+json/);
  const entries = response.json as Json[];
  assert.ok(Array.isArray(entries), response.text);
  assert.equal(entries.length, count, response.text);
  for (const entry of entries) {
    assert.equal(typeof entry.meshObject, 'string', JSON.stringify(entry));
    assert.ok(['SUCCESS', 'FAILED'].includes(entry.status), JSON.stringify(entry));
    assert.ok(Array.isArray(entry.remarks), `remarks is an array: ${JSON.stringify(entry)}`);
    if (entry.status === 'SUCCESS') assert.equal(entry.resultCode, null, JSON.stringify(entry));
    else {
      assert.ok(
        ['WORKSPACE_NOT_FOUND', 'PROJECT_NOT_FOUND', 'INVALID_MESH_OBJECT', 'SERVER_ERROR'].includes(entry.resultCode),
        JSON.stringify(entry),
      );
      assert.equal(typeof entry.message, 'string', JSON.stringify(entry));
      assert.ok(entry.message.length > 0, JSON.stringify(entry));
    }
  }
  return entries;
}

function assertAllSuccess(entries: Json[]): void {
  for (const entry of entries) assert.equal(entry.status, 'SUCCESS', `${entry.meshObject}: ${entry.resultCode} ${entry.message}`);
}

interface Names {
  ws: string;
  project: string;
  location: string;
  platform: string;
}

const fresh = (): Names => ({ ws: unique('iws'), project: unique('iprj'), location: unique('iloc'), platform: unique('iplf') });

/** A YAML stream with a workspace, a project, a location, a platform and a tenant, as a person would write it. */
const yamlStream = (n: Names, displaySuffix = '') => `apiVersion: v2
kind: meshWorkspace
metadata:
  name: ${n.ws}
  tags:
    environment:
      - dev
spec:
  displayName: Imported workspace${displaySuffix}
---
apiVersion: v2
kind: meshProject
metadata:
  name: ${n.project}
  ownedByWorkspace: ${n.ws}
spec:
  displayName: Imported project${displaySuffix}
  tags:
    costCenter:
      - "1234"
---
apiVersion: v1
kind: meshLocation
metadata:
  name: ${n.location}
spec:
  displayName: Imported location ${n.location}
---
apiVersion: v2
kind: meshPlatform
metadata:
  name: ${n.platform}
  ownedByWorkspace: ${n.ws}
spec:
  displayName: Imported platform${displaySuffix}
  locationRef:
    kind: meshLocation
    name: ${n.location}
  config:
    type: azure
    azure:
      entraTenant: example.onmicrosoft.com
---
apiVersion: v4-preview
kind: meshTenant
metadata:
  ownedByWorkspace: ${n.ws}
  ownedByProject: ${n.project}
spec:
  platformIdentifier: ${n.platform}.${n.location}
`;

const expectedNames = (n: Names) => [
  `meshWorkspace[${n.ws}]`,
  `meshProject[${n.project}]`,
  `meshLocation[${n.location}]`,
  `meshPlatform[${n.platform}]`,
  `meshTenant[${n.ws}.${n.project}.${n.platform}.${n.location}]`,
];

const total = async (client: ApiClient, listPath: string, accept: string) => {
  const response = await client.get(listPath, { headers: { accept } });
  assert.equal(response.status, 200, `${listPath}: ${response.text}`);
  return response.json.page.totalElements as number;
};

/** Totals of every list the import writes to, so a repeated import can prove it duplicated nothing. */
const totals = async (client: ApiClient, n: Names) => ({
  workspaces: await total(client, PATHS.workspaces, WORKSPACE),
  projects: await total(client, `${PATHS.projects}?workspaceIdentifier=${n.ws}`, PROJECT),
  locations: await total(client, PATHS.locations, LOCATION),
  platforms: await total(client, `${PATHS.platforms}?ownedByWorkspace=${n.ws}`, PLATFORM),
  tenants: await total(client, `${PATHS.tenants}?workspaceIdentifier=${n.ws}&deletionState=ALL`, TENANT),
});

describeEachDatabase('declarative import', (ctx) => {
  it('imports a YAML stream of a workspace, project, location, platform and tenant; all readable via REST', async () => {
    const n = fresh();
    const entries = results(await importObjects(ctx.client, yamlStream(n), IMPORT_YAML), 5);
    assertAllSuccess(entries);
    assert.deepEqual(
      entries.map((e) => e.meshObject),
      expectedNames(n),
    );

    const ws = await ctx.client.get(`${PATHS.workspaces}/${n.ws}`, { headers: { accept: WORKSPACE } });
    assert.equal(ws.status, 200, ws.text);
    assert.deepEqual(ws.json.metadata.tags, { environment: ['dev'] });
    assert.equal(ws.json.spec.displayName, 'Imported workspace');
    const project = await ctx.client.get(`${PATHS.projects}/${n.ws}.${n.project}`, { headers: { accept: PROJECT } });
    assert.equal(project.status, 200, project.text);
    assert.deepEqual(project.json.spec.tags, { costCenter: ['1234'] });
    const location = await ctx.client.get(`${PATHS.locations}/${n.location}`, { headers: { accept: LOCATION } });
    assert.equal(location.status, 200, location.text);
    const platforms = await ctx.client.get(`${PATHS.platforms}?identifier=${n.platform}.${n.location}`, { headers: { accept: PLATFORM } });
    assert.equal(platforms.status, 200, platforms.text);
    assert.equal(platforms.json._embedded.meshPlatforms.length, 1);
    const platform = platforms.json._embedded.meshPlatforms[0];
    assert.equal(platform.metadata.ownedByWorkspace, n.ws);
    assert.equal(platform.status.platformTypeIdentifier, 'AZURE');
    const tenant = await ctx.client.get(`${PATHS.tenants}/${n.ws}.${n.project}.${n.platform}.${n.location}`, {
      headers: { accept: TENANT },
    });
    assert.equal(tenant.status, 200, tenant.text);
    assert.equal(tenant.json.status.lifecycle.state, 'ACTIVE');
    assert.equal(tenant.json.spec.platformRef.uuid, platform.metadata.uuid);
    assert.equal(
      tenant.json.spec.landingZoneIdentifier ?? '',
      '',
      'no landing zone: a zone names its platform by uuid, which an import creating the platform cannot know',
    );
    assert.equal(tenant.json.status.platformTypeIdentifier, 'AZURE');
  });

  it('imports the same file again: all SUCCESS, nothing duplicated; a changed file updates in place', async () => {
    const n = fresh();
    assertAllSuccess(results(await importObjects(ctx.client, yamlStream(n), IMPORT_YAML), 5));
    const before = await totals(ctx.client, n);
    assert.deepEqual(
      { projects: before.projects, platforms: before.platforms, tenants: before.tenants },
      { projects: 1, platforms: 1, tenants: 1 },
    );
    const tenantPath = `${PATHS.tenants}/${n.ws}.${n.project}.${n.platform}.${n.location}`;
    const tenantUuid = (await ctx.client.get(tenantPath, { headers: { accept: TENANT } })).json.metadata.uuid;
    const platformUuid = (
      await ctx.client.get(`${PATHS.platforms}?identifier=${n.platform}.${n.location}`, { headers: { accept: PLATFORM } })
    ).json._embedded.meshPlatforms[0].metadata.uuid;

    const again = results(await importObjects(ctx.client, yamlStream(n), IMPORT_YAML), 5);
    assertAllSuccess(again);
    assert.deepEqual(
      again.map((e) => e.meshObject),
      expectedNames(n),
    );
    assert.deepEqual(await totals(ctx.client, n), before, 'a repeated import duplicates nothing');

    const changed = results(await importObjects(ctx.client, yamlStream(n, ' (renamed)'), IMPORT_YAML), 5);
    assertAllSuccess(changed);
    assert.deepEqual(await totals(ctx.client, n), before);
    assert.equal(
      (await ctx.client.get(`${PATHS.workspaces}/${n.ws}`, { headers: { accept: WORKSPACE } })).json.spec.displayName,
      'Imported workspace (renamed)',
    );
    assert.equal(
      (await ctx.client.get(`${PATHS.projects}/${n.ws}.${n.project}`, { headers: { accept: PROJECT } })).json.spec.displayName,
      'Imported project (renamed)',
    );
    const platform = await ctx.client.get(`${PATHS.platforms}/${platformUuid}`, { headers: { accept: PLATFORM } });
    assert.equal(platform.status, 200, 'the platform keeps its uuid');
    assert.equal(platform.json.spec.displayName, 'Imported platform (renamed)');
    assert.equal(
      (await ctx.client.get(tenantPath, { headers: { accept: TENANT } })).json.metadata.uuid,
      tenantUuid,
      'the tenant keeps its uuid',
    );
  });

  it('imports a JSON array with broken objects among good ones: the broken FAILED with a resultCode, the good stored', async () => {
    const s = await createStructure(ctx.client, 'ijs');
    const ws = unique('iws');
    const good1 = unique('good');
    const good2 = unique('good');
    const missingWs = unique('nows');
    const orphan = unique('orphan');
    const missingProject = unique('noprj');
    const objects = [
      workspaceBody(ws),
      projectBody(ws, good1),
      projectBody(missingWs, orphan),
      projectBody(ws, 'Bad.Name'),
      { apiVersion: 'v2', kind: 'meshWorkspace', metadata: 'not an object', spec: { displayName: 'x' } },
      { apiVersion: 'v1', kind: 'meshUnicorn', metadata: { name: unique('uni') }, spec: {} },
      {
        apiVersion: 'v4',
        kind: 'meshTenant',
        metadata: { ownedByWorkspace: ws, ownedByProject: missingProject },
        spec: { platformIdentifier: `${s.platform}.${s.location}` },
      },
      projectBody(ws, good2, { spec: { tags: { team: ['x'] } } }),
    ];
    const entries = results(await importObjects(ctx.client, JSON.stringify(objects), IMPORT_JSON), objects.length);
    const summary = entries.map((e) => [e.status, e.resultCode]);
    assert.deepEqual(
      summary,
      [
        ['SUCCESS', null],
        ['SUCCESS', null],
        ['FAILED', 'WORKSPACE_NOT_FOUND'],
        ['FAILED', 'INVALID_MESH_OBJECT'],
        ['FAILED', 'INVALID_MESH_OBJECT'],
        ['FAILED', 'INVALID_MESH_OBJECT'],
        ['FAILED', 'PROJECT_NOT_FOUND'],
        ['SUCCESS', null],
      ],
      JSON.stringify(entries),
    );
    assert.equal(entries[0]!.meshObject, `meshWorkspace[${ws}]`);
    assert.equal(entries[1]!.meshObject, `meshProject[${good1}]`);
    assert.equal(entries[2]!.meshObject, `meshProject[${orphan}]`);
    assert.match(entries[2]!.message, new RegExp(`${missingWs}|ownedByWorkspace`));
    assert.equal(entries[6]!.meshObject, `meshTenant[${ws}.${missingProject}.${s.platform}.${s.location}]`);
    assert.equal(entries[7]!.meshObject, `meshProject[${good2}]`);

    assert.equal((await ctx.client.get(`${PATHS.workspaces}/${ws}`, { headers: { accept: WORKSPACE } })).status, 200);
    const projects = (
      await ctx.client.get(`${PATHS.projects}?workspaceIdentifier=${ws}`, { headers: { accept: PROJECT } })
    ).json._embedded.meshProjects.map((p: Json) => p.metadata.name);
    assert.deepEqual(projects, [good1, good2], 'the good projects are stored, the broken ones are not');
    assert.equal(
      (await ctx.client.get(`${PATHS.workspaces}/${missingWs}`, { headers: { accept: WORKSPACE } })).status,
      404,
      'no workspace is invented for the orphan',
    );
    const tenants = await ctx.client.get(`${PATHS.tenants}?workspaceIdentifier=${ws}&deletionState=ALL`, { headers: { accept: TENANT } });
    assert.deepEqual(tenants.json._embedded.meshTenants, [], 'no half-written tenant');
  });

  it('refuses callers without an ADM_ permission (403); checks each object against an admin key permissions', async () => {
    const ws = unique('iperm');
    await createWorkspace(ctx.client, ws);
    const member = await clientWithKey(ctx.client, ws, ['WORKSPACE_LIST', 'WORKSPACE_SAVE', 'PROJECT_LIST', 'PROJECT_SAVE']);
    const refused = await importObjects(member.client, JSON.stringify([projectBody(ws, unique('p'))]), IMPORT_JSON);
    assert.equal(refused.status, 403, refused.text);
    assert.deepEqual(Object.keys(refused.json).sort(), ['errorCode', 'errorId', 'message']);
    assert.equal(
      (await ctx.client.get(`${PATHS.projects}?workspaceIdentifier=${ws}`, { headers: { accept: PROJECT } })).json.page.totalElements,
      0,
    );

    const workspaceAdmin = await clientWithKey(ctx.client, 'admin', ['ADM_WORKSPACE_SAVE']);
    const newWs = unique('iadm');
    const project = unique('p');
    const entries = results(
      await importObjects(workspaceAdmin.client, JSON.stringify([workspaceBody(newWs), projectBody(newWs, project)]), IMPORT_JSON),
      2,
    );
    assert.equal(entries[0]!.status, 'SUCCESS', JSON.stringify(entries[0]));
    assert.equal(entries[1]!.status, 'FAILED', `a project needs PROJECT_SAVE: ${JSON.stringify(entries[1])}`);
    assert.equal((await ctx.client.get(`${PATHS.workspaces}/${newWs}`, { headers: { accept: WORKSPACE } })).status, 200);
    assert.equal((await ctx.client.get(`${PATHS.projects}/${newWs}.${project}`, { headers: { accept: PROJECT } })).status, 404);
  });

  it('answers 415 for other body types, accepting the meshcloud vendor', async () => {
    const body = JSON.stringify([workspaceBody(unique('ict'))]);
    for (const contentType of ['application/json', 'text/plain', 'application/x-yaml', 'text/yaml', undefined]) {
      const response = await importObjects(ctx.client, body, contentType as string);
      assert.equal(response.status, 415, `Content-Type ${contentType}: ${response.status} ${response.text}`);
    }
    const ws = unique('ict');
    const vendor = await importObjects(
      ctx.client,
      JSON.stringify([workspaceBody(ws)]),
      'application/vnd.meshcloud.api.meshobjects.v1+json',
    );
    assertAllSuccess(results(vendor, 1));
    assert.equal((await ctx.client.get(`${PATHS.workspaces}/${ws}`, { headers: { accept: WORKSPACE } })).status, 200);
  });

  it('answers 400 for a body that is not an array or stream of objects, or holds more than 1000 objects', async () => {
    const ws = unique('ibad');
    for (const body of ['{"apiVersion": "v2"}', '[{"apiVersion": ', '"just a string"']) {
      const response = await importObjects(ctx.client, body, IMPORT_JSON);
      assert.equal(response.status, 400, `${body}: ${response.status} ${response.text}`);
    }
    const many = Array.from({ length: 1001 }, (_, i) => workspaceBody(`${ws}-${i}`));
    const tooMany = await importObjects(ctx.client, JSON.stringify(many), IMPORT_JSON);
    assert.equal(tooMany.status, 400, tooMany.text);
    assert.equal(
      (await ctx.client.get(`${PATHS.workspaces}/${ws}-0`, { headers: { accept: WORKSPACE } })).status,
      404,
      'nothing of a refused body is imported',
    );
  });

  it(
    'imports the shipped example examples/import.yaml with all SUCCESS',
    { skip: existsSync(EXAMPLE) ? false : 'examples/import.yaml does not exist yet (the implementer ships it)' },
    async () => {
      const text = await readFile(EXAMPLE, 'utf8');
      const response = await importObjects(ctx.client, text, IMPORT_YAML);
      assert.equal(response.status, 200, response.text);
      const entries = results(response, (response.json as Json[]).length);
      assertAllSuccess(entries);
      const kinds = entries.map((e) => String(e.meshObject).replace(/\[.*$/, ''));
      for (const kind of ['meshWorkspace', 'meshProject', 'meshLocation', 'meshPlatform', 'meshTenant'])
        assert.ok(kinds.includes(kind), `the example holds a ${kind}: ${kinds.join(',')}`);
      const tenantName = /^meshTenant\[(.*)\]$/.exec(entries.find((e) => String(e.meshObject).startsWith('meshTenant['))!.meshObject)![1]!;
      const tenant = await ctx.client.get(`${PATHS.tenants}/${tenantName}`, { headers: { accept: TENANT } });
      assert.equal(tenant.status, 200, `the example tenant is readable by its identifier: ${tenant.text}`);
      assertAllSuccess(results(await importObjects(ctx.client, text, IMPORT_YAML), entries.length));
    },
  );

  it('keeps imported objects consistent with REST-created ones: a REST location and platform can be referenced', async () => {
    const ws = unique('imix');
    const project = unique('p');
    const location = unique('loc');
    const platform = unique('plf');
    await createWorkspace(ctx.client, ws);
    await createLocation(ctx.client, location);
    const platformUuid = await createPlatform(ctx.client, ws, platform, location);
    const objects = [
      projectBody(ws, project),
      {
        apiVersion: 'v4',
        kind: 'meshTenant',
        metadata: { ownedByWorkspace: ws, ownedByProject: project },
        spec: { platformRef: { kind: 'meshPlatform', uuid: platformUuid } },
      },
    ];
    const entries = results(await importObjects(ctx.client, JSON.stringify(objects), IMPORT_JSON), 2);
    assertAllSuccess(entries);
    assert.equal(entries[1]!.meshObject, `meshTenant[${ws}.${project}.${platform}.${location}]`);
    const tenants = await ctx.client.get(`${PATHS.tenants}?workspaceIdentifier=${ws}`, { headers: { accept: TENANT } });
    assert.equal(tenants.json._embedded.meshTenants.length, 1);
    assert.equal(tenants.json._embedded.meshTenants[0].spec.platformRef.uuid, platformUuid);
  });
});

const COLLECTION = 'application/vnd.vendor.api.meshobjectcollection.v1+json';
const USER = 'application/vnd.vendor.api.meshuser.v2.hal+json';
const groupObject = (workspace: string, name: string, members: string[], displayName = name): Json => ({
  apiVersion: 'v1',
  kind: 'meshWorkspaceUserGroup',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName, members },
});
/** A workspace with a collection of the same name. */
async function workspaceWithCollection(client: ApiClient, prefix: string): Promise<string> {
  const workspace = unique(prefix);
  await createWorkspace(client, workspace);
  const collection = await client.post(
    '/api/meshobjectcollections',
    { name: workspace, owner: prefix, description: '', ownedByWorkspace: workspace },
    { headers: { 'content-type': COLLECTION } },
  );
  assert.equal(collection.status, 201, collection.text);
  return workspace;
}
const importInto = (client: ApiClient, collection: string, objects: Json[]) =>
  client.put(`${PATHS.import}?meshObjectCollection=${collection}`, JSON.stringify(objects), {
    headers: { accept: IMPORT_JSON, 'content-type': IMPORT_JSON },
  });

describeEachDatabase('an import into a collection', (ctx) => {
  it('saves groups together as it would one by one: the same results, objects and events', async () => {
    const workspace = await workspaceWithCollection(ctx.client, 'together');
    const member = unique('together-user');
    const user = await ctx.client.post(
      '/api/meshobjects/meshusers',
      {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: member },
        spec: { email: `${member}@example.com`, firstName: 'T', lastName: 'U' },
      },
      { headers: { accept: USER, 'content-type': USER } },
    );
    assert.equal(user.status, 201, user.text);
    const first = results(
      await importInto(ctx.client, workspace, [
        groupObject(workspace, 'kept', []),
        groupObject(workspace, 'changed', []),
        groupObject(workspace, 'gone', []),
      ]),
      3,
    );
    assert.deepEqual(
      first.map((entry) => [entry.status, entry.message]),
      Array(3).fill(['SUCCESS', 'created']),
    );
    const second = [
      groupObject(workspace, 'kept', []),
      groupObject(workspace, 'changed', [member], 'Changed'),
      groupObject(workspace, 'new', [member]),
    ];
    // With a failing object the import is tried one by one: its remarks say what each object would have been.
    const failed = await importInto(ctx.client, workspace, [...second, groupObject(workspace, 'bad', [unique('ghost')])]);
    assert.equal(failed.status, 200, failed.text);
    const failing = failed.json as Json[];
    const wouldHave = failing.slice(0, 3).map((entry) => [entry.meshObject, entry.remarks[0]]);
    assert.deepEqual(wouldHave, [
      [`meshWorkspaceUserGroup[${workspace}.kept]`, 'would have been updated'],
      [`meshWorkspaceUserGroup[${workspace}.changed]`, 'would have been updated'],
      [`meshWorkspaceUserGroup[${workspace}.new]`, 'would have been created'],
    ]);
    const stored = results(await importInto(ctx.client, workspace, second), 4);
    assert.deepEqual(
      stored.map((entry) => [entry.meshObject, entry.status, entry.message]),
      [
        [`meshWorkspaceUserGroup[${workspace}.kept]`, 'SUCCESS', 'updated'],
        [`meshWorkspaceUserGroup[${workspace}.changed]`, 'SUCCESS', 'updated'],
        [`meshWorkspaceUserGroup[${workspace}.new]`, 'SUCCESS', 'created'],
        [`meshWorkspaceUserGroup[${workspace}.gone]`, 'SUCCESS', 'deleted'],
      ],
    );
    const GROUP = 'application/vnd.vendor.api.meshworkspaceusergroup.v1.hal+json';
    const changed = await ctx.client.get(`/api/meshobjects/meshworkspaceusergroups/${workspace}.changed`, { headers: { accept: GROUP } });
    assert.deepEqual([changed.json.spec.displayName, changed.json.spec.members], ['Changed', [member]]);
    const events = await ctx.client.get(`/api/meshobjects/mesheventlogs?workspaceIdentifier=${workspace}&size=50`, {
      headers: { accept: 'application/vnd.vendor.api.mesheventlog.v1-preview.hal+json' },
    });
    assert.equal(events.status, 200, events.text);
    const titles = (events.json._embedded.meshEventLogs as Json[]).map((event) => event.spec.title).reverse();
    // Three created; then, from the second import, what one by one writes: "changed" gets its member and its
    // new name, "new" is created, "gone" deleted ("kept" is as it was: no event).
    assert.deepEqual(titles.slice(2), [
      'Workspace Group Created',
      'Workspace Group Created',
      'Workspace Group Created',
      'Workspace Group Members Added',
      'Workspace Group Changed',
      'Workspace Group Created',
      'Workspace Group Deleted',
    ]);
  });

  it('saves a group named twice as one by one would: created, then updated by the second', async () => {
    const workspace = await workspaceWithCollection(ctx.client, 'twice');
    const entries = results(
      await importInto(ctx.client, workspace, [
        groupObject(workspace, 'first', []),
        groupObject(workspace, 'twice', [], 'One'),
        groupObject(workspace, 'twice', [], 'Two'),
      ]),
      3,
    );
    assert.deepEqual(
      entries.map((entry) => [entry.meshObject, entry.message]),
      [
        [`meshWorkspaceUserGroup[${workspace}.first]`, 'created'],
        [`meshWorkspaceUserGroup[${workspace}.twice]`, 'created'],
        [`meshWorkspaceUserGroup[${workspace}.twice]`, 'updated'],
      ],
    );
    const group = await ctx.client.get(`/api/meshobjects/meshworkspaceusergroups/${workspace}.twice`, {
      headers: { accept: 'application/vnd.vendor.api.meshworkspaceusergroup.v1.hal+json' },
    });
    assert.equal(group.json.spec.displayName, 'Two');
  });

  it('lets other requests through while it runs: no pause as long as the import itself', async () => {
    const workspace = await workspaceWithCollection(ctx.client, 'turns');
    // The last object fails: every object is tried together, then one by one (the longest an import takes).
    const objects = [
      ...Array.from({ length: 999 }, (_, i) => groupObject(workspace, `group-${i}`, [])),
      groupObject(workspace, 'bad', ['no such user']),
    ];
    let done = false;
    const started = Date.now();
    const importing = importInto(ctx.client, workspace, objects).finally(() => (done = true));
    // Reads one after the other (paced within the rate limit) while the import runs: the longest wait between two answers.
    let last = Date.now();
    let longestGap = 0;
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const read = await ctx.client.get(`${PATHS.workspaces}/${workspace}`, { headers: { accept: WORKSPACE } });
      assert.equal(read.status, 200, read.text);
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }
    const duration = Date.now() - started;
    const answer = await importing;
    assert.equal(answer.status, 200, answer.text);
    assert.equal((answer.json as Json[]).length, 1001);
    // An import that kept the event loop to itself would leave one gap about as long as it is.
    assert.ok(longestGap < duration / 3, `a read waited ${longestGap} ms during an import of ${duration} ms`);
  });
});
