import assert from 'node:assert/strict';
import { it } from 'node:test';
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

  it("a wrong secret fails the login with the provider's message", async () => {
    const client = await connectProvider(ctx.server, { clientId: PROVIDER_KEY.clientId, clientSecret: 'wrong-secret-0123456789' });
    await assert.rejects(client.objects('meshWorkspace', 'v2', go.any).list(), /login at https:\/\/.*\/api\/login with client id 'terraform-provider-admin' failed: http error 401/);
    await client.close();
  });
});
