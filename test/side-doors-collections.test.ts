/**
 * Side doors through meshObjectCollections, attacked as an attacker would: a key of another workspace
 * holding one harmless `ADM_` code (which opens the import), a low-privilege member of the owning
 * workspace, and an import of which one object fails. A collection belongs to a workspace (or to
 * admins only); only that workspace's objects go in, only callers who see that workspace's bindings
 * find it, and an import into it is stored whole or not at all. Plus the migration that gives the
 * collections of an older database their owners.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import { media, type ApiClient, type Response } from './support/client.js';
import { allEvents, titlesOf } from './support/events.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, IMPORT_JSON, io, unique, WORKSPACE, type Json } from './support/structure.js';
import { describeUpgrade } from './support/upgrades.js';

const BASE = '/api/meshobjects';
const COLLECTIONS = '/api/meshobjectcollections';
const COLLECTION = 'application/vnd.vendor.api.meshobjectcollection.v1+json';
const USER = media('meshuser', 'v2');
const GROUP = media('meshworkspaceusergroup', 'v1');
const WS_USER = media('meshworkspaceuserbinding', 'v2');
const GROUPS = `${BASE}/meshworkspaceusergroups`;
const WS_USERS = `${BASE}/meshworkspacebindings/userbindings`;
/** Opens the import and nothing else of interest: the "harmless" admin code. */
const HARMLESS = 'ADM_TAGDEFINITION_LIST';

const groupObject = (workspace: string, name: string, members: string[]): Json => ({
  apiVersion: 'v1',
  kind: 'meshWorkspaceUserGroup',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: `Group ${name}`, members },
});
const userBinding = (name: string, workspace: string, role: string, user: string): Json => ({
  apiVersion: 'v2',
  kind: 'meshWorkspaceUserBinding',
  metadata: { name },
  targetRef: { name: workspace },
  roleRef: { name: role },
  subject: { name: user },
});

function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

const into = (collection: string, owner: string) => `?meshObjectCollection=${collection}&owner=${owner}`;
const put = (client: ApiClient, objects: Json[], query: string) => client.put(`${BASE}${query}`, objects, { headers: io(IMPORT_JSON) });

async function imported(client: ApiClient, objects: Json[], query: string): Promise<Json[]> {
  const response = await put(client, objects, query);
  assert.equal(response.status, 200, response.text);
  return response.json as Json[];
}

