/**
 * People and roles, black-box on both databases: meshUser v2, meshWorkspaceUserGroup v1
 * (through the import), workspace bindings v2, project bindings v3, meshProjectRole v1, the import's
 * older binding forms, workspace isolation, and what deleting a user takes with it.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { media, type ApiClient, type Response } from './support/client.js';
import { allEvents, titlesOf } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createProject, createWorkspace, IMPORT_JSON, io, unique, type Json } from './support/structure.js';

const BASE = '/api/meshobjects';
const P = {
  users: `${BASE}/meshusers`,
  groups: `${BASE}/meshworkspaceusergroups`,
  wsUser: `${BASE}/meshworkspacebindings/userbindings`,
  wsGroup: `${BASE}/meshworkspacebindings/groupbindings`,
  prjUser: `${BASE}/meshprojectbindings/userbindings`,
  prjGroup: `${BASE}/meshprojectbindings/groupbindings`,
  roles: `${BASE}/meshprojectroles`,
};
const USER = media('meshuser', 'v2');
const GROUP = media('meshworkspaceusergroup', 'v1');
const WS_USER = media('meshworkspaceuserbinding', 'v2');
const WS_GROUP = media('meshworkspacegroupbinding', 'v2');
const PRJ_USER = media('meshprojectuserbinding', 'v3');
const PRJ_GROUP = media('meshprojectgroupbinding', 'v3');
const ROLE = media('meshprojectrole', 'v1');
const COLLECTION = 'application/vnd.vendor.api.meshobjectcollection.v1+json';

function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

const userBody = (name: string, spec: Json = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshUser',
  metadata: { name },
  spec: { email: `${name}@example.com`, firstName: 'First', lastName: `Last ${name}`, ...spec },
});
const wsBinding = (
  kind: 'meshWorkspaceUserBinding' | 'meshWorkspaceGroupBinding',
  name: string,
  workspace: string,
  role: string,
  subject: string,
): Json => ({
  apiVersion: 'v2',
  kind,
  metadata: { name },
  targetRef: { name: workspace },
  roleRef: { name: role },
  subject: { name: subject },
});
const prjBinding = (
  kind: 'meshProjectUserBinding' | 'meshProjectGroupBinding',
  name: string,
  workspace: string,
  project: string,
  role: string,
  subject: string,
): Json => ({
  apiVersion: 'v3',
  kind,
  metadata: { name },
  targetRef: { name: project, ownedByWorkspace: workspace },
  roleRef: { name: role },
  subject: { name: subject },
});
const groupObject = (workspace: string, name: string, members: string[], spec: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'meshWorkspaceUserGroup',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: `Group ${name}`, members, ...spec },
});

async function created(client: ApiClient, path: string, type: string, body: Json): Promise<Json> {
  const response = await client.post(path, body, { headers: io(type) });
  assert.equal(response.status, 201, `POST ${path}: ${response.text}`);
  assert.equal(response.headers.location, response.json._links.self.href);
  return response.json;
}

async function imported(client: ApiClient, objects: Json[], query = ''): Promise<Json[]> {
  const response = await client.put(`${BASE}${query}`, objects, { headers: io(IMPORT_JSON) });
  assert.equal(response.status, 200, response.text);
  return response.json;
}

/** A new meshObjectCollection (of owner platform-team) of the workspace, or of admins only; its name. */
async function newCollection(client: ApiClient, ownedByWorkspace: string | null = null): Promise<string> {
  const name = unique('coll');
  const response = await client.post(
    '/api/meshobjectcollections',
    { name, owner: 'platform-team', description: '', ownedByWorkspace },
    { headers: { 'content-type': COLLECTION } },
  );
  assert.equal(response.status, 201, response.text);
  return name;
}

async function names(client: ApiClient, path: string, type: string, embedded: string, query = ''): Promise<string[]> {
  const response = await client.get(`${path}?size=350${query ? `&${query}` : ''}`, { headers: { accept: type } });
  assert.equal(response.status, 200, `${path}?${query}: ${response.text}`);
  return (response.json._embedded[embedded] as Json[]).map((item) => item.metadata.name as string).sort();
}

