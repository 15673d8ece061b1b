/**
 * meshServiceInstance v2, black-box on both databases: the published statuses (POST 200,
 * PUT and DELETE 202), the list's filters, the 4xx paths (nothing stored), the deletion's DELETING
 * state until the instance is gone, the project it keeps, workspace isolation, events and the import.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { DEPROVISIONING_SECONDS } from '../src/kinds/serviceinstance/model.js';
import { media, type ApiClient } from './support/client.js';
import { eventsAbout, titlesOf } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createProject, createWorkspace, IMPORT_JSON, io, unique, type Json } from './support/structure.js';

const INSTANCES = '/api/meshobjects/meshserviceinstances';
const INSTANCE = media('meshserviceinstance', 'v2');
const INSTANCE_MESHCLOUD = media('meshServiceInstance', 'v2', 'meshcloud');

/** The vendor's POST example, in the given project and with a fresh instance id. */
const instanceBody = (workspace: string, project: string, instanceId = unique('si'), spec: Json = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshServiceInstance',
  metadata: { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'eu-west-1', instanceId },
  spec: { displayName: 'New SI', serviceId: 'zivr0mtdg24', planId: 'zivr0mtdg26', creator: 'alice@example.com', ...spec },
});

const assertError = (response: { status: number; text: string; json: Json }, status: number, message: RegExp) => {
  assert.equal(response.status, status, response.text);
  assert.match(response.json.message, message);
};