describeEachDatabase('side doors: meshObjectCollections', (ctx) => {
  let admin: ApiClient;
  const a = unique('coll-a');
  const b = unique('coll-b');
  const member = unique('coll-user');

  before(async () => {
    admin = ctx.client;
    await createWorkspace(admin, a);
    await createWorkspace(admin, b);
    const user = await admin.post(
      `${BASE}/meshusers`,
      {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: member },
        spec: { email: `${member}@example.com`, firstName: 'F', lastName: 'L' },
      },
      { headers: io(USER) },
    );
    assert.equal(user.status, 201, user.text);
  });

  const create = (client: ApiClient, body: Json) => client.post(COLLECTIONS, body, { headers: { 'content-type': COLLECTION } });
  const remove = (client: ApiClient, name: string, owner: string) =>
    client.request('DELETE', COLLECTIONS, { body: { name, owner }, headers: { 'content-type': COLLECTION } });

  /** A collection of workspace B (owner label: B's name), and B's key that syncs it. */
  async function collectionOfB(): Promise<{ name: string; sync: ApiClient }> {
    const name = unique('coll');
    const made = await create(admin, { name, owner: b, description: 'B people', ownedByWorkspace: b });
    assert.equal(made.status, 201, made.text);
    const sync = (
      await clientWithKey(admin, b, [
        HARMLESS,
        'WORKSPACEPRINCIPALBINDING_LIST',
        'WORKSPACEPRINCIPALBINDING_SAVE',
        'WORKSPACEPRINCIPALBINDING_DELETE',
      ])
    ).client;
    return { name, sync };
  }

  it('a key of another workspace with one harmless ADM_ code cannot plant into B’s collection; B’s sync and the admin’s delete keep working', async () => {
    const { name, sync } = await collectionOfB();
    const [group, binding] = [unique('g'), unique('ub')];
    const state = [groupObject(b, group, [member]), userBinding(binding, b, 'Workspace Member', member)];
    assert.deepEqual(
      (await imported(sync, state, into(name, b))).map((r) => r.status),
      ['SUCCESS', 'SUCCESS'],
    );

    const attacker = (
      await clientWithKey(admin, a, [
        HARMLESS,
        'WORKSPACEPRINCIPALBINDING_LIST',
        'WORKSPACEPRINCIPALBINDING_SAVE',
        'WORKSPACEPRINCIPALBINDING_DELETE',
      ])
    ).client;
    const planted = unique('plant');
    // As the finding did it: B's objects (refused to it) beside its own, so that a partial import commits the plant.
    const plant = await put(attacker, [...state, userBinding(planted, a, 'Workspace Owner', member)], into(name, b));
    // Not found, exactly as a collection that does not exist.
    const none = unique('none');
    const nothing = await put(attacker, [userBinding(planted, a, 'Workspace Owner', member)], into(none, b));
    assertError(nothing, 400, /^meshObjectCollection:/);
    assertError(plant, 400, /^meshObjectCollection:/);
    assert.equal(plant.json.message, nothing.json.message.replace(none, name));
    assert.equal((await admin.get(`${WS_USERS}/${planted}`, { headers: { accept: WS_USER } })).status, 404, 'nothing planted');
    // Nor can it delete the collection (404, as for none), or create one for B.
    assertError(await remove(attacker, name, b), 404);
    const forB = await create(attacker, { name: unique('coll'), owner: b, description: '', ownedByWorkspace: b });
    const forNone = await create(attacker, { name: unique('coll'), owner: b, description: '', ownedByWorkspace: none });
    assert.equal(forB.status, forNone.status, `${forB.text} / ${forNone.text}`);
    assert.equal(forB.json.message, forNone.json.message.replace(none, b));

    // B's declarative sync still works: it deletes what it no longer names.
    const again = await imported(sync, [state[0]!], into(name, b));
    assert.deepEqual(
      again.map((r) => [r.meshObject, r.status, r.message]),
      [
        [`meshWorkspaceUserGroup[${b}.${group}]`, 'SUCCESS', 'updated'],
        [`meshWorkspaceUserBinding[${binding}]`, 'SUCCESS', 'deleted'],
      ],
    );
    // Emptied by B, the admin deletes it.
    await imported(sync, [], into(name, b));
    const gone = await remove(admin, name, b);
    assert.equal(gone.status, 200, gone.text);
  });

  it('a key of another workspace learns nothing of B’s collection from objects that do not decode: the same refusal as for none', async () => {
    const { name } = await collectionOfB();
    const attacker = (await clientWithKey(admin, a, [HARMLESS, 'WORKSPACEPRINCIPALBINDING_SAVE'])).client;
    const none = unique('none');
    // Objects are decoded before the import's collection is resolved; none of that may be answered first.
    const broken = [{ apiVersion: 'v1', kind: 'meshWorkspaceUserGroup', metadata: { name: 7 } }, groupObject(a, unique('g'), [member])];
    const intoB = await put(attacker, broken, into(name, b));
    const intoNone = await put(attacker, broken, into(none, b));
    assertError(intoNone, 400, /^meshObjectCollection:/);
    assertError(intoB, 400, /^meshObjectCollection:/);
    assert.equal(intoB.json.message, intoNone.json.message.replace(none, name));
    const valid = await put(attacker, [groupObject(a, unique('g'), [member])], into(name, b));
    assert.equal(valid.json.message, intoB.json.message);
  });

  it('an admin importing another workspace’s object into B’s collection: refused naming the object, nothing of the import stored', async () => {
    const { name, sync } = await collectionOfB();
    const [group, foreign] = [unique('g'), unique('ub')];
    const results = await imported(
      admin,
      [groupObject(b, group, [member]), userBinding(foreign, a, 'Workspace Owner', member)],
      into(name, b),
    );
    assert.equal(results[1]!.meshObject, `meshWorkspaceUserBinding[${foreign}]`);
    assert.equal(results[1]!.status, 'FAILED');
    assert.equal(results[1]!.resultCode, 'INVALID_MESH_OBJECT');
    assert.match(results[1]!.message, new RegExp(`meshWorkspace ${a}.*meshObjectCollection ${name}.*${b}`));
    assert.equal(results[0]!.status, 'FAILED', JSON.stringify(results[0]));
    assert.match(results[0]!.message, /not stored/);
    assert.equal((await admin.get(`${GROUPS}/${b}.${group}`, { headers: { accept: GROUP } })).status, 404);
    assert.equal((await admin.get(`${WS_USERS}/${foreign}`, { headers: { accept: WS_USER } })).status, 404);
    // B's sync is not held up by anything of it.
    assert.deepEqual(
      (await imported(sync, [groupObject(b, group, [member])], into(name, b))).map((r) => r.status),
      ['SUCCESS'],
    );
  });

  it('a low-privilege member of B cannot import into B’s collection beyond its rights, and nothing of such an import is stored', async () => {
    const { name } = await collectionOfB();
    const low = (await clientWithKey(admin, b, [HARMLESS, 'WORKSPACEPRINCIPALBINDING_SAVE'])).client;
    const group = unique('g');
    const displayBefore = (await admin.get(`${BASE}/meshworkspaces/${b}`, { headers: { accept: WORKSPACE } })).json.spec.displayName;
    const results = await imported(
      low,
      [
        groupObject(b, group, [member]),
        { apiVersion: 'v2', kind: 'meshWorkspace', metadata: { name: b }, spec: { displayName: 'taken over' } },
        userBinding(unique('ub'), a, 'Workspace Owner', member),
      ],
      into(name, b),
    );
    assert.deepEqual(
      results.slice(0, 3).map((r) => r.status),
      ['FAILED', 'FAILED', 'FAILED'],
      JSON.stringify(results),
    );
    assert.match(results[0]!.message, /not stored/);
    assert.equal((await admin.get(`${GROUPS}/${b}.${group}`, { headers: { accept: GROUP } })).status, 404);
    assert.equal((await admin.get(`${BASE}/meshworkspaces/${b}`, { headers: { accept: WORKSPACE } })).json.spec.displayName, displayBefore);
    // It may not delete the collection either (it sees it: its own workspace's; 403, not 404).
    assertError(await remove(low, name, b), 403);
  });

  it('a partly failing import into a collection stores nothing: results name the failure, the others say they were not stored', async () => {
    const { name, sync } = await collectionOfB();
    const kept = unique('g');
    await imported(sync, [groupObject(b, kept, [member])], into(name, b));
    const eventsBefore = titlesOf(await allEvents(admin, `workspaceIdentifier=${b}`));
    const [fresh, broken] = [unique('g'), unique('g')];
    const results = await imported(
      sync,
      [groupObject(b, kept, [member]), groupObject(b, fresh, [member]), groupObject(b, broken, [unique('ghost')])],
      into(name, b),
    );
    assert.deepEqual(
      results.map((r) => [r.meshObject, r.status]),
      [
        [`meshWorkspaceUserGroup[${b}.${kept}]`, 'FAILED'],
        [`meshWorkspaceUserGroup[${b}.${fresh}]`, 'FAILED'],
        [`meshWorkspaceUserGroup[${b}.${broken}]`, 'FAILED'],
        [`meshObjectCollection[${name}]`, 'FAILED'],
      ],
    );
    assert.match(results[1]!.message, /not stored/);
    assert.doesNotMatch(results[2]!.message, /not stored/);
    assert.match(results[3]!.message, /nothing of this import was stored/);
    assert.equal((await admin.get(`${GROUPS}/${b}.${fresh}`, { headers: { accept: GROUP } })).status, 404);
    assert.equal((await admin.get(`${GROUPS}/${b}.${kept}`, { headers: { accept: GROUP } })).status, 200);
    assert.deepEqual(
      titlesOf(await allEvents(admin, `workspaceIdentifier=${b}`)),
      eventsBefore,
      'no event of an import that was not stored',
    );
  });

  it('a workspace owning a collection is not deleted: the collection would pass to a new workspace of its name', async () => {
    const owner = unique('coll-owner');
    await createWorkspace(admin, owner);
    const name = unique('coll');
    assert.equal((await create(admin, { name, owner: 'team', description: '', ownedByWorkspace: owner })).status, 201);
    assertError(await admin.delete(`${BASE}/meshworkspaces/${owner}`), 409, /meshObjectCollections/);
    assert.equal((await remove(admin, name, 'team')).status, 200);
    assert.equal((await admin.delete(`${BASE}/meshworkspaces/${owner}`)).status, 204);
  });

  it('a collection names its owner when created: a workspace, or admins only (null, or absent as in the published form)', async () => {
    const adminsOnly = unique('coll');
    assert.equal((await create(admin, { name: adminsOnly, owner: 'team', description: '' })).status, 201);
    // A key with a harmless admin code is no admin of collections: an admins' collection is not there for it.
    const attacker = (await clientWithKey(admin, a, [HARMLESS, 'WORKSPACEPRINCIPALBINDING_SAVE'])).client;
    assertError(
      await put(attacker, [userBinding(unique('ub'), a, 'Workspace Member', member)], into(adminsOnly, 'team')),
      400,
      /^meshObjectCollection:/,
    );
    assertError(await create(attacker, { name: unique('coll'), owner: 'team', description: '', ownedByWorkspace: null }), 403);
    assertError(await create(attacker, { name: unique('coll'), owner: 'team', description: '' }), 403);
    // An admins' collection holds objects of every workspace.
    const results = await imported(
      admin,
      [groupObject(a, unique('g'), [member]), groupObject(b, unique('g'), [member])],
      into(adminsOnly, 'team'),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['SUCCESS', 'SUCCESS'],
    );
  });
});

