import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import { go } from './go-json.js';
import { USER_AGENT } from './pin.js';
import { connectProvider, describeProvider, PROVIDER_KEY } from './provider-client.js';

describeProvider('client.New and meshstack_instance', (ctx) => {
  it('checks /mesh/info without credentials or Accept, and the version passes', async () => {
    const client = await connectProvider(ctx.server);
    const [check] = client.exchanges;
    assert.equal(check!.method, 'GET');
    assert.equal(new URL(check!.url).pathname, '/mesh/info');
    assert.equal(check!.requestHeaders.authorization, undefined);
    assert.equal(check!.requestHeaders.accept, undefined);
    assert.equal(check!.requestHeaders['user-agent'], USER_AGENT);
    await client.close();
  });

  it('meshstack_instance: version, metadata and the admin workspace decode', async () => {
    const info = await ctx.provider.meshInfo();
    assert.match(info.version, /^\d+\.\d+\.\d+$/);
    assert.notEqual(info.adminWorkspaceIdentifier, '');
  });

  it('logs in once with the JSON body and sends the token with the meshcloud media type', async () => {
    const client = await connectProvider(ctx.server);
    const workspaces = client.objects('meshWorkspace', 'v2', go.any);
    await workspaces.list();
    await workspaces.list();
    const logins = client.exchanges.filter((e) => new URL(e.url).pathname === '/api/login');
    assert.equal(logins.length, 1, 'a token lives 300 s: one login');
    assert.equal(logins[0]!.status, 200, logins[0]!.responseText);
    assert.equal(logins[0]!.requestHeaders['content-type'], 'application/json');
    assert.equal(logins[0]!.requestBody, `{"clientId":"${PROVIDER_KEY.clientId}","clientSecret":"${PROVIDER_KEY.clientSecret}"}\n`);
    const list = client.exchanges.find((e) => new URL(e.url).pathname === '/api/meshobjects/meshworkspaces')!;
    assert.equal(new URL(list.url).search, '?page=0');
    assert.equal(list.requestHeaders.accept, 'application/vnd.meshcloud.api.meshWorkspace.v2.hal+json');
    assert.match(list.requestHeaders.authorization!, /^Bearer \S+$/);
    await client.close();
  });

  it('lists every page as the provider loops: page=0,1,… without size, until number >= totalPages-1', async () => {
    const names = Array.from({ length: 51 }, () => unique('tfp-page'));
    for (let i = 0; i < names.length; i += 10) await Promise.all(names.slice(i, i + 10).map((name) => createWorkspace(ctx.server.client, name)));
    const client = await connectProvider(ctx.server);
    const all = await client.objects<{ metadata: { name: string } }>('meshWorkspace', 'v2', go.struct('client.MeshWorkspace', { metadata: go.struct('client.MeshWorkspaceMetadata', { name: go.string }) })).list();
    const listed = all.map((w) => w.metadata.name);
    assert.equal(new Set(listed).size, listed.length, 'no workspace twice');
    for (const name of names) assert.ok(listed.includes(name), `${name} listed`);
    const pages = client.exchanges.filter((e) => new URL(e.url).pathname === '/api/meshobjects/meshworkspaces').map((e) => new URL(e.url).search);
    assert.deepEqual(pages, Array.from({ length: Math.ceil(listed.length / 50) }, (_, i) => `?page=${i}`));
    await client.close();
  });

  it("a wrong secret fails the login with the provider's message", async () => {
    const client = await connectProvider(ctx.server, { clientId: PROVIDER_KEY.clientId, clientSecret: 'wrong-secret-0123456789' });
    await assert.rejects(client.objects('meshWorkspace', 'v2', go.any).list(), /login at https:\/\/.*\/api\/login with client id 'terraform-provider-admin' failed: http error 401/);
    await client.close();
  });
});