describeEachDatabase('people and roles', (ctx) => {
  let admin: ApiClient;
  const ws = unique('ppl-ws');
  const other = unique('ppl-other');
  const project = unique('ppl-prj');
  const [alice, bob, carol] = [unique('alice'), unique('bob'), unique('carol')];
  const group = unique('devs');

  before(async () => {
    admin = ctx.client;
    await createWorkspace(admin, ws);
    await createWorkspace(admin, other);
    await createProject(admin, ws, project);
    for (const name of [alice, bob, carol])
      await created(admin, P.users, USER, userBody(name, name === alice ? { euid: `euid-${alice}`, tags: { team: ['a'] } } : {}));
  });

  it('creates, reads, upserts and lists meshUsers as the OpenAPI documents them', async () => {
    const got = await admin.get(`${P.users}/${alice}`, { headers: { accept: USER } });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json.kind, 'meshUser');
    assert.equal(got.json.apiVersion, 'v2');
    assert.match(got.json.metadata.uuid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(got.json.spec, {
      email: `${alice}@example.com`,
      firstName: 'First',
      lastName: `Last ${alice}`,
      euid: `euid-${alice}`,
      tags: { team: ['a'] },
    });
    assert.match(got.json._links.meshworkspaceusergroups.href, new RegExp(`/meshworkspaceusergroups\\?username=${alice}$`));
    // PUT replaces (uuid kept) and creates what does not exist (upsert).
    const put = await admin.put(`${P.users}/${alice}`, userBody(alice, { firstName: 'Alice', euid: `euid-${alice}` }), {
      headers: io(USER),
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.metadata.uuid, got.json.metadata.uuid);
    assert.equal(put.json.spec.firstName, 'Alice');
    const dave = unique('dave');
    const upsert = await admin.put(`${P.users}/${dave}`, userBody(dave), { headers: io(USER) });
    assert.equal(upsert.status, 200, upsert.text);
    // The vendor's request examples are accepted.
    const fresh = unique('new');
    await created(admin, P.users, USER, {
      apiVersion: 'v2',
      kind: 'meshUser',
      metadata: { name: fresh },
      spec: { email: 'new@example.com', euid: `${fresh}123`, firstName: 'New', lastName: 'User', tags: {} },
    });
    const samira = unique('samira-johnson');
    assert.equal(
      (
        await admin.put(
          `${P.users}/${samira}`,
          {
            apiVersion: 'v2',
            kind: 'meshUser',
            metadata: { name: samira },
            spec: { email: 'sjohnson@example.com', euid: `09fda8d9-${samira}`, firstName: 'Samira', lastName: 'Johnson', tags: {} },
          },
          { headers: io(USER) },
        )
      ).status,
      200,
    );
    // Filters on the user's own fields.
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `username=${alice}`), [alice]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `euid=euid-${alice}`), [alice]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `uuid=${got.json.metadata.uuid}`), [alice]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `email=${bob}@example.com`), [bob]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `lastName=Last ${carol}`), [carol]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', 'firstName=Alice'), [alice]);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', 'email=nobody@example.com'), []);
  });

  it('refuses bad users with 400/409/404 and nothing stored', async () => {
    assertError(
      await admin.post(P.users, userBody('Bad Name', { email: 'bad@example.com' }), { headers: io(USER) }),
      400,
      /^metadata\.name:/,
    );
    assertError(await admin.post(P.users, userBody(unique('x'), { email: 'not-an-email' }), { headers: io(USER) }), 400, /^spec\.email:/);
    assertError(
      await admin.post(
        P.users,
        { apiVersion: 'v2', kind: 'meshUser', metadata: { name: unique('x') }, spec: { email: 'a@b.c' } },
        { headers: io(USER) },
      ),
      400,
      /^spec\.firstName:/,
    );
    assertError(await admin.post(P.users, userBody(alice), { headers: io(USER) }), 409, /already exists/);
    const taken = unique('taken');
    assertError(await admin.post(P.users, userBody(taken, { euid: `euid-${alice}` }), { headers: io(USER) }), 409, /spec\.euid/);
    assert.equal((await admin.get(`${P.users}/${taken}`, { headers: { accept: USER } })).status, 404);
    assertError(await admin.put(`${P.users}/${bob}`, userBody(carol), { headers: io(USER) }), 400, /^metadata\.name:/);
    assertError(await admin.get(`${P.users}/${unique('nobody')}`, { headers: { accept: USER } }), 404);
    assertError(await admin.post(P.users, userBody(unique('x')), { headers: { accept: USER, 'content-type': 'application/json' } }), 415);
    assertError(await admin.get(P.users, { headers: { accept: media('meshuser', 'v1') } }), 406, /retired on 2025-03-01; use meshUser\.v2/);
    assertError(
      await admin.get(`${P.users}?projectIdentifier=${project}`, { headers: { accept: USER } }),
      400,
      /^projectIdentifier: requires workspaceIdentifier/,
    );
    assertError(
      await admin.get(`${P.users}?workspaceUserGroupIdentifier=${ws}.${group}&email=x`, { headers: { accept: USER } }),
      400,
      /^workspaceUserGroupIdentifier: must be used alone/,
    );
  });

  it('imports groups (members must be users), reads them over REST, and binds users and groups to workspaces and projects', async () => {
    const results = await imported(admin, [groupObject(ws, group, [alice, bob], { egid: 'ext-1' })]);
    assert.deepEqual(
      results.map((r) => [r.meshObject, r.status, r.message]),
      [[`meshWorkspaceUserGroup[${ws}.${group}]`, 'SUCCESS', 'created']],
    );
    const again = await imported(admin, [groupObject(ws, group, [alice, bob], { egid: 'ext-1' })]);
    assert.equal(again[0]!.message, 'updated');
    const bad = await imported(admin, [
      groupObject(ws, unique('g'), [alice, unique('ghost')]),
      groupObject(unique('no-ws'), unique('g'), []),
    ]);
    assert.equal(bad[0]!.status, 'FAILED');
    assert.match(bad[0]!.message, /^spec\.members\[1\]: meshUser ".*" does not exist/);
    assert.equal(bad[1]!.resultCode, 'WORKSPACE_NOT_FOUND');

    const read = await admin.get(`${P.groups}/${ws}.${group}`, { headers: { accept: GROUP } });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json.metadata, { name: group, ownedByWorkspace: ws });
    assert.deepEqual(read.json.spec, { displayName: `Group ${group}`, egid: 'ext-1', members: [alice, bob], tags: {} });
    assert.ok(read.json._links.meshworkspace.href.endsWith(`/meshworkspaces/${ws}`));
    assert.deepEqual(await names(admin, P.groups, GROUP, 'meshWorkspaceUserGroups', `username=${alice}`), [group]);
    assert.deepEqual(await names(admin, P.groups, GROUP, 'meshWorkspaceUserGroups', `workspaceIdentifier=${other}`), []);
    assert.deepEqual(await names(admin, P.users, USER, 'meshUsers', `workspaceUserGroupIdentifier=${ws}.${group}`), [alice, bob].sort());

    // Workspace bindings (the vendor's example bodies, with names of this test).
    const wsUserBinding = unique('wub');
    const made = await created(
      admin,
      P.wsUser,
      WS_USER,
      wsBinding('meshWorkspaceUserBinding', wsUserBinding, ws, 'Workspace Member', carol),
    );
    assert.deepEqual(
      { ...made, _links: undefined },
      {
        apiVersion: 'v2',
        kind: 'meshWorkspaceUserBinding',
        metadata: { name: wsUserBinding },
        roleRef: { name: 'Workspace Member' },
        targetRef: { name: ws, displayName: `Workspace ${ws}` },
        subject: { name: carol },
        _links: undefined,
      },
    );
    const wsGroupBinding = unique('wgb');
    await created(admin, P.wsGroup, WS_GROUP, wsBinding('meshWorkspaceGroupBinding', wsGroupBinding, ws, 'Workspace Manager', group));
    assertError(
      await admin.post(P.wsGroup, wsBinding('meshWorkspaceGroupBinding', unique('x'), ws, 'Workspace Owner', group), {
        headers: io(WS_GROUP),
      }),
      422,
      /^roleRef\.name: the Workspace Owner role cannot be given to a group/,
    );
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', unique('x'), ws, 'Workspace Boss', carol), { headers: io(WS_USER) }),
      422,
      /^roleRef\.name:/,
    );
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', unique('x'), ws, 'Workspace Member', unique('ghost')), {
        headers: io(WS_USER),
      }),
      422,
      /^subject\.name: meshUser/,
    );
    assertError(
      await admin.post(P.wsGroup, wsBinding('meshWorkspaceGroupBinding', unique('x'), ws, 'Workspace Member', unique('ghost')), {
        headers: io(WS_GROUP),
      }),
      422,
      /^subject\.name:/,
    );
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', unique('x'), unique('no-ws'), 'Workspace Member', carol), {
        headers: io(WS_USER),
      }),
      422,
      /^targetRef\.name:/,
    );
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', 'bad name!', ws, 'Workspace Member', carol), {
        headers: io(WS_USER),
      }),
      400,
      /^metadata\.name:/,
    );
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', wsUserBinding, ws, 'Workspace Member', carol), {
        headers: io(WS_USER),
      }),
      409,
    );
    // Wrong media types: a body in another kind's type 415, an Accept of another version 406; nothing stored.
    const typed = unique('typed');
    assertError(
      await admin.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', typed, ws, 'Workspace Member', carol), {
        headers: { accept: WS_USER, 'content-type': WS_GROUP },
      }),
      415,
    );
    assertError(
      await admin.post(P.prjUser, prjBinding('meshProjectUserBinding', typed, ws, project, 'Project Reader', carol), {
        headers: { accept: media('meshprojectuserbinding', 'v2'), 'content-type': PRJ_USER },
      }),
      406,
    );
    assertError(await admin.get(`${P.groups}/${ws}.${group}`, { headers: { accept: media('meshworkspaceusergroup', 'v2') } }), 406);
    assert.equal((await admin.get(`${P.wsUser}/${typed}`, { headers: { accept: WS_USER } })).status, 404);
    assert.deepEqual(await names(admin, P.wsUser, WS_USER, 'meshWorkspaceUserBindings', `workspaceIdentifier=${ws}`), [wsUserBinding]);
    assert.deepEqual(await names(admin, P.wsGroup, WS_GROUP, 'meshWorkspaceGroupBindings', `username=${bob}`), [wsGroupBinding]);
    assert.deepEqual(
      await names(admin, P.wsGroup, WS_GROUP, 'meshWorkspaceGroupBindings', `username=${bob}&workspaceRole=Workspace Member`),
      [],
    );

    // Project bindings: the subject must be a member of the workspace already.
    const stranger = unique('stranger');
    await created(admin, P.users, USER, userBody(stranger));
    assertError(
      await admin.post(P.prjUser, prjBinding('meshProjectUserBinding', unique('x'), ws, project, 'Project Reader', stranger), {
        headers: io(PRJ_USER),
      }),
      422,
      /^subject\.name: .* is no member/,
    );
    assertError(
      await admin.post(P.prjUser, prjBinding('meshProjectUserBinding', unique('x'), ws, project, 'Project Emperor', carol), {
        headers: io(PRJ_USER),
      }),
      422,
      /^roleRef\.name:/,
    );
    assertError(
      await admin.post(P.prjUser, prjBinding('meshProjectUserBinding', unique('x'), ws, unique('no-prj'), 'Project Reader', carol), {
        headers: io(PRJ_USER),
      }),
      422,
      /^targetRef\.name:/,
    );
    const prjUserBinding = unique('pub');
    const prj = await created(
      admin,
      P.prjUser,
      PRJ_USER,
      prjBinding('meshProjectUserBinding', prjUserBinding, ws, project, 'Project Reader', carol),
    );
    assert.deepEqual(prj.targetRef, { name: project, displayName: `Project ${project}`, ownedByWorkspace: ws });
    const prjGroupBinding = unique('pgb');
    await created(
      admin,
      P.prjGroup,
      PRJ_GROUP,
      prjBinding('meshProjectGroupBinding', prjGroupBinding, ws, project, 'Project Admin', group),
    );
    assertError(
      await admin.get(`${P.prjUser}?workspaceIdentifier=${ws}`, { headers: { accept: PRJ_USER } }),
      400,
      /^projectIdentifier: required/,
    );
    assert.deepEqual(
      await names(admin, P.prjUser, PRJ_USER, 'meshProjectUserBindings', `workspaceIdentifier=${ws}&projectIdentifier=${project}`),
      [prjUserBinding],
    );
    assert.deepEqual(
      await names(admin, P.prjGroup, PRJ_GROUP, 'meshProjectGroupBindings', `workspaceIdentifier=${ws}&projectIdentifier=${project}`),
      [prjGroupBinding],
    );

    // The user list's role filters, direct and group-derived.
    const users = (query: string) => names(admin, P.users, USER, 'meshUsers', query);
    assert.deepEqual(await users(`workspaceIdentifier=${ws}`), [alice, bob, carol].sort());
    assert.deepEqual(await users(`workspaceIdentifier=${other}`), []);
    assert.deepEqual(await users(`workspaceIdentifier=${ws}&workspaceRole=Workspace Manager`), [alice, bob].sort());
    assert.deepEqual(await users(`workspaceRole=Workspace Member&username=${carol}`), [carol]);
    assert.deepEqual(await users(`workspaceIdentifier=${ws}&projectIdentifier=${project}`), [alice, bob, carol].sort());
    assert.deepEqual(await users(`workspaceIdentifier=${ws}&projectIdentifier=${project}&projectRole=Project Admin`), [alice, bob].sort());
    assert.deepEqual(await users(`projectRole=Project Reader&workspaceIdentifier=${ws}`), [carol]);
    assert.deepEqual(await users(`platformIdentifier=no-such.platform`), []);

    // A role in use cannot be deleted; deleting a binding removes the role it gave.
    assertError(await admin.delete(`${P.roles}/project-admin`), 409, /still used by/);
    assert.equal((await admin.delete(`${P.prjGroup}/${prjGroupBinding}`)).status, 204);
    assert.equal((await admin.get(`${P.prjGroup}/${prjGroupBinding}`, { headers: { accept: PRJ_GROUP } })).status, 404);
    assert.deepEqual(await users(`workspaceIdentifier=${ws}&projectIdentifier=${project}&projectRole=Project Admin`), []);

    // Deleting a user takes its memberships and bindings with it; it is never listed again.
    assert.equal((await admin.delete(`${P.users}/${carol}`)).status, 204);
    assert.equal((await admin.get(`${P.wsUser}/${wsUserBinding}`, { headers: { accept: WS_USER } })).status, 404);
    assert.equal((await admin.get(`${P.prjUser}/${prjUserBinding}`, { headers: { accept: PRJ_USER } })).status, 404);
    assert.deepEqual(await users(`username=${carol}`), []);
    assert.equal((await admin.delete(`${P.users}/${bob}`)).status, 204);
    const after = await admin.get(`${P.groups}/${ws}.${group}`, { headers: { accept: GROUP } });
    assert.deepEqual(after.json.spec.members, [alice]);
    assert.equal((await admin.delete(`${P.users}/${bob}`)).status, 404);
  });

  it('writes every change of people and roles to the event log, with its author and workspace', async () => {
    const space = unique('ppl-ev');
    const team = unique('team');
    const [dora, emil] = [unique('dora'), unique('emil')];
    await createWorkspace(admin, space);
    await createProject(admin, space, team);
    for (const name of [dora, emil]) await created(admin, P.users, USER, userBody(name));
    const put = await admin.put(`${P.users}/${dora}`, userBody(dora, { firstName: 'Dorothea' }), { headers: io(USER) });
    assert.equal(put.status, 200, put.text);
    const groupName = unique('crew');
    await imported(admin, [groupObject(space, groupName, [dora])]);
    await imported(admin, [groupObject(space, groupName, [emil])]);
    await imported(admin, [groupObject(space, groupName, [emil])]); // unchanged: no event
    const binding = unique('wub');
    await created(admin, P.wsUser, WS_USER, wsBinding('meshWorkspaceUserBinding', binding, space, 'Workspace Member', dora));
    await created(admin, P.wsGroup, WS_GROUP, wsBinding('meshWorkspaceGroupBinding', unique('wgb'), space, 'Workspace Member', groupName));
    const projectBinding = unique('pub');
    await created(admin, P.prjUser, PRJ_USER, prjBinding('meshProjectUserBinding', projectBinding, space, team, 'Project Reader', dora));
    assert.equal((await admin.delete(`${P.prjUser}/${projectBinding}`)).status, 204);

    const inWorkspace = (await allEvents(admin, `workspaceIdentifier=${space}`)).reverse();
    assert.deepEqual(
      titlesOf(inWorkspace).filter((title) => !title.startsWith('Workspace Created') && !title.startsWith('Project Created')),
      [
        'Workspace Group Created',
        'Workspace Group Members Added',
        'Workspace Group Members Removed',
        'Workspace User Role Added',
        'Workspace Group Role Added',
        'Project User Role Added',
        'Project User Role Removed',
      ],
    );
    const removed = inWorkspace.find((event) => event.spec.title === 'Project User Role Removed')!;
    assert.match(removed.spec.description, new RegExp(`role Project Reader of ${dora} in meshProject ${space}\\.${team} was removed`));
    assert.equal(removed.spec.eventType, 'Removed');
    assert.deepEqual(removed.spec.workspaceRef, { name: space, kind: 'meshWorkspace' });
    assert.deepEqual(removed.spec.author.authorType, 'ApiUser');

    // Users belong to no workspace: their events are an admin's to read, with the previous content of a change.
    const userEvents = (await allEvents(admin, `description=${dora}&title=User`))
      .reverse()
      .filter((event) => event.spec.title.startsWith('User ')); // not "Workspace User Role …"
    assert.deepEqual(titlesOf(userEvents), ['User Created', 'User Changed']);
    assert.equal(userEvents[1]!.spec.previousContent.spec.firstName, 'First');
    assert.equal(userEvents[1]!.spec.content.spec.firstName, 'Dorothea');
    assert.equal(userEvents[1]!.spec.workspaceRef, undefined);
    assert.equal((await admin.delete(`${P.users}/${dora}`)).status, 204);
    assert.deepEqual(titlesOf(await allEvents(admin, `description=${dora}&title=User Deleted`)), ['User Deleted']);

    const role = unique('auditor');
    await created(admin, P.roles, ROLE, {
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { name: role },
      spec: { name: `Auditor ${role}`, rank: 5 },
    });
    assert.equal((await admin.delete(`${P.roles}/${role}`)).status, 204);
    assert.deepEqual(titlesOf((await allEvents(admin, `description=${role}`)).reverse()), ['Project Role Created', 'Project Role Deleted']);
  });

  it('imports the older binding forms and refuses the retired ones as retired', async () => {
    const someone = unique('old');
    await created(admin, P.users, USER, userBody(someone));
    const results = await imported(admin, [
      {
        apiVersion: 'v1',
        kind: 'meshWorkspaceUserBinding',
        roleRef: { name: 'Workspace Member' },
        targetRef: { name: ws },
        subjects: [{ name: someone }],
      },
      {
        apiVersion: 'v2',
        kind: 'meshProjectUserBinding',
        roleRef: { name: 'Project User' },
        targetRef: { name: project, ownedByWorkspace: ws },
        subjects: [{ name: someone }],
      },
      {
        apiVersion: 'v1',
        kind: 'meshWorkspaceGroupBinding',
        roleRef: { name: 'Workspace Member' },
        targetRef: { name: ws },
        subjects: [{ name: group }],
      },
      {
        apiVersion: 'v1',
        kind: 'meshProjectUserBinding',
        roleRef: { name: 'Project User' },
        targetRef: { name: project, ownedByWorkspace: ws },
        subjects: [{ name: someone }],
      },
      {
        apiVersion: 'v3',
        kind: 'meshProjectGroupBinding',
        metadata: { name: unique('imp') },
        roleRef: { name: 'Project User' },
        targetRef: { name: project, ownedByWorkspace: ws },
        subject: { name: group },
      },
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['SUCCESS', 'SUCCESS', 'FAILED', 'FAILED', 'SUCCESS'],
      JSON.stringify(results),
    );
    assert.match(results[0]!.remarks[0], /deprecated/);
    assert.match(results[2]!.message, /retired on 2025-07-01/);
    assert.match(results[3]!.message, /retired on 2025-07-01/);
    // Importing the same objects again finds the same bindings.
    const again = await imported(admin, [
      {
        apiVersion: 'v1',
        kind: 'meshWorkspaceUserBinding',
        roleRef: { name: 'Workspace Member' },
        targetRef: { name: ws },
        subjects: [{ name: someone }],
      },
    ]);
    assert.equal(again[0]!.message, 'updated');
    assert.deepEqual(
      await names(admin, P.users, USER, 'meshUsers', `workspaceIdentifier=${ws}&projectIdentifier=${project}&projectRole=Project User`),
      [alice, someone].sort(),
    );
  });

  it('serves project roles: free reads, seeded defaults, admin writes, the vendor examples', async () => {
    const list = await admin.get(`${P.roles}?size=350`, { headers: { accept: ROLE } });
    assert.equal(list.status, 200, list.text);
    const roles = (list.json._embedded.meshProjectRoles as Json[]).map((r) => r.spec.name);
    for (const role of ['Project Admin', 'Project User', 'Project Reader']) assert.ok(roles.includes(role), role);
    const name = unique('project-viewer');
    const made = await created(admin, P.roles, ROLE, {
      apiVersion: 'v1',
      kind: 'meshProjectRole',
      metadata: { name, tags: { priority: ['low'] } },
      spec: { name: `Viewer ${name}`, description: 'Read-only access to project resources', rank: 10 },
    });
    assert.deepEqual(made.spec, { name: `Viewer ${name}`, description: 'Read-only access to project resources', rank: 10 });
    const put = await admin.put(
      `${P.roles}/${name}`,
      {
        apiVersion: 'v1',
        kind: 'meshProjectRole',
        metadata: { name, tags: { priority: ['standard'] } },
        spec: { name: `Member ${name}`, rank: 50 },
      },
      { headers: io(ROLE) },
    );
    assert.equal(put.status, 200, put.text);
    assertError(
      await admin.post(
        P.roles,
        { apiVersion: 'v1', kind: 'meshProjectRole', metadata: { name: unique('dup') }, spec: { name: 'Project Admin', rank: 1 } },
        { headers: io(ROLE) },
      ),
      409,
      /spec\.name/,
    );
    assertError(
      await admin.post(
        P.roles,
        { apiVersion: 'v1', kind: 'meshProjectRole', metadata: { name: 'Bad Name' }, spec: { name: 'x', rank: 1 } },
        { headers: io(ROLE) },
      ),
      400,
      /^metadata\.name:/,
    );
    const reader = (await clientWithKey(admin, other, ['WORKSPACE_LIST'])).client;
    assert.equal((await reader.get(`${P.roles}/${name}`, { headers: { accept: ROLE } })).status, 200);
    assertError(await reader.delete(`${P.roles}/${name}`), 403);
    assert.equal((await admin.delete(`${P.roles}/${name}`)).status, 204);
    assert.equal((await admin.get(`${P.roles}/${name}`, { headers: { accept: ROLE } })).status, 404);
  });

  it('links workspaces and projects to their people; the index lists the relations for callers who may use them', async () => {
    const workspace = await admin.get(`${BASE}/meshworkspaces/${ws}`, { headers: { accept: media('meshworkspace', 'v2') } });
    const path = (href: string) => new URL(href).pathname + new URL(href).search;
    assert.equal(path(workspace.json._links.meshusers.href), `${P.users}?workspaceIdentifier=${ws}`);
    assert.equal(path(workspace.json._links.meshworkspaceusergroups.href), `${P.groups}?workspaceIdentifier=${ws}`);
    const followed = await admin.get(workspace.json._links.meshworkspaceusergroups.href, { headers: { accept: GROUP } });
    assert.deepEqual(
      followed.json._embedded.meshWorkspaceUserGroups.map((g: Json) => g.metadata.name),
      [group],
    );
    const prj = await admin.get(`${BASE}/meshprojects/${ws}.${project}`, { headers: { accept: media('meshproject', 'v2') } });
    const query = `?workspaceIdentifier=${ws}&projectIdentifier=${project}`;
    assert.equal(path(prj.json._links.meshusers.href), `${P.users}${query}`);
    assert.equal(path(prj.json._links.meshprojectuserbindings.href), `${P.prjUser}${query}`);
    assert.equal(path(prj.json._links.meshprojectgroupbindings.href), `${P.prjGroup}${query}`);
    assert.equal((await admin.get(prj.json._links.meshprojectuserbindings.href, { headers: { accept: PRJ_USER } })).status, 200);

    const rels = async (client: ApiClient) =>
      Object.keys((await client.get(BASE, { headers: { accept: media('meshobjects', 'v2') } })).json._links);
    const all = await rels(admin);
    for (const rel of [
      'meshusers',
      'meshworkspaceusergroups',
      'meshworkspaceuserbindings',
      'meshworkspacegroupbindings',
      'meshprojectuserbindings',
      'meshprojectgroupbindings',
      'meshprojectroles',
    ])
      assert.ok(all.includes(rel), rel);
    const index = await admin.get(BASE, { headers: { accept: media('meshobjects', 'v2') } });
    assert.match(
      index.json._links.meshusers.href,
      /meshusers\{\?workspaceIdentifier,projectIdentifier,platformIdentifier,workspaceUserGroupIdentifier,projectRole,workspaceRole,email,firstName,lastName,username,euid\}$/,
    );
    const narrow = await rels((await clientWithKey(admin, other, ['WORKSPACEUSERGROUP_LIST'])).client);
    assert.ok(narrow.includes('meshworkspaceusergroups'));
    for (const rel of ['meshusers', 'meshworkspaceuserbindings', 'meshprojectuserbindings']) assert.ok(!narrow.includes(rel), rel);
  });

  it('meshObjectCollections: an import into one deletes the groups and workspace bindings it no longer names, never after a failure; only an empty collection is deleted', async () => {
    const collection = unique('coll');
    const post = await admin.post(
      '/api/meshobjectcollections',
      { name: collection, owner: 'platform-team', description: 'This is a meshObjectCollection.', ownedByWorkspace: null },
      { headers: { 'content-type': COLLECTION } },
    );
    assert.equal(post.status, 201, post.text);
    assert.equal(post.text, '');
    assertError(
      await admin.post(
        '/api/meshobjectcollections',
        { name: collection, owner: 'x', description: '', ownedByWorkspace: null },
        { headers: { 'content-type': COLLECTION } },
      ),
      409,
    );
    assertError(
      await admin.post(
        '/api/meshobjectcollections',
        { name: unique('c'), owner: 'x', description: '' },
        { headers: { 'content-type': 'application/json' } },
      ),
      415,
    );
    assertError(
      await admin.post(
        '/api/meshobjectcollections',
        { name: 'bad name', owner: 'x', description: '' },
        { headers: { 'content-type': COLLECTION } },
      ),
      400,
      /^name:/,
    );
    const plain = (await clientWithKey(admin, other, ['WORKSPACE_LIST'])).client;
    assertError(
      await plain.post(
        '/api/meshobjectcollections',
        { name: unique('c'), owner: 'x', description: '' },
        { headers: { 'content-type': COLLECTION } },
      ),
      403,
    );

    const third = unique('ppl-third');
    await createWorkspace(admin, third);
    const member = unique('coll-user');
    await created(admin, P.users, USER, userBody(member));
    const [g1, g2, b1, b2] = [unique('cg'), unique('cg'), unique('cb'), unique('cb')];
    const objects = (groups: string[], bindings: string[]) => [
      ...groups.map((g) => groupObject(third, g, [member])),
      ...bindings.map((b) => wsBinding('meshWorkspaceUserBinding', b, third, 'Workspace Member', member)),
    ];
    const into = `?meshObjectCollection=${collection}&owner=platform-team`;
    const first = await imported(admin, objects([g1, g2], [b1, b2]), into);
    assert.deepEqual(
      first.map((r) => r.status),
      ['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS'],
      JSON.stringify(first),
    );
    // A failing object: nothing is deleted.
    const failing = await imported(admin, [...objects([g1], [b1]), groupObject(third, unique('cg'), [unique('ghost')])], into);
    assert.equal(failing.at(-1)!.meshObject, `meshObjectCollection[${collection}]`);
    assert.match(failing.at(-1)!.message, /skipped: 1 object\(s\) of this import failed; nothing was deleted/);
    assert.equal((await admin.get(`${P.groups}/${third}.${g2}`, { headers: { accept: GROUP } })).status, 200);
    // Every object succeeded: the ones no longer named are deleted and reported.
    const second = await imported(admin, objects([g1], [b1]), into);
    assert.deepEqual(
      second
        .slice(2)
        .map((r) => [r.meshObject, r.message])
        .sort(),
      [
        [`meshWorkspaceUserBinding[${b2}]`, 'deleted'],
        [`meshWorkspaceUserGroup[${third}.${g2}]`, 'deleted'],
      ].sort(),
    );
    assert.equal((await admin.get(`${P.groups}/${third}.${g2}`, { headers: { accept: GROUP } })).status, 404);
    assert.equal((await admin.get(`${P.wsUser}/${b2}`, { headers: { accept: WS_USER } })).status, 404);
    assert.equal((await admin.get(`${P.wsUser}/${b1}`, { headers: { accept: WS_USER } })).status, 200);
    // Objects imported without the collection are not touched by it; an unknown collection is 400.
    const outside = unique('cg');
    await imported(admin, objects([outside], []));
    assertError(
      await admin.put(`${BASE}?meshObjectCollection=${unique('none')}`, objects([g1], []), { headers: io(IMPORT_JSON) }),
      400,
      /^meshObjectCollection:/,
    );
    assertError(
      await admin.put(`${BASE}?meshObjectCollection=${collection}&owner=someone-else`, objects([g1], []), { headers: io(IMPORT_JSON) }),
      400,
      /^meshObjectCollection:/,
    );
    // Deleting: 409 while it holds objects, 200 once an empty import emptied it.
    const remove = (owner: string) =>
      admin.request('DELETE', '/api/meshobjectcollections', { body: { name: collection, owner }, headers: { 'content-type': COLLECTION } });
    assertError(await remove('platform-team'), 409, /still holds/);
    assertError(await remove('someone-else'), 404);
    const emptied = await imported(admin, [], into);
    assert.deepEqual(
      emptied.map((r) => r.message),
      ['deleted', 'deleted'],
    );
    const gone = await remove('platform-team');
    assert.equal(gone.status, 200, gone.text);
    assert.equal((await admin.get(`${P.groups}/${third}.${outside}`, { headers: { accept: GROUP } })).status, 200);
    // The declarative deletions are in the event log like any other deletion.
    const deletions = titlesOf(await allEvents(admin, `workspaceIdentifier=${third}&eventType=Deleted`)).concat(
      titlesOf(await allEvents(admin, `workspaceIdentifier=${third}&eventType=Removed`)),
    );
    assert.deepEqual(deletions.sort(), [
      'Workspace Group Deleted',
      'Workspace Group Deleted',
      'Workspace User Role Removed',
      'Workspace User Role Removed',
    ]);
    assert.deepEqual(titlesOf(await allEvents(admin, `description=${collection}&title=Object Collection`)).sort(), [
      'Object Collection Created',
      'Object Collection Deleted',
    ]);
  });

  it('an import into a collection is all-or-nothing: a refused declarative deletion undoes its writes and their events', async () => {
    const space = unique('ppl-unit');
    await createWorkspace(admin, space);
    const collection = await newCollection(admin, space);
    const member = unique('unit-user');
    await created(admin, P.users, USER, userBody(member));
    const [kept, gone] = [unique('ub'), unique('ub')];
    const group = unique('ug');
    const into = `?meshObjectCollection=${collection}`;
    const first = await imported(
      admin,
      [
        groupObject(space, group, [member]),
        ...[kept, gone].map((b) => wsBinding('meshWorkspaceUserBinding', b, space, 'Workspace Member', member)),
      ],
      into,
    );
    assert.deepEqual(
      first.map((r) => r.status),
      ['SUCCESS', 'SUCCESS', 'SUCCESS'],
      JSON.stringify(first),
    );

    // An admin (an ADM_ code) who may write the workspace's people but not delete them: the objects
    // would be written, the deletion of the binding no longer named is refused, so nothing is stored.
    const writer = (await clientWithKey(admin, space, ['ADM_WORKSPACEUSERGROUP_LIST', 'WORKSPACEPRINCIPALBINDING_SAVE'])).client;
    const eventsBefore = titlesOf(await allEvents(admin, `workspaceIdentifier=${space}`));
    const [newGroup, newBinding] = [unique('ug'), unique('ub')];
    const objects = [
      groupObject(space, group, [member], { displayName: 'Renamed' }),
      groupObject(space, newGroup, [member]),
      // Names the group created earlier in this same import.
      wsBinding('meshWorkspaceGroupBinding', newBinding, space, 'Workspace Member', newGroup),
      wsBinding('meshWorkspaceUserBinding', kept, space, 'Workspace Manager', member),
    ];
    const refused = await writer.put(`${BASE}${into}`, objects, { headers: io(IMPORT_JSON) });
    assertError(
      refused,
      403,
      new RegExp(
        `^declarative deletion from meshObjectCollection ${collection}: you don't have sufficient permissions: .*; nothing of this import was stored$`,
      ),
    );
    assert.equal((await admin.get(`${P.groups}/${space}.${newGroup}`, { headers: { accept: GROUP } })).status, 404);
    assert.equal((await admin.get(`${P.wsGroup}/${newBinding}`, { headers: { accept: WS_GROUP } })).status, 404);
    assert.equal(
      (await admin.get(`${P.groups}/${space}.${group}`, { headers: { accept: GROUP } })).json.spec.displayName,
      `Group ${group}`,
    );
    assert.equal((await admin.get(`${P.wsUser}/${kept}`, { headers: { accept: WS_USER } })).json.roleRef.name, 'Workspace Member');
    assert.equal((await admin.get(`${P.wsUser}/${gone}`, { headers: { accept: WS_USER } })).status, 200);
    assert.deepEqual(titlesOf(await allEvents(admin, `workspaceIdentifier=${space}`)), eventsBefore);

    // The same import by a caller who may delete: everything at once, the new binding naming the new group.
    const applied = await imported(admin, objects, into);
    assert.deepEqual(
      applied.map((r) => [r.meshObject, r.status, r.message]),
      [
        [`meshWorkspaceUserGroup[${space}.${group}]`, 'SUCCESS', 'updated'],
        [`meshWorkspaceUserGroup[${space}.${newGroup}]`, 'SUCCESS', 'created'],
        [`meshWorkspaceGroupBinding[${newBinding}]`, 'SUCCESS', 'created'],
        [`meshWorkspaceUserBinding[${kept}]`, 'SUCCESS', 'updated'],
        [`meshWorkspaceUserBinding[${gone}]`, 'SUCCESS', 'deleted'],
      ],
    );
    assert.equal((await admin.get(`${P.wsGroup}/${newBinding}`, { headers: { accept: WS_GROUP } })).json.subject.name, newGroup);
    assert.equal((await admin.get(`${P.wsUser}/${gone}`, { headers: { accept: WS_USER } })).status, 404);
  });

  it('an import into a collection commits once: its writes and deletions are one unbroken run of events, whatever is written beside it', async () => {
    const collection = await newCollection(admin);
    const space = unique('ppl-run');
    await createWorkspace(admin, space);
    const member = unique('run-user');
    await created(admin, P.users, USER, userBody(member));
    const into = `?meshObjectCollection=${collection}`;
    const old = [unique('rg'), unique('rg')];
    await imported(
      admin,
      old.map((g) => groupObject(space, g, [member])),
      into,
    );

    // Projects of the same workspace are created one after another beside the import, from before it starts until it answered.
    let importing = true;
    const writeBeside = async () => {
      while (importing) await createProject(admin, space, unique('rp'));
    };
    const firstWrite = createProject(admin, space, unique('rp'));
    const writers = [writeBeside(), writeBeside()];
    await firstWrite;
    const groups = Array.from({ length: 30 }, () => unique('rg'));
    const objects = groups.flatMap((g) => [
      groupObject(space, g, [member]),
      wsBinding('meshWorkspaceGroupBinding', `${g}-b`, space, 'Workspace Member', g),
    ]);
    const results = await imported(admin, objects, into).finally(() => (importing = false));
    await Promise.all(writers);
    assert.equal(
      results.filter((r) => r.status === 'SUCCESS').length,
      objects.length + old.length,
      JSON.stringify(results.filter((r) => r.status !== 'SUCCESS')),
    );

    // Oldest first: the import's events are those naming its groups and bindings, and the deletions of the old groups.
    const events = (await allEvents(admin, `workspaceIdentifier=${space}`)).reverse();
    const text = (event: Json) => JSON.stringify(event.spec);
    const ofImport = (event: Json) =>
      groups.some((g) => text(event).includes(g)) ||
      (event.spec.title === 'Workspace Group Deleted' && old.some((g) => text(event).includes(g)));
    const positions = events.flatMap((event, index) => (ofImport(event) ? [index] : []));
    assert.equal(
      titlesOf(positions.map((index) => events[index]!)).filter((title) => title === 'Workspace Group Deleted').length,
      old.length,
    );
    assert.equal(positions.length, objects.length + old.length, JSON.stringify(titlesOf(events)));
    assert.equal(
      positions.at(-1)! - positions[0]! + 1,
      positions.length,
      `the import's events are interleaved with others: ${JSON.stringify(titlesOf(events.slice(positions[0], positions.at(-1)! + 1)))}`,
    );
  });

  it('isolates groups and bindings by workspace: another workspace’s key gets 404 and empty lists, its own key 403 without permission', async () => {
    const theirs = unique('theirs-b');
    const member = unique('member');
    await created(admin, P.users, USER, userBody(member));
    await created(admin, P.wsUser, WS_USER, wsBinding('meshWorkspaceUserBinding', theirs, ws, 'Workspace Member', member));
    const outsider = (
      await clientWithKey(admin, other, [
        'WORKSPACEPRINCIPALBINDING_LIST',
        'WORKSPACEPRINCIPALBINDING_SAVE',
        'WORKSPACEPRINCIPALBINDING_DELETE',
        'WORKSPACEUSERGROUP_LIST',
        'PROJECTPRINCIPALROLE_LIST',
        'PROJECTPRINCIPALROLE_SAVE',
      ])
    ).client;
    assertError(await outsider.get(`${P.wsUser}/${theirs}`, { headers: { accept: WS_USER } }), 404);
    assertError(await outsider.delete(`${P.wsUser}/${theirs}`), 404);
    assertError(await outsider.get(`${P.groups}/${ws}.${group}`, { headers: { accept: GROUP } }), 404);
    assert.deepEqual(await names(outsider, P.wsUser, WS_USER, 'meshWorkspaceUserBindings'), []);
    assert.deepEqual(await names(outsider, P.wsUser, WS_USER, 'meshWorkspaceUserBindings', `workspaceIdentifier=${ws}`), []);
    assert.deepEqual(await names(outsider, P.groups, GROUP, 'meshWorkspaceUserGroups'), []);
    assert.deepEqual(
      await names(outsider, P.prjUser, PRJ_USER, 'meshProjectUserBindings', `workspaceIdentifier=${ws}&projectIdentifier=${project}`),
      [],
    );
    assertError(
      await outsider.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', unique('x'), ws, 'Workspace Member', member), {
        headers: io(WS_USER),
      }),
      403,
    );
    assertError(
      await outsider.post(P.prjUser, prjBinding('meshProjectUserBinding', unique('x'), ws, project, 'Project Reader', member), {
        headers: io(PRJ_USER),
      }),
      403,
    );
    // Users are administered with ADM_USER_* only.
    assertError(await outsider.get(P.users, { headers: { accept: USER } }), 403);
    // Its own workspace: binds an existing user by name; without the permission a 403.
    const own = unique('own-b');
    await created(outsider, P.wsUser, WS_USER, wsBinding('meshWorkspaceUserBinding', own, other, 'Workspace Manager', member));
    assert.deepEqual(await names(outsider, P.wsUser, WS_USER, 'meshWorkspaceUserBindings'), [own]);
    const lister = (await clientWithKey(admin, other, ['WORKSPACEPRINCIPALBINDING_LIST'])).client;
    assertError(await lister.delete(`${P.wsUser}/${own}`), 403);
    assertError(
      await lister.post(P.wsUser, wsBinding('meshWorkspaceUserBinding', unique('x'), other, 'Workspace Member', member), {
        headers: io(WS_USER),
      }),
      403,
    );
    assert.equal((await outsider.delete(`${P.wsUser}/${own}`)).status, 204);
    // A workspace with bindings or groups cannot be deleted (409 naming them).
    assertError(await admin.delete(`${BASE}/meshworkspaces/${ws}`), 409, /meshWorkspaceUserGroups|role bindings/);
  });
});
