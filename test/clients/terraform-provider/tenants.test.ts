import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWorkspace, unique } from '../../support/structure.js';
import { describeProvider } from './provider-client.js';
import { catalogueClients, structureClients, Tenant, type TenantValue } from './structure-structs.js';
import { expectImportEqual, expectNoDiff, expectSentComesBack, planned } from './terraform.js';

/** How long this suite lets the provider's deletion poll run (the provider waits up to 30 minutes). */
const DELETION_WAIT_MS = 5_000;

/** tenantDeletionState (client/tenant_v4.go): what the provider reports when the wait ends. */
function deletionState(tenant: TenantValue | null, markedSince: string | undefined): string {
  if (tenant === null) return 'no successful read after the delete request';
  const { state } = tenant.status.lifecycle;
  if (state === 'DELETED') return 'DELETED';
  const awaiting = 'awaiting deletion approval, cleanup of the tenant\'s resources, or the platform deletion the replicator confirms';
  if (state === 'MARKED_FOR_DELETION') return markedSince ? `MARKED_FOR_DELETION since ${markedSince}, ${awaiting}` : `MARKED_FOR_DELETION, ${awaiting}`;
  return `${state}, meshStack accepted the delete request but has not acted on it`;
}

/**
 * meshstack_tenant (v4, internal/provider/tenant_resource.go): created with wait_for_completion (its
 * default: done once spec.platformTenantId is set), requested quotas within the platform's quota
 * definitions (out of range: 400), read, plan again, imported by uuid and by the legacy
 * workspace.project.platform.location identifier (resolved through the list), the data sources, and
 * destroyed as the provider waits for it: polling reads until a 404 or lifecycle DELETED.
 * spec.requested_quotas is create-only and echoed from state by the resource, so it is not compared
 * with what a read answers; status is computed.
 */
