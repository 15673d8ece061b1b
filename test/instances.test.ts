import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BLOCKS, blockWorld, postBlock, tenantTarget, v2Body, type BlockWorld } from './support/blocks.js';
import { postgresAvailable } from './support/databases.js';
import { clientWithKey, login } from './support/identity.js';
import { startTestServer, type TestServer } from './support/server.js';

/**
 * Several instances on one PostgreSQL database (issue 9, item 2), with no load balancer: each request
 * goes to an instance picked at random. (Claims handed out exactly once across instances are proved in
 * runs.test.ts.)
 */
describe('several instances on PostgreSQL', { skip: postgresAvailable ? false : 'PostgreSQL is not reachable' }, () => {
  const instances: TestServer[] = [];
  let world: BlockWorld;
  const anyInstance = () => instances[Math.floor(Math.random() * instances.length)]!.client;

  before(async () => {
    instances.push(await startTestServer('postgres', { env: { BLOCKYARD_RATE_LIMIT_MAX: '200' } }));
    const shared = { databaseUrl: instances[0]!.env.BLOCKYARD_DATABASE_URL!, dataDir: instances[0]!.dataDir };
    instances.push(await startTestServer('postgres', { shared, env: { BLOCKYARD_RATE_LIMIT_MAX: '200' } }));
    instances.push(await startTestServer('postgres', { shared, env: { BLOCKYARD_RATE_LIMIT_MAX: '200' } }));
    world = await blockWorld(instances[0]!.client);
  });

  after(async () => {
    for (const instance of instances.slice(1).reverse()) await instance.server.close();
    await instances[0]?.stop();
  });

  it('accepts a token issued by one instance on every other one', async () => {
    const { key } = await clientWithKey(instances[0]!.client, world.workspace, ['BUILDINGBLOCK_LIST']);
    const token = await login(instances[1]!.client, key);
    for (const instance of instances) {
      const response = await instance.client.get(`${BLOCKS}?workspaceIdentifier=${world.workspace}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' } });
      assert.equal(response.status, 200, response.text);
    }
  });

  it('creates exactly one block under concurrent identical creates of an onlyApplyOncePerTenant definition on all instances', async () => {
    const tenant = world.other.tenant;
    const body = v2Body({ versionUuid: world.defs.once.versionUuid, target: tenantTarget(tenant) });
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => postBlock(instances[i % instances.length]!.client, body)));
    const statuses = responses.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.ok(statuses.every((s) => s === 201 || s === 409), JSON.stringify(statuses));
    const list = await anyInstance().get(`${BLOCKS}?tenantUuid=${tenant.uuid}&definitionUuid=${world.defs.once.uuid}`, { headers: { accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' } });
    assert.equal(list.json.page.totalElements, 1);
  });

  it('limits a credential across instances, not per instance', async () => {
    const { token } = await clientWithKey(instances[0]!.client, world.workspace, ['BUILDINGBLOCK_LIST']);
    const asKey = (server: TestServer) => server.client.with({ authorization: `Bearer ${token}` });
    // 150 requests on the first instance, then (after the counts were shared) 150 on the second: 200 allowed in all.
    const first = await Promise.all(Array.from({ length: 150 }, () => asKey(instances[0]!).get('/api', { headers: { accept: 'application/vnd.vendor.api.v1.hal+json' } })));
    assert.ok(first.every((r) => r.status === 200));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const second = await Promise.all(Array.from({ length: 150 }, () => asKey(instances[1]!).get('/api', { headers: { accept: 'application/vnd.vendor.api.v1.hal+json' } })));
    const limited = second.filter((r) => r.status === 429);
    assert.ok(limited.length >= 75, `the second instance let ${150 - limited.length} of 150 through after 150 of 200 were used on the first`);
    assert.ok(limited.every((r) => Number(r.headers['retry-after']) >= 1));
  });
});
