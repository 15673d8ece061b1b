/**
 * Side doors through HAL links, attacked as an attacker would: a low-privilege member's key (one
 * `<R>_LIST` code) reads what it may and follows every link of the answer; a key of another workspace
 * holding every workspace-level read code looks for the workspace's objects. A link appears only
 * where the caller may follow it: none of them answers 403. An admin still finds every link.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { media, type ApiClient } from './support/client.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import {
  createPaymentMethod,
  createProject,
  createStructure,
  createTenant,
  IMPORT_JSON,
  io,
  PAYMENT_METHOD,
  PROJECT,
  TENANT,
  unique,
  WORKSPACE,
} from './support/structure.js';

const BASE = '/api/meshobjects';
const GROUP = media('meshworkspaceusergroup', 'v1');
const USER = media('meshuser', 'v2');

/** The media type each collection answers in (a wrong Accept would answer 406 before any permission). */
const MEDIA_OF: Record<string, string> = {
  meshworkspaces: WORKSPACE,
  meshprojects: PROJECT,
  meshtenants: TENANT,
  meshusers: USER,
  meshworkspaceusergroups: GROUP,
  meshserviceinstances: media('meshserviceinstance', 'v2'),
  meshpaymentmethods: PAYMENT_METHOD,
  meshplatforms: media('meshplatform', 'v2'),
  meshlocations: media('meshlocation', 'v1'),
  'meshprojectbindings/userbindings': media('meshprojectuserbinding', 'v3'),
  'meshprojectbindings/groupbindings': media('meshprojectgroupbinding', 'v3'),
};

function mediaOf(href: string): string {
  const path = new URL(href).pathname.slice(`${BASE}/`.length);
  const collection = Object.keys(MEDIA_OF).find((name) => path === name || path.startsWith(`${name}/`));
  assert.ok(collection, `no media type known for ${href}`);
  return MEDIA_OF[collection]!;
}

/** Reads `path` and follows every link of the answer: each must answer 200 (none 403). Returns the link names. */
async function followAll(client: ApiClient, path: string, accept: string): Promise<string[]> {
  const answer = await client.get(path, { headers: { accept } });
  assert.equal(answer.status, 200, answer.text);
  const links = answer.json._links as Record<string, { href: string }>;
  for (const [name, link] of Object.entries(links)) {
    const followed = await client.get(link.href, { headers: { accept: mediaOf(link.href) } });
    assert.equal(followed.status, 200, `${path} links ${name} (${link.href}), which answers ${followed.status}: ${followed.text}`);
  }
  return Object.keys(links).sort();
}

