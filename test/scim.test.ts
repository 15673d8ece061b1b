/**
 * SCIM 2.0 provisioning, black-box on both databases: the request sequences Entra
 * ID's provisioning validator and Okta send (get by filter, create, patch active and attributes, groups
 * with members added and removed, delete), the discovery endpoints, the SCIM credential (401 without
 * it, with a wrong one, with an API credential), SCIM's error format, and meshusers POST/PUT refused
 * while SCIM is enabled.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { runAdminCommand } from '../src/admin-cli.js';
import { loadConfig } from '../src/config.js';
import { media, type ApiClient, type Response } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase, UNLIMITED_AUTH_FAILURES } from './support/server.js';
import { createWorkspace, unique, type Json } from './support/structure.js';

const SCIM = '/scim/v2';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const USER = media('meshuser', 'v2');
const GROUP = media('meshworkspaceusergroup', 'v1');

function assertScimError(response: Response, status: number, scimType?: string, detail?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.match(response.headers['content-type'] ?? '', /^application\/scim\+json/);
  const body = response.json;
  assert.deepEqual(body.schemas, [ERROR], response.text);
  assert.equal(body.status, String(status));
  assert.equal(body.scimType, scimType, response.text);
  assert.equal(typeof body.detail, 'string');
  if (detail) assert.match(body.detail, detail);
}

function assertOk(response: Response, status = 200): Json {
  assert.equal(response.status, status, response.text);
  assert.match(response.headers['content-type'] ?? '', /^application\/scim\+json/);
  return response.json;
}

const patch = (...operations: Json[]): Json => ({ schemas: [PATCH_OP], Operations: operations });
const eq = (attr: string, value: string) =>
  `${SCIM}/${attr.startsWith('displayName') ? 'Groups' : 'Users'}?filter=${encodeURIComponent(`${attr} eq "${value}"`)}`;

/** The body Entra ID's provisioning validator posts (default attribute mappings). */
const entraUser = (userName: string, externalId: string): Json => ({
  schemas: [USER_SCHEMA, ENTERPRISE],
  externalId,
  userName,
  active: true,
  displayName: 'Jane Doe',
  title: 'Engineer',
  emails: [{ primary: true, type: 'work', value: `${externalId}@contoso.example` }],
  meta: { resourceType: 'User' },
  name: { formatted: 'Jane Doe', familyName: 'Doe', givenName: 'Jane' },
  phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
  [ENTERPRISE]: { department: 'Platform', employeeNumber: '42' },
});

