import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { media } from '../../support/client.js';
import { createProject, createWorkspace, io, unique } from '../../support/structure.js';
import { serviceInstances } from './building-block-structs.js';
import { describeProvider } from './provider-client.js';

/**
 * The data sources meshstack_service_instance (client Read: GET by instanceId, a 404 is "Can't find
 * service instance") and meshstack_service_instances (the list with its five filters). The
 * instances are made as a service broker's platform would, through the API.
 */
const INSTANCES = '/api/meshobjects/meshserviceinstances';
const INSTANCE = media('meshserviceinstance', 'v2');

describeProvider('meshstack_service_instance and meshstack_service_instances', (ctx) => {
  let workspace: string;
  let project: string;
  const instanceIds: string[] = [];
  before(async () => {
    workspace = unique('tfp-si');
    project = unique('tfp-si-prj');
    await createWorkspace(ctx.server.client, workspace);
    await createProject(ctx.server.client, workspace, project);
    for (const [serviceId, planId] of [
      ['svc-a', 'plan-1'],
      ['svc-b', 'plan-2'],
    ]) {
      const instanceId = unique('si');
      const body = {
        apiVersion: 'v2',
        kind: 'meshServiceInstance',
        metadata: { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'eu-west-1', instanceId },
        spec: { displayName: `Instance ${serviceId}`, serviceId, planId, creator: 'alice@example.com', parameters: { size: 3, name: 'db', nested: { tls: true } } },
      };
      const created = await ctx.server.client.post(INSTANCES, body, { headers: io(INSTANCE) });
      assert.ok(created.status === 200 || created.status === 201, created.text);
      instanceIds.push(instanceId);
    }
  });

  it('meshstack_service_instance reads one by instance id, parameters as a map', async () => {
    const instance = await serviceInstances(ctx.provider).get(instanceIds[0]!);
    assert.ok(instance, "Can't find service instance");
    assert.deepEqual(instance.metadata, { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'eu-west-1', instanceId: instanceIds[0] });
    assert.equal(instance.spec.serviceId, 'svc-a');
    assert.equal(instance.spec.planId, 'plan-1');
    assert.equal(instance.spec.displayName, 'Instance svc-a');
    assert.deepEqual(instance.spec.parameters, { size: 3, name: 'db', nested: { tls: true } });
    assert.equal(await serviceInstances(ctx.provider).get(unique('missing')), null, 'an unknown instance id reads 404');
  });

  it('meshstack_service_instances filters by workspace, project, marketplace, service and plan', async () => {
    const list = (filter: Record<string, unknown>) => serviceInstances(ctx.provider).list(filter).then((all) => all.map((i) => i.metadata.instanceId).sort());
    assert.deepEqual(await list({ workspaceIdentifier: workspace }), [...instanceIds].sort());
    assert.deepEqual(await list({ workspaceIdentifier: workspace, projectIdentifier: project, marketplaceIdentifier: 'eu-west-1' }), [...instanceIds].sort());
    assert.deepEqual(await list({ workspaceIdentifier: workspace, serviceIdentifier: 'svc-b' }), [instanceIds[1]]);
    // planIdentifier requires serviceIdentifier (the published API).
    assert.deepEqual(await list({ workspaceIdentifier: workspace, serviceIdentifier: 'svc-a', planIdentifier: 'plan-1' }), [instanceIds[0]]);
    assert.deepEqual(await list({ workspaceIdentifier: workspace, serviceIdentifier: 'svc-a', planIdentifier: 'plan-2' }), []);
  });
});
