import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { media } from '../../support/client.js';
import { createWorkspace, IMPORT_JSON, io, unique } from '../../support/structure.js';
import { describeProvider } from './provider-client.js';
import {
  catalogueClients,
  LandingZone,
  Location,
  Platform,
  PaymentMethod,
  PlatformType,
  Project,
  ProjectBinding,
  structureClients,
  TagDefinition,
  Workspace,
  WorkspaceBinding,
  type BindingValue,
  type LandingZoneValue,
  type PlatformValue,
  type LocationValue,
  type PaymentMethodValue,
  type PlatformTypeValue,
  type ProjectValue,
  type TagDefinitionValue,
  type WorkspaceValue,
} from './structure-structs.js';
import { planned, resourceFlow } from './terraform.js';

/**
 * The structure resources' flows (internal/provider/<kind>_resource.go): what each sends is its
 * client's Create struct, decoded as the full struct for the plan; computed attributes (uuids,
 * dates, status) are left out of the comparison as the resources' schemas mark them.
 */
describeProvider('the structure resources', (ctx) => {
  let workspace: string;
  let user: string;
  let group: string;
  before(async () => {
    workspace = unique('tfp-str');
    user = unique('tfp-user');
    group = unique('tfp-group');
    const admin = ctx.server.client;
    await createWorkspace(admin, workspace);
    const madeUser = await admin.post('/api/meshobjects/meshusers', { apiVersion: 'v2', kind: 'meshUser', metadata: { name: user }, spec: { email: `${user}@example.com`, firstName: 'Terra', lastName: 'Form' } }, { headers: io(media('meshuser', 'v2')) });
    assert.equal(madeUser.status, 201, madeUser.text);
    const groupImport = await admin.put('/api/meshobjects', [{ apiVersion: 'v1', kind: 'meshWorkspaceUserGroup', metadata: { name: group, ownedByWorkspace: workspace }, spec: { displayName: 'Group', members: [user] } }], { headers: io(IMPORT_JSON) });
    assert.equal(groupImport.status, 200, groupImport.text);
  });

  it('meshstack_workspace: create, read, plan again, update tags, import, destroy', async () => {
    const { workspaces } = structureClients(ctx.provider);
    const name = unique('tfp-ws');
    const body = (displayName: string, tags: Record<string, string[]>) => ({ metadata: { name, tags }, spec: { displayName } });
    await resourceFlow<WorkspaceValue>({
      resource: 'meshstack_workspace',
      rules: { ignore: ['metadata.createdOn', 'metadata.deletedOn', 'spec.platformBuilderAccessEnabled'] },
      create: async () => ({ sent: planned(Workspace, body('Terraformed', { env: ['dev'] })), state: await workspaces.post(body('Terraformed', { env: ['dev'] })) }),
      read: () => workspaces.get(name),
      update: async () => ({ sent: planned(Workspace, body('Terraformed again', { env: ['prod'] })), state: await workspaces.put(name, body('Terraformed again', { env: ['prod'] })) }),
      destroy: () => workspaces.delete(name),
    });
  });

  it('meshstack_payment_method: create, read, plan again, update, import, destroy (a deleted one says so)', async () => {
    const { paymentMethods } = structureClients(ctx.provider);
    const method = unique('tfp-pm');
    const body = (displayName: string, amount: number) => ({ metadata: { name: method, ownedByWorkspace: workspace }, spec: { displayName, amount, expirationDate: '2099-12-31', tags: {} } });
    await resourceFlow<PaymentMethodValue>({
      resource: 'meshstack_payment_method',
      rules: { ignore: ['metadata.createdOn', 'metadata.deletedOn'] },
      create: async () => ({ sent: planned(PaymentMethod, body('Budget', 1000)), state: await paymentMethods.post(body('Budget', 1000)) }),
      read: () => paymentMethods.get(method),
      update: async () => ({ sent: planned(PaymentMethod, body('Bigger budget', 5000)), state: await paymentMethods.put(method, body('Bigger budget', 5000)) }),
      destroy: () => paymentMethods.delete(method),
      // Deletion is soft (the published API): the method stays readable with metadata.deletedOn.
      gone: (read) => read === null || read.metadata.deletedOn !== null,
    });
  });

  it('meshstack_project (naming a payment method, then none): create, read, plan again, update, import, destroy', async () => {
    const { paymentMethods, projects } = structureClients(ctx.provider);
    const method = unique('tfp-pm');
    await paymentMethods.post({ metadata: { name: method, ownedByWorkspace: workspace }, spec: { displayName: 'Budget', tags: {} } });
    const project = unique('tfp-prj');
    const body = (displayName: string, paymentMethodIdentifier: string | null) => ({
      metadata: { name: project, ownedByWorkspace: workspace },
      spec: { displayName, tags: {}, paymentMethodIdentifier, substitutePaymentMethodIdentifier: null },
    });
    await resourceFlow<ProjectValue>({
      resource: 'meshstack_project',
      rules: { ignore: ['metadata.createdOn', 'metadata.deletedOn'] },
      create: async () => ({ sent: planned(Project, body('Project', method)), state: await projects.post(body('Project', method)) }),
      read: () => projects.get(`${workspace}.${project}`),
      update: async () => ({ sent: planned(Project, body('Project renamed', null)), state: await projects.put(`${workspace}.${project}`, body('Project renamed', null)) }),
      destroy: () => projects.delete(`${workspace}.${project}`),
      gone: (read) => read === null || read.metadata.deletedOn !== null,
    });
    assert.ok((await projects.list({ workspaceIdentifier: workspace })).every((p) => p.metadata.name !== project));
  });

  it('meshstack_location: create, read, plan again, update, import, destroy', async () => {
    const { locations } = structureClients(ctx.provider);
    const name = unique('tfp-loc');
    const body = (displayName: string) => ({ metadata: { name, ownedByWorkspace: workspace }, spec: { displayName, description: 'a region' } });
    await resourceFlow<LocationValue>({
      resource: 'meshstack_location',
      rules: { ignore: ['metadata.uuid', 'status'] },
      create: async () => ({ sent: planned(Location, body('Location')), state: await locations.post(body('Location')) }),
      read: () => locations.get(name),
      update: async () => ({ sent: planned(Location, body('Location renamed')), state: await locations.put(name, body('Location renamed')) }),
      destroy: () => locations.delete(name),
    });
  });

  it('meshstack_tag_definition: create, read, plan again, update, import, destroy', async () => {
    const { tagDefinitions } = structureClients(ctx.provider);
    const key = unique('tfpcc').replace(/-/g, '');
    const name = `meshProject.${key}`;
    const body = (displayName: string) => ({
      metadata: { name },
      spec: { targetKind: 'meshProject', key, valueType: { string: { defaultValue: 'none', validationRegex: '^.*$' } }, description: 'Cost center', displayName, sortOrder: 0, mandatory: false, immutable: false, restricted: false },
    });
    await resourceFlow<TagDefinitionValue>({
      resource: 'meshstack_tag_definition',
      rules: {},
      create: async () => ({ sent: planned(TagDefinition, body('Cost center')), state: await tagDefinitions.post(body('Cost center')) }),
      read: () => tagDefinitions.get(name),
      update: async () => ({ sent: planned(TagDefinition, body('Cost centre')), state: await tagDefinitions.put(name, body('Cost centre')) }),
      destroy: () => tagDefinitions.delete(name),
    });
  });

  it('meshstack_platform_type (MY-PLATFORM-TYPE as in the example): create, read, plan again, update, import, destroy', async () => {
    const { platformTypes } = structureClients(ctx.provider);
    const admin = (await ctx.provider.meshInfo()).adminWorkspaceIdentifier;
    const name = `MY-${unique('TYPE').toUpperCase()}`;
    const body = (displayName: string) => ({ metadata: { name, ownedByWorkspace: admin }, spec: { displayName, category: 'CUSTOM', icon: 'data:image/png;base64,iVBORw0KGgo=' } });
    const final = await resourceFlow<PlatformTypeValue>({
      resource: 'meshstack_platform_type',
      rules: { ignore: ['metadata.uuid', 'status'] },
      create: async () => ({ sent: planned(PlatformType, body('My platform type')), state: await platformTypes.post(body('My platform type')) }),
      read: () => platformTypes.get(name),
      update: async () => ({ sent: planned(PlatformType, body('My platform type, renamed')), state: await platformTypes.put(name, body('My platform type, renamed')) }),
      destroy: () => platformTypes.delete(name),
      // A platform type is deactivated, not removed: the provider reads its lifecycle state.
      gone: (read) => read === null || read.status.lifecycle.state === 'DEACTIVATED',
    });
    assert.equal(final.status.lifecycle.state, 'ACTIVE');
  });

  it('the four binding resources: create, read, import, destroy (a change replaces them); expiry_date as set', async () => {
    const c = structureClients(ctx.provider);
    const project = unique('tfp-bprj');
    await c.projects.post({ metadata: { name: project, ownedByWorkspace: workspace }, spec: { displayName: 'Bound', tags: {}, paymentMethodIdentifier: null, substitutePaymentMethodIdentifier: null } });
    // Project bindings need the subject in the workspace: memberships that outlive the flows.
    await c.workspaceUserBindings.post({ metadata: { name: unique('tfp-keep') }, roleRef: { name: 'Workspace Manager' }, targetRef: { name: workspace }, subject: { name: user } });
    await c.workspaceGroupBindings.post({ metadata: { name: unique('tfp-keep') }, roleRef: { name: 'Workspace Manager' }, targetRef: { name: workspace }, subject: { name: group } });
    const flows: [string, ReturnType<typeof structureClients>['workspaceUserBindings'], ReturnType<typeof WorkspaceBinding>, (name: string) => BindingValue][] = [
      ['meshstack_workspace_user_binding', c.workspaceUserBindings, WorkspaceBinding('client.MeshWorkspaceUserBinding'), (name) => ({ metadata: { name }, roleRef: { name: 'Workspace Member' }, targetRef: { name: workspace }, subject: { name: user }, expiryDate: '2099-12-31' })],
      ['meshstack_workspace_group_binding', c.workspaceGroupBindings, WorkspaceBinding('client.MeshWorkspaceGroupBinding'), (name) => ({ metadata: { name }, roleRef: { name: 'Workspace Member' }, targetRef: { name: workspace }, subject: { name: group }, expiryDate: '2099-06-30' })],
      ['meshstack_project_user_binding', c.projectUserBindings, ProjectBinding('client.MeshProjectUserBinding'), (name) => ({ metadata: { name }, roleRef: { name: 'Project Reader' }, targetRef: { name: project, ownedByWorkspace: workspace }, subject: { name: user } })],
      ['meshstack_project_group_binding', c.projectGroupBindings, ProjectBinding('client.MeshProjectGroupBinding'), (name) => ({ metadata: { name }, roleRef: { name: 'Project Reader' }, targetRef: { name: project, ownedByWorkspace: workspace }, subject: { name: group } })],
    ];
    for (const [resource, client, type, body] of flows) {
      const name = unique('tfp-b');
      await resourceFlow<BindingValue>({
        resource,
        rules: {},
        create: async () => ({ sent: planned(type, body(name)), state: await client.post(body(name)) }),
        read: () => client.get(name),
        destroy: () => client.delete(name),
      });
    }
  });

  it('a custom platform with a quota definition, its landing zone ({type: custom}) and a tenant on it with requested quotas; out of range is 400', async () => {
    const { platformTypes, locations, projects } = structureClients(ctx.provider);
    const { platforms, landingZones, tenants } = catalogueClients(ctx.provider);
    const adminWorkspace = (await ctx.provider.meshInfo()).adminWorkspaceIdentifier;
    const typeName = `QUOTA-${unique('TYPE').toUpperCase()}`;
    await platformTypes.post({ metadata: { name: typeName, ownedByWorkspace: adminWorkspace }, spec: { displayName: 'Quota type', category: 'CUSTOM', icon: 'data:image/png;base64,iVBORw0KGgo=' } });
    const location = unique('tfp-qloc');
    await locations.post({ metadata: { name: location, ownedByWorkspace: workspace }, spec: { displayName: 'Quota location', description: '' } });

    const platformName = unique('tfp-plf');
    const platformBody = (displayName: string, uuid?: string) => ({
      metadata: { name: platformName, ownedByWorkspace: workspace, ...(uuid ? { uuid } : {}) },
      spec: {
        displayName,
        description: 'A custom platform',
        endpoint: 'https://platform.example.com',
        locationRef: { name: location, kind: 'meshLocation' },
        contributingWorkspaces: [],
        availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
        config: { type: 'custom', custom: { platformTypeRef: { name: typeName, kind: 'meshPlatformType' } } },
        quotaDefinitions: [{ quotaKey: 'limits.cpu', minValue: 0, maxValue: 4000, unit: 'millicores', autoApprovalThreshold: 4000, description: 'CPU', label: 'CPU limit' }],
      },
    });
    const platform = await resourceFlow<PlatformValue>({
      resource: 'meshstack_platform (custom)',
      rules: { ignore: ['metadata.uuid'], sets: ['spec.contributingWorkspaces', 'spec.quotaDefinitions'] },
      create: async () => ({ sent: planned(Platform, platformBody('Custom platform')), state: await platforms.post(platformBody('Custom platform')) }),
      read: (state) => platforms.get(state.metadata.uuid!),
      update: async (state) => ({ sent: planned(Platform, platformBody('Custom platform, renamed', state.metadata.uuid!)), state: await platforms.put(state.metadata.uuid!, platformBody('Custom platform, renamed', state.metadata.uuid!)) }),
      destroy: async () => undefined, // kept for the landing zone and tenant below; destroyed at the end
      gone: () => true,
    });
    const platformUuid = platform.metadata.uuid!;

    const zone = unique('tfp-lz');
    const others = { aks: null, aws: null, azure: null, azurerg: null, gcp: null, kubernetes: null, openshift: null };
    const zoneBody = (displayName: string) => ({
      metadata: { name: zone, ownedByWorkspace: workspace, tags: {} },
      spec: {
        displayName,
        description: '',
        automateDeletionApproval: false,
        automateDeletionReplication: false,
        restricted: false,
        platformRef: { uuid: platformUuid, kind: 'meshPlatform' },
        platformProperties: { type: 'custom', custom: {}, ...others },
        quotas: [{ key: 'limits.cpu', value: 1000 }],
        mandatoryBuildingBlockRefs: null,
        recommendedBuildingBlockRefs: null,
      },
    });
    await resourceFlow<LandingZoneValue>({
      resource: 'meshstack_landingzone (custom)',
      rules: { ignore: ['status'] },
      create: async () => ({ sent: planned(LandingZone, zoneBody('Zone')), state: await landingZones.post(zoneBody('Zone')) }),
      read: () => landingZones.get(zone),
      update: async () => ({ sent: planned(LandingZone, zoneBody('Zone renamed')), state: await landingZones.put(zone, zoneBody('Zone renamed')) }),
      destroy: async () => undefined, // the tenant below needs it enabled
      gone: () => true,
    });

    const project = unique('tfp-tprj');
    await projects.post({ metadata: { name: project, ownedByWorkspace: workspace }, spec: { displayName: 'Tenant project', tags: {}, paymentMethodIdentifier: null, substitutePaymentMethodIdentifier: null } });
    const tenantBody = (cpu: number) => ({
      metadata: { ownedByProject: project, ownedByWorkspace: workspace },
      spec: { platformRef: { uuid: platformUuid, kind: 'meshPlatform' }, landingZoneRef: { name: zone, kind: 'meshLandingZone' }, platformTenantId: null, requestedQuotas: { 'limits.cpu': { value: cpu } } },
    });
    await assert.rejects(tenants.post(tenantBody(4001)), /http error 400, response '.*is out of range/);
    const created = await tenants.post(tenantBody(2000));
    assert.deepEqual(created.spec.requestedQuotas, { 'limits.cpu': { value: 2000 } });
    assert.deepEqual(created.status.appliedQuotas, { 'limits.cpu': { value: 2000 } });
    assert.equal(created.spec.landingZoneRef?.name, zone);
    // spec.requestedQuotas is create-only: the resource keeps it from state, whatever a read answers.
    const read = await tenants.get(created.metadata.uuid);
    assert.deepEqual(read?.status.appliedQuotas, created.status.appliedQuotas);
    // Delete, then poll as DeletionSuccessful does: gone, or DELETED.
    await tenants.delete(created.metadata.uuid);
    const after = await tenants.get(created.metadata.uuid);
    assert.ok(after === null || after.status.lifecycle.state === 'DELETED' || after.status.lifecycle.state === 'MARKED_FOR_DELETION', JSON.stringify(after?.status));
    // The deferred destroys: the landing zone (disabled: it stays readable) and then the platform.
    await landingZones.delete(zone);
    assert.equal((await landingZones.get(zone))?.status.disabled, true);
    await platforms.delete(platformUuid);
    assert.equal(await platforms.get(platformUuid), null);
  });

  it('the list data sources: meshstack_projects (by workspace, by payment method), meshstack_platform_types (by category and lifecycle status), meshstack_tag_definitions', async () => {
    const { paymentMethods, projects, platformTypes, tagDefinitions } = structureClients(ctx.provider);
    const method = unique('tfp-lpm');
    await paymentMethods.post({ metadata: { name: method, ownedByWorkspace: workspace }, spec: { displayName: 'Listed budget', tags: {} } });
    const paid = unique('tfp-lprj');
    const unpaid = unique('tfp-lprj');
    for (const [name, paymentMethodIdentifier] of [[paid, method], [unpaid, null]] as const) {
      await projects.post({ metadata: { name, ownedByWorkspace: workspace }, spec: { displayName: name, tags: {}, paymentMethodIdentifier, substitutePaymentMethodIdentifier: null } });
    }
    const inWorkspace = (await projects.list({ workspaceIdentifier: workspace })).map((p) => p.metadata.name);
    assert.ok(inWorkspace.includes(paid) && inWorkspace.includes(unpaid), JSON.stringify(inWorkspace));
    assert.deepEqual((await projects.list({ workspaceIdentifier: workspace, paymentIdentifier: method })).map((p) => p.metadata.name), [paid]);

    const admin = (await ctx.provider.meshInfo()).adminWorkspaceIdentifier;
    const typeName = `LIST-${unique('TYPE').toUpperCase()}`;
    await platformTypes.post({ metadata: { name: typeName, ownedByWorkspace: admin }, spec: { displayName: 'Listed type', category: 'CUSTOM', icon: 'data:image/png;base64,iVBORw0KGgo=' } });
    const active = await platformTypes.list({ category: 'CUSTOM', lifecycleStatus: 'ACTIVE' });
    assert.ok(active.some((t) => t.metadata.name === typeName), 'the new type is listed as CUSTOM and ACTIVE');
    assert.ok(active.every((t) => t.spec.category === 'CUSTOM' && t.status.lifecycle.state === 'ACTIVE'), JSON.stringify(active.map((t) => [t.metadata.name, t.spec.category, t.status.lifecycle.state])));

    const key = unique('tfplist').replace(/-/g, '');
    await tagDefinitions.post({ metadata: { name: `meshWorkspace.${key}` }, spec: { targetKind: 'meshWorkspace', key, valueType: { singleSelect: { options: ['a', 'b'], defaultValue: 'a' } }, description: '', displayName: 'Listed', sortOrder: 1, mandatory: false, immutable: false, restricted: false } });
    const listed = (await tagDefinitions.list()).find((t) => t.metadata.name === `meshWorkspace.${key}`);
    assert.deepEqual(listed?.spec.valueType, { string: null, email: null, integer: null, number: null, singleSelect: { options: ['a', 'b'], defaultValue: 'a' }, multiSelect: null });
  });

  it('meshstack_tag_definition with every value type (string, email, integer, number, single_select, multi_select): create, read, plan again, destroy', async () => {
    const { tagDefinitions } = structureClients(ctx.provider);
    const valueTypes: Record<string, unknown>[] = [
      { string: { defaultValue: null, validationRegex: null } },
      { email: { defaultValue: 'owner@example.com', validationRegex: '^.*@example\\.com$' } },
      { integer: { defaultValue: 42 } },
      { number: { defaultValue: 2.5 } },
      { singleSelect: { options: ['low', 'high'], defaultValue: 'low' } },
      { multiSelect: { options: ['eu', 'us', 'asia'], defaultValue: ['eu', 'us'] } },
    ];
    for (const valueType of valueTypes) {
      const key = unique('tfptype').replace(/-/g, '');
      const name = `meshWorkspace.${key}`;
      const body = { metadata: { name }, spec: { targetKind: 'meshWorkspace', key, valueType, description: Object.keys(valueType)[0], displayName: key, sortOrder: 2, mandatory: false, immutable: false, restricted: false } };
      await resourceFlow<TagDefinitionValue>({
        resource: `meshstack_tag_definition (${Object.keys(valueType)[0]})`,
        rules: {},
        create: async () => ({ sent: planned(TagDefinition, body), state: await tagDefinitions.post(body) }),
        read: () => tagDefinitions.get(name),
        destroy: () => tagDefinitions.delete(name),
      });
    }
  });

  it('meshstack_workspace_tag and meshstack_workspace_tags: read-modify-write of the workspace’s tags, as the resources do it', async () => {
    const { workspaces } = structureClients(ctx.provider);
    const name = unique('tfp-wstag');
    await workspaces.post({ metadata: { name, tags: { env: ['dev'] } }, spec: { displayName: 'Tagged' } });
    // workspace_tag: read the workspace, PUT its tags with the one key set (MeshWorkspaceCreate of the read spec).
    const setTag = async (key: string, values: string[] | undefined) => {
      const current = (await workspaces.get(name))!;
      const tags: Record<string, string[]> = { ...(current.metadata.tags ?? {}) };
      if (values === undefined) delete tags[key];
      else tags[key] = values;
      const body = { metadata: { name, tags }, spec: current.spec.platformBuilderAccessEnabled === null ? { displayName: current.spec.displayName } : current.spec };
      return workspaces.put(name, body);
    };
    await setTag('team', ['a', 'b']);
    let read = (await workspaces.get(name))!;
    // (Tag definitions of other tests may add their defaults: only this test's keys are compared.)
    const ours = (tags: Record<string, string[]> | null, keys: string[]) => Object.fromEntries(keys.filter((key) => tags?.[key] !== undefined).map((key) => [key, tags![key]]));
    assert.deepEqual(ours(read.metadata.tags, ['env', 'team']), { env: ['dev'], team: ['a', 'b'] }, 'the tag set, the others kept');
    await setTag('team', ['c']);
    assert.deepEqual((await workspaces.get(name))!.metadata.tags?.team, ['c']);
    await setTag('team', undefined);
    read = (await workspaces.get(name))!;
    assert.deepEqual(ours(read.metadata.tags, ['env', 'team']), { env: ['dev'] }, 'destroy removes only its key');
    // workspace_tags: the whole map, and destroy empties it.
    await workspaces.put(name, { metadata: { name, tags: { owner: ['platform'], cost: ['42'] } }, spec: { displayName: read.spec.displayName } });
    assert.deepEqual(ours((await workspaces.get(name))!.metadata.tags, ['env', 'owner', 'cost']), { owner: ['platform'], cost: ['42'] });
    await workspaces.put(name, { metadata: { name, tags: {} }, spec: { displayName: read.spec.displayName } });
    assert.deepEqual(ours((await workspaces.get(name))!.metadata.tags, ['env', 'owner', 'cost']), {});
  });
});