describeEachDatabase('service instances (meshServiceInstance v2)', (ctx) => {
  let workspace: string;
  let project: string;
  let admin: ApiClient;

  const post = (body: Json, client = admin) => client.post(INSTANCES, body, { headers: io(INSTANCE) });
  const get = (instanceId: string, client = admin) => client.get(`${INSTANCES}/${instanceId}`, { headers: { accept: INSTANCE } });
  const ids = async (query: string, client = admin) => {
    const response = await client.get(`${INSTANCES}${query}`, { headers: { accept: INSTANCE } });
    assert.equal(response.status, 200, response.text);
    return (response.json._embedded.meshServiceInstances as Json[]).map((instance) => instance.metadata.instanceId as string).sort();
  };

  before(async () => {
    admin = ctx.client;
    workspace = unique('si-ws');
    project = unique('si-prj');
    await createWorkspace(admin, workspace);
    await createProject(admin, workspace, project);
  });

  it('creates from the vendor example: 200 with Location, the creator "Unknown" unless a meshUser of that name exists; GET answers it', async () => {
    // The vendor's camelCase media type in the meshcloud vendor, as real clients send it.
    const created = await admin.post(INSTANCES, instanceBody(workspace, project, `serviceInstanceId-${unique('x')}`), {
      headers: io(INSTANCE_MESHCLOUD),
    });
    assert.equal(created.status, 200, created.text);
    assert.match(created.headers['content-type'] ?? '', /^application\/vnd\.meshcloud\.api\.meshserviceinstance\.v2\.hal\+json/i);
    const instanceId = created.json.metadata.instanceId as string;
    assert.equal(created.headers.location, created.json._links.self.href);
    assert.deepEqual(
      {
        apiVersion: created.json.apiVersion,
        kind: created.json.kind,
        metadata: { ...created.json.metadata, createdOn: undefined },
        spec: created.json.spec,
        status: created.json.status,
      },
      {
        apiVersion: 'v2',
        kind: 'meshServiceInstance',
        metadata: {
          ownedByProject: project,
          ownedByWorkspace: workspace,
          marketplaceIdentifier: 'eu-west-1',
          instanceId,
          createdOn: undefined,
        },
        spec: { displayName: 'New SI', serviceId: 'zivr0mtdg24', planId: 'zivr0mtdg26', creator: 'Unknown' },
        status: { state: 'ACTIVE' },
      },
    );
    assert.ok(created.json._links.meshproject.href.endsWith(`/meshprojects/${workspace}.${project}`));
    const read = await get(instanceId);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json, created.json);

    const username = unique('si-user');
    const user = await admin.post(
      '/api/meshobjects/meshusers',
      {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: username },
        spec: { email: `${username}@example.com`, firstName: 'Si', lastName: 'User' },
      },
      { headers: io(media('meshuser', 'v2')) },
    );
    assert.equal(user.status, 201, user.text);
    const withParameters = await post(
      instanceBody(workspace, project, unique('si'), { creator: username, parameters: { size: 'small', replicas: 2 } }),
    );
    assert.equal(withParameters.status, 200, withParameters.text);
    assert.equal(withParameters.json.spec.creator, username);
    assert.deepEqual(withParameters.json.spec.parameters, { size: 'small', replicas: 2 });
  });

  it('refuses bad bodies with a 400 naming the field and unknown projects with a 422; nothing is stored; a second instance of an id is 409', async () => {
    const cases: [Json, number, RegExp][] = [
      [instanceBody(workspace, project, unique('si'), { displayName: '' }), 400, /^spec\.displayName:/],
      [instanceBody(workspace, project, unique('si'), { planId: undefined }), 400, /^spec\.planId:/],
      [instanceBody(workspace, project, unique('si'), { displayName: 'x'.repeat(256) }), 400, /^spec\.displayName:/],
      [instanceBody(workspace, project, unique('si'), { parameters: 'not an object' }), 400, /^spec\.parameters:/],
      [{ ...instanceBody(workspace, project), kind: 'meshTenant' }, 400, /^kind:/],
      [instanceBody(workspace, 'no-such-project'), 422, /^metadata\.ownedByProject: meshProject "[^"]*no-such-project" does not exist/],
      [instanceBody('no-such-workspace', project), 422, /^metadata\.ownedByProject:/],
    ];
    const before = await ids(`?workspaceIdentifier=${workspace}`);
    for (const [body, status, message] of cases) assertError(await post(body), status, message);
    assertError(await post(instanceBody(workspace, project, 'a/b')), 400, /^metadata\.instanceId:/);
    assert.deepEqual(await ids(`?workspaceIdentifier=${workspace}`), before, 'nothing stored');
    for (const [body] of cases) assert.equal((await get(body.metadata.instanceId)).status, 404, 'nothing stored');

    const body = instanceBody(workspace, project);
    assert.equal((await post(body)).status, 200);
    assertError(await post({ ...body, spec: { ...body.spec, displayName: 'Again' } }), 409, /already exists/);
    assert.equal((await get(body.metadata.instanceId)).json.spec.displayName, 'New SI');
    assertError(
      await admin.get(INSTANCES, { headers: { accept: media('meshserviceinstance', 'v1') } }),
      406,
      /retired on 2025-03-01; use meshServiceInstance\.v2/,
    );
  });

  it('applies every documented filter; projectIdentifier requires workspaceIdentifier and planIdentifier serviceIdentifier (400)', async () => {
    const ws = unique('si-flt');
    await createWorkspace(admin, ws);
    const [p1, p2] = [unique('p1'), unique('p2')];
    await createProject(admin, ws, p1);
    await createProject(admin, ws, p2);
    const made = async (projectName: string, marketplace: string, serviceId: string, planId: string) => {
      const body = instanceBody(ws, projectName, unique('si'), { serviceId, planId });
      body.metadata.marketplaceIdentifier = marketplace;
      const response = await post(body);
      assert.equal(response.status, 200, response.text);
      return body.metadata.instanceId as string;
    };
    const a = await made(p1, 'm1', 's1', 'plan-a');
    const b = await made(p1, 'm2', 's1', 'plan-b');
    const c = await made(p2, 'm1', 's2', 'plan-a');
    const scope = `workspaceIdentifier=${ws}`;
    assert.deepEqual(await ids(`?${scope}`), [a, b, c].sort());
    assert.deepEqual(await ids(`?${scope}&projectIdentifier=${p1}`), [a, b].sort());
    assert.deepEqual(await ids(`?${scope}&marketplaceIdentifier=m1`), [a, c].sort());
    assert.deepEqual(await ids(`?${scope}&serviceIdentifier=s1`), [a, b].sort());
    assert.deepEqual(await ids(`?${scope}&serviceIdentifier=s1&planIdentifier=plan-b`), [b]);
    assert.deepEqual(await ids(`?${scope}&serviceIdentifier=s2&planIdentifier=plan-b`), []);
    assert.deepEqual(await ids(`?workspaceIdentifier=no-such-workspace`), []);
    assertError(
      await admin.get(`${INSTANCES}?projectIdentifier=${p1}`, { headers: { accept: INSTANCE } }),
      400,
      /^projectIdentifier: requires workspaceIdentifier/,
    );
    assertError(
      await admin.get(`${INSTANCES}?planIdentifier=plan-a`, { headers: { accept: INSTANCE } }),
      400,
      /^planIdentifier: requires serviceIdentifier/,
    );
  });

  it('PUT answers 202 without a body and changes name, plan and parameters; identity and service cannot change (400); unknown ids 404', async () => {
    const body = instanceBody(workspace, project);
    const id = body.metadata.instanceId as string;
    assert.equal((await post(body)).status, 200);
    const put = (sent: Json, target = id) => admin.put(`${INSTANCES}/${target}`, sent, { headers: io(INSTANCE) });
    const updated = await put({
      ...body,
      spec: { ...body.spec, displayName: 'New SI updated', planId: 'plan-2', parameters: { tier: 'gold' } },
    });
    assert.equal(updated.status, 202, updated.text);
    assert.equal(updated.text, '');
    const read = (await get(id)).json;
    assert.deepEqual(
      [read.spec.displayName, read.spec.planId, read.spec.parameters, read.spec.creator],
      ['New SI updated', 'plan-2', { tier: 'gold' }, 'Unknown'],
    );
    assertError(await put({ ...body, spec: { ...body.spec, serviceId: 'other' } }), 400, /^spec\.serviceId: "other" does not match/);
    assertError(
      await put({ ...body, metadata: { ...body.metadata, marketplaceIdentifier: 'other' } }),
      400,
      /^metadata\.marketplaceIdentifier:/,
    );
    assertError(await put({ ...body, metadata: { ...body.metadata, instanceId: 'other' } }), 400, /^metadata\.instanceId:/);
    assertError(await put(body, 'no-such-instance'), 404, /meshServiceInstance no-such-instance not found/);
    assert.equal((await get(id)).json.spec.displayName, 'New SI updated', 'the refused PUTs changed nothing');
  });

  it('DELETE answers 202; the instance is DELETING (readable, listed, unchangeable, its project deletable) until it is gone; then its id is free again', async () => {
    const ws = unique('si-del');
    const prj = unique('prj');
    await createWorkspace(admin, ws);
    await createProject(admin, ws, prj);
    const body = instanceBody(ws, prj);
    const id = body.metadata.instanceId as string;
    assert.equal((await post(body)).status, 200);
    assertError(await admin.delete(`/api/meshobjects/meshprojects/${ws}.${prj}`), 409, /still has 1 meshServiceInstances/);

    const deleted = await admin.delete(`${INSTANCES}/${id}`);
    assert.equal(deleted.status, 202, deleted.text);
    const deleting = await get(id);
    assert.equal(deleting.status, 200, deleting.text);
    assert.equal(deleting.json.status.state, 'DELETING');
    assert.ok(Date.parse(deleting.json.metadata.markedForDeletionOn) > 0, deleting.text);
    assert.deepEqual(await ids(`?workspaceIdentifier=${ws}`), [id]);
    assertError(await admin.put(`${INSTANCES}/${id}`, body, { headers: io(INSTANCE) }), 409, /is being deleted/);
    assertError(await post(body), 409, /already exists/);
    assert.equal((await admin.delete(`${INSTANCES}/${id}`)).status, 202, 'a second DELETE is accepted as well');

    // Gone DEPROVISIONING_SECONDS after the DELETE: polled, never waited on blindly.
    const deadline = Date.now() + (DEPROVISIONING_SECONDS + 30) * 1000;
    while ((await get(id)).status === 200) {
      assert.ok(Date.now() < deadline, 'the deleted instance is gone in time');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assertError(await get(id), 404, /not found/);
    assert.deepEqual(await ids(`?workspaceIdentifier=${ws}`), []);
    assert.equal((await post(body)).status, 200, 'the id of a gone instance is free again');
    assert.equal((await admin.delete(`${INSTANCES}/${id}`)).status, 202);
    // The project goes with its deleting instance (it is no longer live).
    assert.equal((await admin.delete(`/api/meshobjects/meshprojects/${ws}.${prj}`)).status, 202);
    assert.equal((await get(id)).status, 404);

    const titles = titlesOf(await eventsAbout(admin, id, `workspaceIdentifier=${ws}`));
    assert.deepEqual(titles, [
      'Service Instance Created',
      'Service Instance Deleted',
      'Service Instance Created',
      'Service Instance Deleted',
    ]);
  });

  it('records created and changed instances in the event log with their workspace; a PUT that changes nothing records nothing', async () => {
    const body = instanceBody(workspace, project);
    const id = body.metadata.instanceId as string;
    assert.equal((await post(body)).status, 200);
    assert.equal((await admin.put(`${INSTANCES}/${id}`, body, { headers: io(INSTANCE) })).status, 202);
    assert.equal(
      (await admin.put(`${INSTANCES}/${id}`, { ...body, spec: { ...body.spec, planId: 'bigger' } }, { headers: io(INSTANCE) })).status,
      202,
    );
    const events = await eventsAbout(admin, id, `workspaceIdentifier=${workspace}`);
    assert.deepEqual(titlesOf(events), ['Service Instance Created', 'Service Instance Changed']);
    assert.equal(events[1]!.spec.previousContent.spec.planId, 'zivr0mtdg26');
    assert.equal(events[1]!.spec.content.spec.planId, 'bigger');
  });

  it('keeps workspaces apart: another workspace’s key gets 404 on reads and writes of A’s instance, 403 creating in A, a list without it; a key without SERVICEINSTANCE_SAVE gets 403', async () => {
    const body = instanceBody(workspace, project);
    const id = body.metadata.instanceId as string;
    assert.equal((await post(body)).status, 200);
    const other = unique('si-other');
    await createWorkspace(admin, other);
    const b = (
      await clientWithKey(admin, other, ['SERVICEINSTANCE_LIST', 'SERVICEINSTANCE_SAVE', 'SERVICEINSTANCE_DELETE', 'PROJECT_LIST'])
    ).client;
    assertError(await get(id, b), 404, /not found/);
    assertError(await b.put(`${INSTANCES}/${id}`, body, { headers: io(INSTANCE) }), 404, /not found/);
    assertError(await b.delete(`${INSTANCES}/${id}`), 404, /not found/);
    assertError(await post(instanceBody(workspace, project), b), 403, /sufficient permissions/);
    assert.deepEqual(await ids(`?workspaceIdentifier=${workspace}`, b), []);
    assert.ok(!(await ids('', b)).includes(id));
    assert.equal((await get(id)).json.status.state, 'ACTIVE', 'the refused DELETE changed nothing');

    const reader = (await clientWithKey(admin, workspace, ['SERVICEINSTANCE_LIST'])).client;
    assert.equal((await get(id, reader)).status, 200);
    assertError(await post(instanceBody(workspace, project), reader), 403, /SERVICEINSTANCE_SAVE/);
    assertError(await reader.delete(`${INSTANCES}/${id}`), 403, /SERVICEINSTANCE_DELETE/);
    const writer = (await clientWithKey(admin, workspace, ['SERVICEINSTANCE_SAVE'])).client;
    const own = await post(instanceBody(workspace, project), writer);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.spec.creator, 'Unknown', 'a workspace key sees no meshUsers');
  });

  it('links a workspace’s and a project’s service instances for callers who may list them there, item by item in lists; another workspace’s key sees nothing of it', async () => {
    const read = (client: ApiClient, path: string, type: string) =>
      client.get(path, { headers: { accept: type } }).then((r) => r.json._links as Json);
    const WORKSPACE_PATH = `/api/meshobjects/meshworkspaces/${workspace}`;
    const PROJECT_PATH = `/api/meshobjects/meshprojects/${workspace}.${project}`;
    const [ws, prj] = [media('meshworkspace', 'v2'), media('meshproject', 'v2')];
    assert.match(
      (await read(admin, WORKSPACE_PATH, ws)).meshserviceinstances.href,
      new RegExp(`${INSTANCES}\\?workspaceIdentifier=${workspace}$`),
    );
    assert.match(
      (await read(admin, PROJECT_PATH, prj)).meshserviceinstances.href,
      new RegExp(`${INSTANCES}\\?workspaceIdentifier=${workspace}&projectIdentifier=${project}$`),
    );
    const lister = (await clientWithKey(admin, workspace, ['WORKSPACE_LIST', 'PROJECT_LIST', 'SERVICEINSTANCE_LIST'])).client;
    assert.ok((await read(lister, WORKSPACE_PATH, media('meshworkspace', 'v1'))).meshserviceinstances);
    assert.ok((await read(lister, PROJECT_PATH, prj)).meshserviceinstances);
    const other = (await clientWithKey(admin, workspace, ['WORKSPACE_LIST', 'PROJECT_LIST'])).client;
    assert.equal((await read(other, WORKSPACE_PATH, ws)).meshserviceinstances, undefined);
    assert.equal((await read(other, PROJECT_PATH, prj)).meshserviceinstances, undefined);

    // Another workspace's key, even holding SERVICEINSTANCE_LIST, sees nothing of this workspace at all.
    const elsewhere = unique('si-links');
    await createWorkspace(admin, elsewhere);
    await createProject(admin, elsewhere, project);
    const outsider = (await clientWithKey(admin, elsewhere, ['WORKSPACE_LIST', 'PROJECT_LIST', 'SERVICEINSTANCE_LIST'])).client;
    assert.equal((await outsider.get(WORKSPACE_PATH, { headers: { accept: ws } })).status, 404);
    assert.equal((await outsider.get(PROJECT_PATH, { headers: { accept: prj } })).status, 404);
    const outsiderProjects = (
      await outsider.get(`/api/meshobjects/meshprojects?workspaceIdentifier=${workspace}`, { headers: { accept: prj } })
    ).json;
    assert.deepEqual(outsiderProjects._embedded.meshProjects, []);
    assert.ok(
      (await read(outsider, `/api/meshobjects/meshworkspaces/${elsewhere}`, ws)).meshserviceinstances,
      'its own workspace is linked',
    );

    // In a list each item is linked by its own workspace: an ADM_ reader listing service instances only in its own workspace.
    const reader = (await clientWithKey(admin, elsewhere, ['ADM_WORKSPACE_LIST', 'ADM_PROJECT_LIST', 'SERVICEINSTANCE_LIST'])).client;
    const linked = async (path: string, type: string, embedded: string, name: (item: Json) => string) => {
      const items = (await reader.get(path, { headers: { accept: type } })).json._embedded[embedded] as Json[];
      return new Map(items.map((item) => [name(item), item._links.meshserviceinstances !== undefined]));
    };
    const workspaces = await linked('/api/meshobjects/meshworkspaces?size=350', ws, 'meshWorkspaces', (item) => item.metadata.name);
    assert.equal(workspaces.get(elsewhere), true);
    assert.equal(workspaces.get(workspace), false);
    assert.deepEqual(
      [...workspaces].filter(([, hasLink]) => hasLink).map(([name]) => name),
      [elsewhere],
    );
    const projects = await linked(
      `/api/meshobjects/meshprojects?size=350`,
      prj,
      'meshProjects',
      (item) => `${item.metadata.ownedByWorkspace}.${item.metadata.name}`,
    );
    assert.equal(projects.get(`${elsewhere}.${project}`), true);
    assert.equal(projects.get(`${workspace}.${project}`), false);
  });

  it('imports meshServiceInstance v2 (created, then updated by its instanceId); v1 is refused as retired', async () => {
    const body = instanceBody(workspace, project);
    const send = (objects: Json[]) => admin.put('/api/meshobjects', JSON.stringify(objects), { headers: io(IMPORT_JSON) });
    const first = await send([body]);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      first.json.map((r: Json) => [r.meshObject, r.status, r.message]),
      [[`meshServiceInstance[${body.metadata.instanceId}]`, 'SUCCESS', 'created']],
    );
    const again = await send([
      { ...body, spec: { ...body.spec, displayName: 'Imported again' } },
      { ...body, apiVersion: 'v1' },
    ]);
    assert.deepEqual(
      again.json.map((r: Json) => r.status),
      ['SUCCESS', 'FAILED'],
    );
    assert.equal(again.json[0].message, 'updated');
    assert.match(again.json[1].message, /meshserviceinstance was retired on 2025-07-01; use meshServiceInstance\.v2/);
    assert.equal((await get(body.metadata.instanceId)).json.spec.displayName, 'Imported again');
  });
});
