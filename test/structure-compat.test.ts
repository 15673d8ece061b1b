import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { media } from './support/client.js';
import { assertError } from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import {
  createLocation,
  createPaymentMethod,
  createPlatform,
  createProject,
  createWorkspace,
  io,
  LANDING_ZONE,
  landingZoneBody,
  LOCATION,
  PATHS,
  PAYMENT_METHOD,
  TENANT,
  tenantBody,
  unique,
} from './support/structure.js';

/** The structure kinds as the Terraform provider writes and reads them (its client at the pinned commit). */
const BASE = '/api/meshobjects';
const USER = media('meshuser', 'v2');
const WS_USER = media('meshworkspaceuserbinding', 'v2');
const PLATFORM_TYPE = media('meshplatformtype', 'v1');
const TENANT_MESHCLOUD = media('meshTenant', 'v4', 'meshcloud');
const today = () => new Date().toISOString().slice(0, 10);

describeEachDatabase('structure kinds as the Terraform provider writes them', (ctx) => {
  describe('landing zones', () => {
    it('a custom platform\'s zone: {"type":"custom","custom":{}} with the other types null, then a tenant on it', async () => {
      const ws = unique('lzc');
      const location = unique('lzcloc');
      await createWorkspace(ctx.client, ws);
      await createProject(ctx.client, ws, 'app');
      await createLocation(ctx.client, location);
      // A platform without a config is a custom one.
      const platformUuid = await createPlatform(ctx.client, ws, unique('custom'), location);
      const zone = unique('lz');
      const others = { aks: null, aws: null, azure: null, azurerg: null, gcp: null, kubernetes: null, openshift: null };
      const sent = landingZoneBody(zone, platformUuid, {
        spec: { platformProperties: { type: 'custom', custom: {}, ...others }, restricted: false },
      });
      const made = await ctx.client.post(`${BASE}/meshlandingzones`, sent, { headers: io(LANDING_ZONE) });
      assert.equal(made.status, 201, made.text);
      assert.deepEqual(made.json.spec.platformProperties, { type: 'custom', custom: {} });
      const tenant = await ctx.client.post(PATHS.tenants, tenantBody(ws, 'app', platformUuid, { spec: { landingZoneIdentifier: zone } }), {
        headers: io(TENANT),
      });
      assert.equal(tenant.status, 201, tenant.text);
    });
  });

  describe('locations', () => {
    it('DELETE: 409 while a platform is in it, then 204, then 404; its workspace can then be deleted', async () => {
      const ws = unique('locd');
      const location = unique('locd');
      await createWorkspace(ctx.client, ws);
      await createLocation(ctx.client, location, { metadata: { ownedByWorkspace: ws } });
      const platformUuid = await createPlatform(ctx.client, ws, unique('p'), location);
      assertError(
        await ctx.client.delete(`${PATHS.locations}/${location}`),
        409,
        new RegExp(`meshLocation ${location} still has 1 meshPlatforms`),
      );
      const removed = await ctx.client.delete(`${PATHS.platforms}/${platformUuid}`);
      assert.ok(removed.status === 202 || removed.status === 204, removed.text);
      assert.equal((await ctx.client.delete(`${PATHS.locations}/${location}`)).status, 204);
      assert.equal((await ctx.client.get(`${PATHS.locations}/${location}`, { headers: { accept: LOCATION } })).status, 404);
      assert.equal((await ctx.client.delete(`${PATHS.locations}/${location}`)).status, 404);
      assert.equal((await ctx.client.delete(`${PATHS.workspaces}/${ws}`)).status, 204);
    });
  });

  describe('workspace bindings', () => {
    it('expiryDate is stored and answered as sent; a past date is 400 and nothing is stored; none stays absent', async () => {
      const ws = unique('exp');
      const user = unique('exp-user');
      await createWorkspace(ctx.client, ws);
      const madeUser = await ctx.client.post(
        `${BASE}/meshusers`,
        {
          apiVersion: 'v2',
          kind: 'meshUser',
          metadata: { name: user },
          spec: { email: `${user}@example.com`, firstName: 'F', lastName: 'L' },
        },
        { headers: io(USER) },
      );
      assert.equal(madeUser.status, 201, madeUser.text);
      const binding = (name: string, expiryDate?: string) => ({
        apiVersion: 'v2',
        kind: 'meshWorkspaceUserBinding',
        metadata: { name },
        roleRef: { name: 'Workspace Member' },
        targetRef: { name: ws },
        subject: { name: user },
        ...(expiryDate ? { expiryDate } : {}),
      });
      const path = `${BASE}/meshworkspacebindings/userbindings`;
      const past = unique('past');
      assertError(
        await ctx.client.post(path, binding(past, '2001-01-01'), { headers: io(WS_USER) }),
        400,
        /^expiryDate: 2001-01-01 is in the past/,
      );
      assert.equal((await ctx.client.get(`${path}/${past}`, { headers: { accept: WS_USER } })).status, 404);
      assertError(await ctx.client.post(path, binding(unique('bad'), '31.12.2099'), { headers: io(WS_USER) }), 400, /expiryDate/);

      const name = unique('dated');
      const made = await ctx.client.post(path, binding(name, '2099-12-31'), { headers: io(WS_USER) });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.json.expiryDate, '2099-12-31');
      const read = await ctx.client.get(`${path}/${name}`, { headers: { accept: WS_USER } });
      assert.equal(read.json.expiryDate, '2099-12-31');
      const undated = await ctx.client.post(path, binding(unique('undated')), { headers: io(WS_USER) });
      assert.equal(undated.status, 201, undated.text);
      assert.equal('expiryDate' in undated.json, false);
      assert.ok(today() < '2099-12-31');
    });
  });

  describe('platform types', () => {
    it("the provider's MY-PLATFORM-TYPE is a name; names are unique whatever their case", async () => {
      const name = `MY-${unique('TYPE').toUpperCase()}`;
      const body = (typeName: string) => ({
        apiVersion: 'v1',
        kind: 'meshPlatformType',
        metadata: { name: typeName },
        spec: { displayName: 'Mine', category: 'CUSTOM', icon: 'data:image/png;base64,AAAA' },
      });
      const made = await ctx.client.post(`${BASE}/meshplatformtypes`, body(name), { headers: io(PLATFORM_TYPE) });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.json.metadata.name, name);
      assertError(
        await ctx.client.post(`${BASE}/meshplatformtypes`, body(name.toLowerCase()), { headers: io(PLATFORM_TYPE) }),
        409,
        /unique regardless of case/,
      );
      assertError(
        await ctx.client.post(`${BASE}/meshplatformtypes`, body('MY--TYPE'), { headers: io(PLATFORM_TYPE) }),
        400,
        /metadata\.name/,
      );
    });

    it("answer the OpenAPI's status.lifecycleState and the provider's status.lifecycle.state under both vendor segments", async () => {
      for (const accept of [PLATFORM_TYPE, media('meshPlatformType', 'v1', 'meshcloud')]) {
        const read = await ctx.client.get(`${BASE}/meshplatformtypes/AZURE`, { headers: { accept } });
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(read.json.status, { lifecycleState: 'ACTIVE', lifecycle: { state: 'ACTIVE' } }, accept);
      }
    });
  });

  describe('payment methods', () => {
    it('answer metadata.createdOn, and metadata.deletedOn once deleted (a deleted one stays readable)', async () => {
      const ws = unique('pmd');
      const name = unique('pm');
      await createWorkspace(ctx.client, ws);
      const made = await createPaymentMethod(ctx.client, ws, name);
      assert.match(made.metadata.createdOn, /^\d{4}-\d\d-\d\dT/);
      assert.equal('deletedOn' in made.metadata, false);
      assert.equal((await ctx.client.delete(`${BASE}/meshpaymentmethods/${name}`)).status, 204);
      const read = await ctx.client.get(`${BASE}/meshpaymentmethods/${name}`, { headers: { accept: PAYMENT_METHOD } });
      assert.equal(read.status, 200, read.text);
      assert.match(read.json.metadata.deletedOn, /^\d{4}-\d\d-\d\dT/);
      assert.equal(read.json.metadata.createdOn, made.metadata.createdOn);
    });
  });

  describe('tenant quotas', () => {
    it("applied quotas are the landing zone's, each overridden by the request; bounds and the auto-approval threshold are enforced, nothing stored when refused", async () => {
      const ws = unique('quota');
      const location = unique('quotaloc');
      await createWorkspace(ctx.client, ws);
      await createProject(ctx.client, ws, 'app');
      await createProject(ctx.client, ws, 'other');
      await createProject(ctx.client, ws, 'third');
      await createLocation(ctx.client, location);
      const quotaDefinitions = [
        { quotaKey: 'limits.cpu', minValue: 100, maxValue: 4000, unit: 'm', autoApprovalThreshold: 2000, description: 'CPU', label: 'CPU' },
        {
          quotaKey: 'limits.memory',
          minValue: 0,
          maxValue: 64,
          unit: 'Gi',
          autoApprovalThreshold: 64,
          description: 'Memory',
          label: 'Memory',
        },
      ];
      const platformUuid = await createPlatform(ctx.client, ws, unique('quota'), location, {
        spec: { quotaDefinitions, availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' } },
      });
      const zone = unique('qlz');
      const madeZone = await ctx.client.post(
        `${BASE}/meshlandingzones`,
        landingZoneBody(zone, platformUuid, {
          spec: {
            quotas: [
              { key: 'limits.cpu', value: 500 },
              { key: 'limits.memory', value: 8 },
            ],
          },
        }),
        { headers: io(LANDING_ZONE) },
      );
      assert.equal(madeZone.status, 201, madeZone.text);
      const body = (project: string, requestedQuotas: Record<string, { value: number }>) =>
        tenantBody(ws, project, platformUuid, { spec: { landingZoneRef: { kind: 'meshLandingZone', name: zone }, requestedQuotas } });

      assertError(
        await ctx.client.post(PATHS.tenants, body('app', { 'limits.cpu': { value: 4001 } }), { headers: io(TENANT) }),
        400,
        /^spec\.requestedQuotas\.limits\.cpu: 4001 is out of range/,
      );
      assertError(
        await ctx.client.post(PATHS.tenants, body('app', { 'limits.cpu': { value: 50 } }), { headers: io(TENANT) }),
        400,
        /is out of range/,
      );
      const { client: member } = await clientWithKey(ctx.client, ws, ['TENANT_SAVE', 'TENANT_LIST']);
      assertError(
        await member.post(PATHS.tenants, body('app', { 'limits.cpu': { value: 3000 } }), { headers: io(TENANT) }),
        400,
        /is out of range for automatic approval/,
      );
      const listed = await ctx.client.get(`${PATHS.tenants}?workspaceIdentifier=${ws}`, { headers: { accept: TENANT } });
      assert.equal(listed.json.page.totalElements, 0, 'nothing stored');

      // The map form the provider sends, answered in its form under meshcloud (COMPAT §1 "Colliding forms").
      const made = await member.post(PATHS.tenants, body('app', { 'limits.cpu': { value: 1500 } }), { headers: io(TENANT_MESHCLOUD) });
      assert.equal(made.status, 201, made.text);
      assert.match(made.headers['content-type'] ?? '', /^application\/vnd\.meshcloud\.api\.meshtenant\.v4\.hal\+json/);
      assert.deepEqual(made.json.spec.requestedQuotas, { 'limits.cpu': { value: 1500 } });
      assert.deepEqual(made.json.status.appliedQuotas, { 'limits.cpu': { value: 1500 }, 'limits.memory': { value: 8 } });
      assert.equal(made.json.spec.quotas, undefined, 'no list form under meshcloud');
      // The spec's vendor answers the same tenant in the spec's form: the applied quotas as spec.quotas.
      const asSpec = await ctx.client.get(`${PATHS.tenants}/${made.json.metadata.uuid}`, { headers: { accept: TENANT } });
      assert.equal(asSpec.status, 200, asSpec.text);
      assert.deepEqual(asSpec.json.spec.quotas, [
        { key: 'limits.cpu', value: 1500 },
        { key: 'limits.memory', value: 8 },
      ]);
      assert.equal(asSpec.json.status.appliedQuotas, undefined, 'no map form under the spec vendor');
      const listed2 = await ctx.client.get(`${PATHS.tenants}?workspaceIdentifier=${ws}`, { headers: { accept: TENANT_MESHCLOUD } });
      assert.deepEqual(
        listed2.json._embedded.meshTenants[0].status.appliedQuotas,
        made.json.status.appliedQuotas,
        'a list answers in the form of its vendor too',
      );
      // An admin may go beyond the threshold (it defines the limits), not beyond the maximum; the spec's list form is taken under meshcloud.
      const admins = await ctx.client.post(
        PATHS.tenants,
        tenantBody(ws, 'other', platformUuid, {
          spec: { landingZoneRef: { kind: 'meshLandingZone', name: zone }, quotas: [{ key: 'limits.cpu', value: 3000 }] },
        }),
        { headers: io(TENANT_MESHCLOUD) },
      );
      assert.equal(admins.status, 201, admins.text);
      assert.deepEqual(admins.json.status.appliedQuotas, { 'limits.cpu': { value: 3000 }, 'limits.memory': { value: 8 } });
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          tenantBody(ws, 'third', platformUuid, { spec: { quotas: [{ key: 'limits.memory', value: 65 }] } }),
          { headers: io(TENANT_MESHCLOUD) },
        ),
        400,
        /^spec\.quotas\.limits\.memory: 65 is out of range/,
      );
    });
  });
});