/** Migration 0023: the collections of an older database get an owner from what they hold. */
describeUpgrade(
  'collection owners from migration 0023',
  '0022_shared_runner_all_types',
  'a collection holding objects of one workspace belongs to it; an empty or mixed one to admins only',
  async ({ db, upgrade }) => {
    const now = '2026-11-27T00:00:00.000Z';
    for (const ws of ['wa', 'wb']) await sql`insert into workspaces (name, document, created_on) values (${ws}, '{}', ${now})`.execute(db);
    for (const name of ['single', 'mixed', 'empty', 'bindings']) {
      await sql`insert into object_collections (name, owner, description, created_on) values (${name}, 'team', '', ${now})`.execute(db);
    }
    const group = (ws: string, name: string, collection: string) =>
      sql`insert into user_groups (workspace, name, collection, document, created_on) values (${ws}, ${name}, ${collection}, '{}', ${now})`.execute(
        db,
      );
    await group('wa', 'g1', 'single');
    await group('wa', 'g2', 'single');
    await group('wa', 'g3', 'mixed');
    await group('wb', 'g4', 'mixed');
    await group('wb', 'g5', 'bindings');
    await sql`insert into role_bindings (kind, name, workspace, workspace_role, group_name, collection, created_on) values ('meshWorkspaceGroupBinding', 'b1', 'wb', 'Workspace Member', 'g5', 'bindings', ${now})`.execute(
      db,
    );
    await sql`insert into role_bindings (kind, name, workspace, workspace_role, group_name, collection, created_on) values ('meshWorkspaceGroupBinding', 'b2', 'wa', 'Workspace Member', 'g1', 'single', ${now})`.execute(
      db,
    );

    await upgrade();

    const { rows } = await sql<{
      name: string;
      owned_by_workspace: string | null;
    }>`select name, owned_by_workspace from object_collections order by name`.execute(db);
    assert.deepEqual(
      rows.map((row) => [row.name, row.owned_by_workspace]),
      [
        ['bindings', 'wb'],
        ['empty', null],
        ['mixed', null],
        ['single', 'wa'],
      ],
    );
  },
);