describeEachDatabase(
  'SCIM 2.0 provisioning',
  (ctx) => {
    let scim: ApiClient;
    let token: string;
    let workspace: string;

    before(async () => {
      workspace = unique('scimws');
      await createWorkspace(ctx.client, workspace);
      await createWorkspace(ctx.client, 'scim-people'); // BLOCKYARD_SCIM_GROUP_WORKSPACE
      // Before SCIM is enabled, meshusers POST is open to admins.
      const early = await ctx.client.request('POST', '/api/meshobjects/meshusers', {
        headers: { accept: USER, 'content-type': USER },
        body: {
          apiVersion: 'v2',
          kind: 'meshUser',
          metadata: { name: 'before.scim' },
          spec: { email: 'before@example.com', firstName: 'B', lastName: 'S' },
        },
      });
      assert.equal(early.status, 201, early.text);
      let printed = '';
      await runAdminCommand(loadConfig(ctx.server.env), ['scim-token', 'create', '--name', 'entra'], (line) => (printed += line));
      token = /bearer token \(shown once\): (\S+)/.exec(printed)![1]!;
      assert.match(token, /^byscim_[A-Za-z0-9]{40}$/);
      scim = ctx.client.with({
        authorization: `Bearer ${token}`,
        'content-type': 'application/scim+json',
        accept: 'application/scim+json',
      });
    });

    it('answers 401 in SCIM format without, with a wrong and with an API credential; the SCIM token opens nothing else', async () => {
      assertScimError(await scim.request('GET', `${SCIM}/Users`, { anonymous: true }), 401);
      assertScimError(
        await scim.request('GET', `${SCIM}/Users`, {
          headers: { authorization: 'Bearer byscim_0000000000000000000000000000000000000000' },
        }),
        401,
      );
      assertScimError(await ctx.client.request('GET', `${SCIM}/Users`), 401); // the API user's Basic credentials
      const wrong = await scim.request('GET', `${SCIM}/Users`, { headers: { authorization: 'Bearer not-a-token' } });
      assertScimError(wrong, 401);
      assert.match(wrong.headers['www-authenticate'] ?? '', /^Bearer/);
      const api = await scim.request('GET', '/api/meshobjects/meshusers', { headers: { accept: USER } });
      assert.equal(api.status, 401, api.text);
      // An admin API key's token opens no SCIM route
      const { token: keyToken } = await clientWithKey(ctx.client, 'admin', ['ADM_USER_LIST', 'ADM_USER_SAVE', 'ADM_USER_DELETE']);
      for (const [method, path] of [
        ['GET', '/ServiceProviderConfig'],
        ['GET', '/Users'],
        ['POST', '/Users'],
        ['GET', '/Groups'],
        ['DELETE', '/Users/x'],
        ['PATCH', '/Groups/x'],
        ['GET', '/Nothing'],
      ] as const) {
        assertScimError(
          await scim.request(method, `${SCIM}${path}`, {
            headers: { authorization: `Bearer ${keyToken}` },
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          }),
          401,
        );
      }
    });

    it('stops taking a SCIM token at once when it is deleted (blockyard admin scim-token delete)', async () => {
      const config = loadConfig(ctx.server.env);
      let printed = '';
      await runAdminCommand(config, ['scim-token', 'create', '--name', 'okta'], (line) => (printed += line));
      const [, id, secret] = /SCIM token (\S+) [\s\S]*bearer token \(shown once\): (\S+)/.exec(printed)!;
      const other = { authorization: `Bearer ${secret}` };
      assertOk(await scim.request('GET', `${SCIM}/ServiceProviderConfig`, { headers: other }));
      let listed = '';
      await runAdminCommand(config, ['scim-token', 'list'], (line) => (listed += line));
      assert.match(listed, new RegExp(`^${id}\t.*\tokta$`, 'm'));
      let deleted = '';
      await runAdminCommand(config, ['scim-token', 'delete', id!], (line) => (deleted += line));
      assert.match(deleted, /^deleted SCIM token/);
      assert.doesNotMatch(deleted, /disabled/, 'the first token remains: SCIM stays enabled');
      assertScimError(await scim.request('GET', `${SCIM}/ServiceProviderConfig`, { headers: other }), 401);
      assertOk(await scim.request('GET', `${SCIM}/ServiceProviderConfig`));
    });

    it('describes itself: ServiceProviderConfig, ResourceTypes, Schemas', async () => {
      const config = assertOk(await scim.request('GET', `${SCIM}/ServiceProviderConfig`));
      assert.deepEqual(config.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      assert.equal(config.patch.supported, true);
      assert.equal(config.filter.supported, true);
      assert.equal(config.filter.maxResults, 200);
      for (const feature of ['changePassword', 'sort', 'etag']) assert.equal(config[feature].supported, false);
      assert.equal(config.bulk.supported, false);
      assert.equal(config.authenticationSchemes[0].type, 'oauthbearertoken');
      const types = assertOk(await scim.request('GET', `${SCIM}/ResourceTypes`));
      assert.deepEqual(types.schemas, [LIST]);
      assert.deepEqual(
        types.Resources.map((type: Json) => [type.id, type.endpoint, type.schema]),
        [
          ['User', '/Users', USER_SCHEMA],
          ['Group', '/Groups', GROUP_SCHEMA],
        ],
      );
      assert.equal(assertOk(await scim.request('GET', `${SCIM}/ResourceTypes/User`)).schemaExtensions[0].schema, ENTERPRISE);
      const schemas = assertOk(await scim.request('GET', `${SCIM}/Schemas`));
      assert.deepEqual(
        schemas.Resources.map((schema: Json) => schema.id),
        [USER_SCHEMA, ENTERPRISE, GROUP_SCHEMA],
      );
      const user = assertOk(await scim.request('GET', `${SCIM}/Schemas/${USER_SCHEMA}`));
      assert.ok(
        user.attributes.some(
          (attribute: Json) => attribute.name === 'userName' && attribute.required === true && attribute.uniqueness === 'server',
        ),
      );
      assertScimError(await scim.request('GET', `${SCIM}/Schemas/urn:nope`), 404);
    });

    it("follows Entra ID's validator sequence for users: filter (none), create, filter, patch active and attributes", async () => {
      const externalId = unique('jdoe');
      const userName = `${externalId}@Contoso.example`;
      // 1. get user by filter: not there → an empty list
      const none = assertOk(await scim.request('GET', eq('userName', userName)));
      assert.deepEqual(none, { schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
      // 2. create
      const created = await scim.request('POST', `${SCIM}/Users`, { body: entraUser(userName, externalId) });
      const user = assertOk(created, 201);
      assert.equal(created.headers.location, user.meta.location);
      assert.match(user.meta.location, new RegExp(`/scim/v2/Users/${user.id}$`));
      assert.equal(user.meta.resourceType, 'User');
      assert.ok(user.meta.created && user.meta.lastModified && user.meta.version);
      assert.equal(user.userName, userName);
      assert.equal(user.externalId, externalId);
      assert.equal(user.active, true);
      assert.deepEqual(user.name, { formatted: 'Jane Doe', familyName: 'Doe', givenName: 'Jane' });
      assert.equal(user.title, 'Engineer');
      assert.equal(user[ENTERPRISE].department, 'Platform');
      assert.deepEqual(user.schemas, [USER_SCHEMA, ENTERPRISE]);
      // the meshUser it is
      const username = userName.toLowerCase();
      const mesh = await ctx.client.request('GET', `/api/meshobjects/meshusers/${encodeURIComponent(username)}`, {
        headers: { accept: USER },
      });
      assert.equal(mesh.status, 200, mesh.text);
      assert.equal(mesh.json.metadata.uuid, user.id);
      assert.deepEqual(
        [mesh.json.spec.email, mesh.json.spec.firstName, mesh.json.spec.lastName, mesh.json.spec.euid],
        [`${externalId}@contoso.example`, 'Jane', 'Doe', externalId],
      );
      // 3. get by filter (userName case-insensitively, and externalId)
      for (const url of [
        eq('userName', userName.toUpperCase()),
        eq('externalId', externalId),
        `${SCIM}/Users?filter=${encodeURIComponent(`userName eq "${userName}" and externalId eq "${externalId}"`)}`,
      ]) {
        const found = assertOk(await scim.request('GET', url));
        assert.equal(found.totalResults, 1, url);
        assert.equal(found.Resources[0].id, user.id);
      }
      assert.equal(assertOk(await scim.request('GET', `${SCIM}/Users/${user.id}`)).userName, userName);
      // the same user again: 409 uniqueness
      assertScimError(await scim.request('POST', `${SCIM}/Users`, { body: entraUser(userName, unique('other')) }), 409, 'uniqueness');
      // 4. patch active ("False" as Entra sends it): kept, flagged
      const inactive = assertOk(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'Replace', path: 'active', value: 'False' }) }),
      );
      assert.equal(inactive.active, false);
      assert.equal(assertOk(await scim.request('GET', `${SCIM}/Users/${user.id}`)).active, false);
      assert.equal(
        (await ctx.client.request('GET', `/api/meshobjects/meshusers/${encodeURIComponent(username)}`, { headers: { accept: USER } }))
          .status,
        200,
      );
      // 5. patch attributes: by path and path-less, case-insensitive names, the work e-mail by filter
      const patched = assertOk(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, {
          body: patch(
            { op: 'Replace', path: 'name.givenName', value: 'Janet' },
            { op: 'replace', path: 'emails[type eq "work"].value', value: `janet.${externalId}@contoso.example` },
            { op: 'Add', path: 'Title', value: 'Lead' },
            { op: 'replace', value: { 'name.familyName': 'Doe-Smith', active: 'True', displayName: 'Janet Doe-Smith' } },
            { op: 'replace', path: `${ENTERPRISE}:department`, value: 'Cloud' },
            { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'boss-1' },
            { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' },
          ),
        }),
      );
      assert.equal(patched.active, true);
      assert.deepEqual(
        [patched.name.givenName, patched.name.familyName, patched.title, patched.displayName, patched[ENTERPRISE].department],
        ['Janet', 'Doe-Smith', 'Lead', 'Janet Doe-Smith', 'Cloud'],
      );
      assert.deepEqual(patched[ENTERPRISE].manager, { value: 'boss-1' });
      assert.equal(patched.emails.length, 1);
      assert.equal(patched.emails[0].value, `janet.${externalId}@contoso.example`);
      assert.deepEqual(patched.phoneNumbers, []);
      assert.notEqual(patched.meta.version, user.meta.version);
      const after = await ctx.client.request('GET', `/api/meshobjects/meshusers/${encodeURIComponent(username)}`, {
        headers: { accept: USER },
      });
      assert.deepEqual(
        [after.json.spec.email, after.json.spec.firstName, after.json.spec.lastName],
        [`janet.${externalId}@contoso.example`, 'Janet', 'Doe-Smith'],
      );
      // an Okta-style PUT replaces the user (application/json is accepted as well)
      const replaced = assertOk(
        await scim.request('PUT', `${SCIM}/Users/${user.id}`, {
          headers: { 'content-type': 'application/json' },
          body: {
            schemas: [USER_SCHEMA],
            id: user.id,
            userName,
            externalId,
            name: { givenName: 'J', familyName: 'D' },
            emails: [{ value: `j.${externalId}@contoso.example`, primary: true }],
            active: false,
          },
        }),
      );
      assert.deepEqual(
        [replaced.name, replaced.active, replaced.title, replaced.emails[0].value],
        [{ givenName: 'J', familyName: 'D' }, false, undefined, `j.${externalId}@contoso.example`],
      );
      // userName cannot change; an unknown id is 404
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, {
          body: patch({ op: 'replace', path: 'userName', value: 'someone.else@contoso.example' }),
        }),
        400,
        'mutability',
      );
      assertScimError(await scim.request('GET', `${SCIM}/Users/00000000-0000-4000-8000-000000000000`), 404);
      // delete: 204, then 404
      const deleted = await scim.request('DELETE', `${SCIM}/Users/${user.id}`);
      assert.equal(deleted.status, 204, deleted.text);
      assertScimError(await scim.request('GET', `${SCIM}/Users/${user.id}`), 404);
      assert.equal(
        (await ctx.client.request('GET', `/api/meshobjects/meshusers/${encodeURIComponent(username)}`, { headers: { accept: USER } }))
          .status,
        404,
      );
    });

    it("follows Entra ID's validator sequence for groups: filter (none), create, add member, remove member, delete", async () => {
      const members: Json[] = [];
      for (const name of ['ann', 'bob']) {
        const id = unique(name);
        members.push(assertOk(await scim.request('POST', `${SCIM}/Users`, { body: entraUser(`${id}@contoso.example`, id) }), 201));
      }
      const [ann, bob] = members as [Json, Json];
      const displayName = `${workspace}.Cloud Admins`;
      // 1. get group by displayName: not there
      assert.equal(assertOk(await scim.request('GET', eq('displayName', displayName))).totalResults, 0);
      // 2. create (with one member)
      const created = await scim.request('POST', `${SCIM}/Groups`, {
        body: { schemas: [GROUP_SCHEMA], displayName, externalId: 'grp-1', members: [{ value: ann.id }] },
      });
      const group = assertOk(created, 201);
      assert.equal(group.id, `${workspace}.cloud-admins`);
      assert.equal(created.headers.location, group.meta.location);
      assert.equal(group.meta.resourceType, 'Group');
      assert.deepEqual(
        group.members.map((member: Json) => member.value),
        [ann.id],
      );
      assert.equal(group.externalId, 'grp-1');
      // found by displayName (case-insensitively), by id and by externalId
      for (const url of [
        eq('displayName', displayName.toUpperCase()),
        `${SCIM}/Groups?filter=${encodeURIComponent(`id eq "${group.id}"`)}`,
        `${SCIM}/Groups?filter=${encodeURIComponent('externalId eq "grp-1"')}`,
      ]) {
        assert.equal(assertOk(await scim.request('GET', url)).Resources[0]?.id, group.id, url);
      }
      assertScimError(await scim.request('POST', `${SCIM}/Groups`, { body: { schemas: [GROUP_SCHEMA], displayName } }), 409, 'uniqueness');
      // the meshWorkspaceUserGroup it is
      const meshGroup = async () =>
        (await ctx.client.request('GET', `/api/meshobjects/meshworkspaceusergroups/${group.id}`, { headers: { accept: GROUP } })).json;
      assert.deepEqual((await meshGroup()).spec.members, [ann.userName.toLowerCase()]);
      assert.equal((await meshGroup()).spec.displayName, displayName);
      // 3. add a member (Entra: op Add, path members, a value list)
      const added = assertOk(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, {
          body: patch({ op: 'Add', path: 'members', value: [{ value: bob.id }] }),
        }),
      );
      assert.deepEqual(
        added.members.map((member: Json) => member.value),
        [ann.id, bob.id],
      );
      assert.deepEqual((await meshGroup()).spec.members, [ann.userName.toLowerCase(), bob.userName.toLowerCase()]);
      // 4. remove a member (Entra: op Remove, path members, a value list), then Okta's members[value eq "…"]
      const removed = assertOk(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, {
          body: patch({ op: 'Remove', path: 'members', value: [{ value: ann.id }] }),
        }),
      );
      assert.deepEqual(
        removed.members.map((member: Json) => member.value),
        [bob.id],
      );
      const okta = assertOk(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, { body: patch({ op: 'remove', path: `members[value eq "${bob.id}"]` }) }),
      );
      assert.deepEqual(okta.members, []);
      // excludedAttributes=members (Entra reads groups so)
      const bare = assertOk(await scim.request('GET', `${SCIM}/Groups/${group.id}?excludedAttributes=members`));
      assert.equal(bare.members, undefined);
      assert.equal(bare.displayName, displayName);
      // PUT replaces the members; the workspace and name cannot change
      const put = assertOk(
        await scim.request('PUT', `${SCIM}/Groups/${group.id}`, {
          body: { schemas: [GROUP_SCHEMA], displayName, members: [{ value: bob.id }, { value: ann.id }] },
        }),
      );
      assert.deepEqual(
        put.members.map((member: Json) => member.value),
        [bob.id, ann.id],
      );
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, {
          body: patch({ op: 'replace', path: 'displayName', value: `${workspace}.other` }),
        }),
        400,
        'mutability',
      );
      // deleting a user takes it out of the group
      assert.equal((await scim.request('DELETE', `${SCIM}/Users/${ann.id}`)).status, 204);
      assert.deepEqual(
        assertOk(await scim.request('GET', `${SCIM}/Groups/${group.id}`)).members.map((member: Json) => member.value),
        [bob.id],
      );
      // 5. delete
      assert.equal((await scim.request('DELETE', `${SCIM}/Groups/${group.id}`)).status, 204);
      assertScimError(await scim.request('GET', `${SCIM}/Groups/${group.id}`), 404);
      assert.equal(
        (await ctx.client.request('GET', `/api/meshobjects/meshworkspaceusergroups/${group.id}`, { headers: { accept: GROUP } })).status,
        404,
      );
    });

    it("takes Okta's forms: deactivation by a path-less replace, groups without a workspace in BLOCKYARD_SCIM_GROUP_WORKSPACE", async () => {
      const id = unique('okta');
      const user = assertOk(
        await scim.request('POST', `${SCIM}/Users`, {
          body: {
            schemas: [USER_SCHEMA],
            userName: `${id}@okta.example`,
            name: { givenName: 'O', familyName: 'K' },
            emails: [{ primary: true, value: `${id}@okta.example`, type: 'work' }],
            displayName: 'O K',
            locale: 'en-US',
            externalId: `00u${id}`,
            groups: [],
            password: 'never-stored-1',
            active: true,
          },
        }),
        201,
      );
      assert.equal(user.password, undefined);
      assert.equal(user.groups, undefined);
      const off = assertOk(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'replace', value: { active: false } }) }),
      );
      assert.equal(off.active, false);
      const on = assertOk(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'replace', value: { active: true } }) }),
      );
      assert.equal(on.active, true);
      const group = assertOk(
        await scim.request('POST', `${SCIM}/Groups`, { body: { schemas: [GROUP_SCHEMA], displayName: 'Okta Engineers', members: [] } }),
        201,
      );
      assert.equal(group.id, 'scim-people.okta-engineers');
      const renamed = assertOk(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, {
          body: patch(
            { op: 'replace', value: { id: group.id, displayName: 'okta engineers' } },
            { op: 'add', path: 'members', value: [{ value: user.id, display: `${id}@okta.example` }] },
          ),
        }),
      );
      assert.deepEqual(
        [renamed.displayName, renamed.members.map((member: Json) => member.display)],
        ['okta engineers', [`${id}@okta.example`]],
      );
      assert.equal(assertOk(await scim.request('GET', eq('displayName', 'OKTA ENGINEERS'))).totalResults, 1);
    });

    it('applies member PATCHes sent side by side without losing one', async () => {
      const group = assertOk(
        await scim.request('POST', `${SCIM}/Groups`, { body: { schemas: [GROUP_SCHEMA], displayName: `${workspace}.parallel` } }),
        201,
      );
      const ids: string[] = [];
      for (let index = 0; index < 8; index++) {
        const id = unique('par');
        ids.push(assertOk(await scim.request('POST', `${SCIM}/Users`, { body: entraUser(`${id}@contoso.example`, id) }), 201).id);
      }
      const answers = await Promise.all(
        ids.map((userId) =>
          scim.request('PATCH', `${SCIM}/Groups/${group.id}`, { body: patch({ op: 'Add', path: 'members', value: [{ value: userId }] }) }),
        ),
      );
      for (const answer of answers) assertOk(answer);
      const members = assertOk(await scim.request('GET', `${SCIM}/Groups/${group.id}`)).members.map((member: Json) => member.value);
      assert.deepEqual([...members].sort(), [...ids].sort());
      const removals = await Promise.all(
        ids
          .slice(0, 4)
          .map((userId) =>
            scim.request('PATCH', `${SCIM}/Groups/${group.id}`, { body: patch({ op: 'remove', path: `members[value eq "${userId}"]` }) }),
          ),
      );
      for (const answer of removals) assertOk(answer);
      assert.deepEqual(
        assertOk(await scim.request('GET', `${SCIM}/Groups/${group.id}`))
          .members.map((member: Json) => member.value)
          .sort(),
        ids.slice(4).sort(),
      );
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Groups/${group.id}`, {
          body: patch({ op: 'add', path: 'members', value: [{ value: 'nobody' }] }),
        }),
        400,
        'invalidValue',
        /nobody/,
      );
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Groups/${workspace}.nothing`, {
          body: patch({ op: 'add', path: 'members', value: [{ value: ids[0] }] }),
        }),
        404,
      );
    });

    it('pages lists with startIndex and count', async () => {
      const ids: string[] = [];
      for (let index = 0; index < 3; index++) {
        const id = unique('page');
        ids.push(assertOk(await scim.request('POST', `${SCIM}/Users`, { body: entraUser(`${id}@contoso.example`, id) }), 201).id);
      }
      const all = assertOk(await scim.request('GET', `${SCIM}/Users`));
      assert.equal(all.totalResults, all.Resources.length);
      const position = all.Resources.findIndex((user: Json) => user.id === ids[0]);
      const page = assertOk(await scim.request('GET', `${SCIM}/Users?startIndex=${position + 2}&count=2`));
      assert.deepEqual([page.startIndex, page.itemsPerPage, page.totalResults], [position + 2, 2, all.totalResults]);
      assert.deepEqual(
        page.Resources.map((user: Json) => user.id),
        [ids[1], ids[2]],
      );
      const counted = assertOk(await scim.request('GET', `${SCIM}/Users?count=0`));
      assert.deepEqual([counted.totalResults, counted.Resources], [all.totalResults, []]);
    });

    it('answers errors in SCIM format with their scimType', async () => {
      const id = unique('err');
      const user = assertOk(await scim.request('POST', `${SCIM}/Users`, { body: entraUser(`${id}@contoso.example`, id) }), 201);
      assertScimError(await scim.request('GET', `${SCIM}/Users?filter=${encodeURIComponent('userName co "x"')}`), 400, 'invalidFilter');
      assertScimError(await scim.request('GET', `${SCIM}/Users?filter=${encodeURIComponent('title eq "x"')}`), 400, 'invalidFilter');
      assertScimError(await scim.request('GET', `${SCIM}/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'replace', path: 'emails[type eq', value: 'x' }) }),
        400,
        'invalidPath',
      );
      assertScimError(await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'remove' }) }), 400, 'noTarget');
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'replace', path: 'active', value: 'maybe' }) }),
        400,
        'invalidValue',
      );
      assertScimError(
        await scim.request('PATCH', `${SCIM}/Users/${user.id}`, { body: patch({ op: 'move', path: 'active', value: true }) }),
        400,
        'invalidSyntax',
      );
      assertScimError(
        await scim.request('POST', `${SCIM}/Users`, { body: { schemas: [USER_SCHEMA], userName: 'no-mail' } }),
        400,
        'invalidValue',
        /e-mail/,
      );
      assertScimError(
        await scim.request('POST', `${SCIM}/Users`, { body: { schemas: [USER_SCHEMA], emails: [{ value: 'a@b.c' }] } }),
        400,
        'invalidValue',
        /userName/,
      );
      assertScimError(
        await scim.request('POST', `${SCIM}/Groups`, { body: { schemas: [GROUP_SCHEMA], displayName: '---' } }),
        400,
        'invalidValue',
        /no group name/,
      );
      assertScimError(
        await scim.request('POST', `${SCIM}/Groups`, {
          body: { schemas: [GROUP_SCHEMA], displayName: `${workspace}.x`, members: [{ value: 'nobody' }] },
        }),
        400,
        'invalidValue',
        /nobody/,
      );
      assertScimError(
        await scim.request('POST', `${SCIM}/Groups`, { body: { schemas: [GROUP_SCHEMA], displayName: 'no-such-workspace.x' } }),
        400,
        'invalidValue',
      );
      assertScimError(await scim.request('POST', `${SCIM}/Users`, { headers: { 'content-type': 'text/plain' }, body: '{}' }), 415);
      assertScimError(await scim.request('POST', `${SCIM}/Users`, { body: '{' }), 400, 'invalidSyntax');
      assertScimError(await scim.request('GET', `${SCIM}/Nothing`), 404);
    });

    it('refuses meshusers POST and PUT while SCIM is enabled (DELETE still works)', async () => {
      const body = {
        apiVersion: 'v2',
        kind: 'meshUser',
        metadata: { name: 'rest.user' },
        spec: { email: 'rest@example.com', firstName: 'R', lastName: 'U' },
      };
      const post = await ctx.client.request('POST', '/api/meshobjects/meshusers', {
        headers: { accept: USER, 'content-type': USER },
        body,
      });
      assert.equal(post.status, 409, post.text);
      assert.match(post.json.message, /SCIM provisioning is enabled/);
      const put = await ctx.client.request('PUT', '/api/meshobjects/meshusers/before.scim', {
        headers: { accept: USER, 'content-type': USER },
        body: { ...body, metadata: { name: 'before.scim' } },
      });
      assert.equal(put.status, 409, put.text);
      const imported = await ctx.client.request('PUT', '/api/meshobjects', {
        headers: {
          accept: 'application/vnd.vendor.api.meshobjects.v1+json',
          'content-type': 'application/vnd.vendor.api.meshobjects.v1+json',
        },
        body: [body],
      });
      assert.equal(imported.status, 200, imported.text);
      assert.equal(imported.json[0].status, 'FAILED', imported.text);
      assert.match(imported.json[0].message, /SCIM provisioning is enabled/);
      const del = await ctx.client.request('DELETE', '/api/meshobjects/meshusers/before.scim', { headers: { accept: USER } });
      assert.equal(del.status, 204, del.text);
    });
  },
  { ...UNLIMITED_AUTH_FAILURES, BLOCKYARD_SCIM_GROUP_WORKSPACE: 'scim-people' },
);