describeEachDatabase('side doors: links', (ctx) => {
  let admin: ApiClient;
  let workspace: string;
  let project: string;
  let tenantUuid: string;
  let platformUuid: string;
  let group: string;
  let member: string;
  const payment = unique('links-pay');
  const paid = unique('links-paid');
  const key = async (permissions: string[], inWorkspace = workspace) => (await clientWithKey(admin, inWorkspace, permissions)).client;

  before(async () => {
    admin = ctx.client;
    const structure = await createStructure(admin, 'links');
    ({ workspace, project } = structure);
    await createPaymentMethod(admin, workspace, payment);
    await createProject(admin, workspace, paid, { spec: { paymentMethodIdentifier: payment } });
    tenantUuid = (await createTenant(admin, workspace, project, structure.platformUuid)).metadata.uuid;
    platformUuid = structure.platformUuid;
    member = unique('links-user');
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
    const name = unique('links-group');
    const groupObject = {
      apiVersion: 'v1',
      kind: 'meshWorkspaceUserGroup',
      metadata: { name, ownedByWorkspace: workspace },
      spec: { displayName: name, members: [member] },
    };
    const imported = await admin.put(BASE, [groupObject], { headers: io(IMPORT_JSON) });
    assert.equal(imported.status, 200, imported.text);
    group = `${workspace}.${name}`;
  });

  describe('a member holding one read code', () => {
    it('finds in its workspace only the self link (WORKSPACE_LIST)', async () => {
      const client = await key(['WORKSPACE_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshworkspaces/${workspace}`, WORKSPACE), ['self']);
    });

    it('finds in its project only the self link (PROJECT_LIST): not its workspace, not its payment method', async () => {
      const client = await key(['PROJECT_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshprojects/${workspace}.${project}`, PROJECT), ['self']);
      assert.deepEqual(await followAll(client, `${BASE}/meshprojects/${workspace}.${paid}`, PROJECT), ['self']);
    });

    it('finds in its tenant the platform (readable by all) but not the project (TENANT_LIST)', async () => {
      const client = await key(['TENANT_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshtenants/${tenantUuid}`, TENANT), ['meshplatform', 'self']);
    });

    it('finds in its user group only the self link (WORKSPACEUSERGROUP_LIST): users are for admins', async () => {
      const client = await key(['WORKSPACEUSERGROUP_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshworkspaceusergroups/${group}`, GROUP), ['self']);
    });

    it('finds in its payment method only the self link (PAYMENTMETHOD_LIST)', async () => {
      const client = await key(['PAYMENTMETHOD_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshpaymentmethods/${payment}`, PAYMENT_METHOD), ['self']);
    });

    it('finds in a user no link to groups it may not list (ADM_USER_LIST alone)', async () => {
      const client = await key(['ADM_USER_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshusers/${member}`, USER), ['self']);
    });

    it('finds exactly the collections its codes open, and follows each', async () => {
      const client = await key(['WORKSPACE_LIST', 'PROJECT_LIST', 'TENANT_LIST']);
      assert.deepEqual(await followAll(client, `${BASE}/meshworkspaces/${workspace}`, WORKSPACE), ['meshprojects', 'meshtenants', 'self']);
      assert.deepEqual(await followAll(client, `${BASE}/meshprojects/${workspace}.${project}`, PROJECT), [
        'meshtenants',
        'meshworkspace',
        'self',
      ]);
      assert.deepEqual(await followAll(client, `${BASE}/meshtenants/${tenantUuid}`, TENANT), ['meshplatform', 'meshproject', 'self']);
    });
  });

  it('another workspace’s key, holding every read code, sees none of the workspace’s objects nor links to them', async () => {
    const other = unique('links-other');
    const client = await key(
      [
        'WORKSPACE_LIST',
        'PROJECT_LIST',
        'TENANT_LIST',
        'WORKSPACEUSERGROUP_LIST',
        'SERVICEINSTANCE_LIST',
        'PAYMENTMETHOD_LIST',
        'PROJECTPRINCIPALROLE_LIST',
      ],
      other,
    );
    for (const [path, accept] of [
      [`${BASE}/meshworkspaces/${workspace}`, WORKSPACE],
      [`${BASE}/meshprojects/${workspace}.${project}`, PROJECT],
      [`${BASE}/meshtenants/${tenantUuid}`, TENANT],
      [`${BASE}/meshworkspaceusergroups/${group}`, GROUP],
      [`${BASE}/meshpaymentmethods/${payment}`, PAYMENT_METHOD],
    ] as const) {
      const response = await client.get(path, { headers: { accept } });
      assert.equal(response.status, 404, `${path}: ${response.text}`);
    }
    // Its own workspace's answer links only into its own workspace.
    const links = (await client.get(`${BASE}/meshworkspaces/${other}`, { headers: { accept: WORKSPACE } })).json._links as Record<
      string,
      { href: string }
    >;
    for (const link of Object.values(links)) assert.doesNotMatch(link.href, new RegExp(workspace), link.href);
    await followAll(client, `${BASE}/meshworkspaces/${other}`, WORKSPACE);
    // A platform every caller reads: its owner's workspace is not linked for another workspace's key.
    const platformLinks = await followAll(client, `${BASE}/meshplatforms/${platformUuid}`, media('meshplatform', 'v2'));
    assert.ok(!platformLinks.includes('owner'), `another workspace is linked to the platform's owner: ${platformLinks.join(', ')}`);
  });

  it('an admin finds every link, and each answers', async () => {
    assert.deepEqual(await followAll(admin, `${BASE}/meshworkspaces/${workspace}`, WORKSPACE), [
      'meshprojects',
      'meshserviceinstances',
      'meshtenants',
      'meshusers',
      'meshworkspaceusergroups',
      'self',
    ]);
    assert.deepEqual(await followAll(admin, `${BASE}/meshprojects/${workspace}.${paid}`, PROJECT), [
      'activePaymentMethod',
      'meshprojectgroupbindings',
      'meshprojectuserbindings',
      'meshserviceinstances',
      'meshtenants',
      'meshusers',
      'meshworkspace',
      'self',
    ]);
    assert.deepEqual(await followAll(admin, `${BASE}/meshtenants/${tenantUuid}`, TENANT), ['meshplatform', 'meshproject', 'self']);
    assert.deepEqual(await followAll(admin, `${BASE}/meshworkspaceusergroups/${group}`, GROUP), ['meshusers', 'meshworkspace', 'self']);
    assert.deepEqual(await followAll(admin, `${BASE}/meshpaymentmethods/${payment}`, PAYMENT_METHOD), ['meshprojects', 'self']);
    assert.deepEqual(await followAll(admin, `${BASE}/meshusers/${member}`, USER), ['meshworkspaceusergroups', 'self']);
  });
});