describeProvider('meshstack_tenant', (ctx) => {
  let workspace: string;
  let project: string;
  let platformName: string;
  let location: string;
  let platformUuid: string;
  let zone: string;
  before(async () => {
    workspace = unique('tfp-tw');
    await createWorkspace(ctx.server.client, workspace);
    const { locations, platformTypes, projects } = structureClients(ctx.provider);
    const { platforms, landingZones } = catalogueClients(ctx.provider);
    const admin = (await ctx.provider.meshInfo()).adminWorkspaceIdentifier;
    const typeName = `TEN-${unique('TYPE').toUpperCase()}`;
    await platformTypes.post({ metadata: { name: typeName, ownedByWorkspace: admin }, spec: { displayName: 'Tenant type', category: 'CUSTOM', icon: 'data:image/png;base64,iVBORw0KGgo=' } });
    location = unique('tfp-tloc');
    await locations.post({ metadata: { name: location, ownedByWorkspace: workspace }, spec: { displayName: 'Tenant location', description: '' } });
    platformName = unique('tfp-tplf');
    const platform = await platforms.post({
      metadata: { name: platformName, ownedByWorkspace: workspace },
      spec: {
        displayName: 'Tenant platform',
        description: '',
        endpoint: 'https://tenants.example.com',
        locationRef: { name: location, kind: 'meshLocation' },
        contributingWorkspaces: [],
        availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
        config: { type: 'custom', custom: { platformTypeRef: { name: typeName, kind: 'meshPlatformType' } } },
        quotaDefinitions: [
          { quotaKey: 'limits.cpu', minValue: 0, maxValue: 4000, unit: 'millicores', autoApprovalThreshold: 4000, description: 'CPU', label: 'CPU limit' },
          { quotaKey: 'limits.memory', minValue: 0, maxValue: 8192, unit: 'MiB', autoApprovalThreshold: 8192, description: 'Memory', label: 'Memory limit' },
        ],
      },
    });
    platformUuid = platform.metadata.uuid!;
    zone = unique('tfp-tlz');
    const nulls = { aks: null, aws: null, azure: null, azurerg: null, gcp: null, kubernetes: null, openshift: null };
    await landingZones.post({
      metadata: { name: zone, ownedByWorkspace: workspace, tags: {} },
      spec: {
        displayName: 'Tenant zone',
        description: '',
        automateDeletionApproval: true,
        automateDeletionReplication: true,
        restricted: false,
        platformRef: { uuid: platformUuid, kind: 'meshPlatform' },
        platformProperties: { type: 'custom', custom: {}, ...nulls },
        quotas: [{ key: 'limits.cpu', value: 1000 }, { key: 'limits.memory', value: 2048 }],
        mandatoryBuildingBlockRefs: null,
        recommendedBuildingBlockRefs: null,
      },
    });
    project = unique('tfp-tprj');
    await projects.post({ metadata: { name: project, ownedByWorkspace: workspace }, spec: { displayName: 'Tenant project', tags: {}, paymentMethodIdentifier: null, substitutePaymentMethodIdentifier: null } });
  });

  const create = (quotas: Record<string, { value: number }> | undefined, platformTenantId: string | null) => ({
    metadata: { ownedByProject: project, ownedByWorkspace: workspace },
    spec: { platformRef: { uuid: platformUuid, kind: 'meshPlatform' }, landingZoneRef: { name: zone, kind: 'meshLandingZone' }, platformTenantId, ...(quotas ? { requestedQuotas: quotas } : {}) },
  });

  it('a requested quota out of its definition\'s range is refused (400 "is out of range"), nothing created', async () => {
    const { tenants } = catalogueClients(ctx.provider);
    await assert.rejects(tenants.post(create({ 'limits.cpu': { value: 4001 } }, null)), /http error 400, response '.*is out of range/);
    await assert.rejects(tenants.post(create({ 'limits.memory': { value: -1 } }, null)), /http error 400, response '.*is out of range/);
    assert.deepEqual(await tenants.list({ workspaceIdentifier: workspace, projectIdentifier: project }), []);
  });

  it('create (waiting for completion), read, plan again, import by uuid and by workspace.project.platform.location, data sources, destroy (waiting for it)', async () => {
    const { tenants } = catalogueClients(ctx.provider);
    const body = create({ 'limits.cpu': { value: 2000 } }, `tenant-${unique('id')}`);
    const state = await tenants.post(body);
    const rules = { ignore: ['metadata.uuid', 'status', 'spec.requestedQuotas'] };
    expectSentComesBack(planned<TenantValue>(Tenant, body), state, rules, 'meshstack_tenant');
    assert.ok(state.spec.platformTenantId, 'CreationSuccessful: spec.platformTenantId set');
    // The effective quotas: the landing zone's, each overridden by the request.
    assert.deepEqual(state.status.appliedQuotas, { 'limits.cpu': { value: 2000 }, 'limits.memory': { value: 2048 } });
    assert.equal(state.status.lifecycle.state, 'ACTIVE');

    const read = await tenants.get(state.metadata.uuid);
    assert.ok(read, 'the tenant reads after create');
    expectNoDiff(state, read, rules, 'meshstack_tenant');
    assert.deepEqual(read.status.appliedQuotas, state.status.appliedQuotas, 'applied quotas drift tracked against status');

    // Import: by uuid, and by the v3 composite, which the provider resolves through the list.
    expectImportEqual(state, await tenants.get(state.metadata.uuid), ['spec.requestedQuotas']);
    const listed = await tenants.list({ workspaceIdentifier: workspace, projectIdentifier: project, platformIdentifier: `${platformName}.${location}` });
    assert.equal(listed.length, 1, `expected exactly one active tenant for ${workspace}.${project}.${platformName}.${location}, found ${listed.length}`);
    expectImportEqual(state, listed[0], ['spec.requestedQuotas']);
    // Data sources: meshstack_tenant (by uuid, as read) and meshstack_tenants (by workspace).
    assert.ok((await tenants.list({ workspaceIdentifier: workspace })).some((t) => t.metadata.uuid === state.metadata.uuid), 'data meshstack_tenants lists it');

    // Destroy: DELETE, then read until DeletionSuccessful (nil on 404, or lifecycle DELETED).
    await tenants.delete(state.metadata.uuid);
    const deadline = Date.now() + DELETION_WAIT_MS;
    let last: TenantValue | null = state;
    let markedSince: string | undefined;
    for (;;) {
      last = await tenants.get(state.metadata.uuid);
      markedSince = last?.status.lifecycle.markedForDeletion?.timestamp;
      if (last === null || last.status.lifecycle.state === 'DELETED') break;
      if (Date.now() > deadline) {
        assert.fail(`Failed to await tenant deletion: Could not confirm deletion of tenant ${state.metadata.uuid}: timeout. Last observed state: ${deletionState(last, markedSince)}.`);
      }
      await sleep(200);
    }
    // The list answers active tenants only: a second import by the composite finds none.
    assert.deepEqual(await tenants.list({ workspaceIdentifier: workspace, projectIdentifier: project, platformIdentifier: `${platformName}.${location}` }), []);
  });

  it('without requested quotas (omitted, as omitempty drops them): the landing zone\'s quotas applied', async () => {
    const { tenants } = catalogueClients(ctx.provider);
    const { projects } = structureClients(ctx.provider);
    const other = unique('tfp-tprj');
    await projects.post({ metadata: { name: other, ownedByWorkspace: workspace }, spec: { displayName: 'Default quotas', tags: {}, paymentMethodIdentifier: null, substitutePaymentMethodIdentifier: null } });
    const body = { ...create(undefined, `tenant-${unique('id')}`), metadata: { ownedByProject: other, ownedByWorkspace: workspace } };
    const state = await tenants.post(body);
    expectSentComesBack(planned<TenantValue>(Tenant, body), state, { ignore: ['metadata.uuid', 'status', 'spec.requestedQuotas'] }, 'meshstack_tenant');
    assert.deepEqual(state.status.appliedQuotas, { 'limits.cpu': { value: 1000 }, 'limits.memory': { value: 2048 } });
    await tenants.delete(state.metadata.uuid);
  });
});
