import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { media, type ApiClient, type Response } from './support/client.js';
import { API_KEY, clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import {
  createLandingZone,
  createLocation,
  createPaymentMethod,
  createPlatform,
  createProject,
  createStructure,
  createTenant,
  createWorkspace,
  io,
  LOCATION,
  LOCATION_PREVIEW,
  locationBody,
  PATHS,
  PLATFORM,
  PLATFORM_PREVIEW,
  platformBody,
  PROJECT,
  projectBody,
  TENANT,
  TENANT_PREVIEW,
  tenantBody,
  unique,
  WORKSPACE,
  workspaceBody,
  type Json,
} from './support/structure.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const HASH = /^sha256:[0-9a-f]{64}$/;

/** Asserts the status and the `{message, errorCode, errorId}` error body; optionally what the message names. */
function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

/** Path and query of a (possibly absolute) link, so both forms compare equal. */
function linkPath(href: string): string {
  const url = new URL(href, 'https://base.invalid');
  return `${url.pathname}${url.search}`;
}

const get = (client: ApiClient, path: string, accept: string) => client.get(path, { headers: { accept } });

/** GETs a list, asserts 200 and the list envelope, returns the embedded items. */
async function items(client: ApiClient, path: string, accept: string, plural: string): Promise<Json[]> {
  const response = await get(client, path, accept);
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  assert.ok(Array.isArray(response.json._embedded?.[plural]), `${path}: _embedded.${plural} missing in ${response.text}`);
  assert.equal(typeof response.json.page?.totalElements, 'number', `${path}: page missing`);
  return response.json._embedded[plural];
}

const workspaceNames = async (client: ApiClient, query = '') =>
  (await items(client, `${PATHS.workspaces}?size=350${query}`, WORKSPACE, 'meshWorkspaces')).map((w) => w.metadata.name as string);
const projectNames = async (client: ApiClient, query: string) =>
  (await items(client, `${PATHS.projects}?size=350&${query}`, PROJECT, 'meshProjects')).map(
    (p) => `${p.metadata.ownedByWorkspace}.${p.metadata.name}`,
  );
const platformUuids = async (client: ApiClient, query: string) =>
  (await items(client, `${PATHS.platforms}?size=350&${query}`, PLATFORM, 'meshPlatforms')).map((p) => p.metadata.uuid as string);
const tenantUuids = async (client: ApiClient, query: string) =>
  (await items(client, `${PATHS.tenants}?size=350&${query}`, TENANT, 'meshTenants')).map((t) => t.metadata.uuid as string);

/**
 * A platform's spec as answered in v2: as sent, plus what the OpenAPI requires of an answer
 * (`locationRef.name`, the availability's restriction and publication state, `quotaDefinitions`).
 */
function platformSpecAnswered(sent: Json): Json {
  const availability = { restriction: 'PRIVATE', publicationState: 'UNPUBLISHED', ...sent.availability };
  return {
    ...sent,
    locationRef: { ...sent.locationRef, name: sent.locationRef.name ?? sent.locationRef.identifier },
    availability,
    quotaDefinitions: sent.quotaDefinitions ?? [],
  };
}

/** A message that names the missing reference, by value or by field. */
const names = (...alternatives: string[]) => new RegExp(alternatives.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));

describeEachDatabase('platform structure', (ctx) => {
  describe('meshWorkspace v2', () => {
    it('creates, reads, lists, replaces and deletes a workspace, echoing unknown fields', async () => {
      const name = unique('ws');
      const body = workspaceBody(name, {
        metadata: { tags: { env: ['dev'], team: ['a', 'b'] }, customNote: 'kept as sent' },
        spec: { platformBuilderAccessEnabled: true, futureField: { nested: [1, 'two', true], count: 16 } },
      });
      const created = await ctx.client.post(PATHS.workspaces, body, { headers: io(WORKSPACE) });
      assert.equal(created.status, 201, created.text);
      const ws = created.json;
      assert.equal(ws.kind, 'meshWorkspace');
      assert.equal(ws.apiVersion, 'v2');
      assert.equal(ws.metadata.name, name);
      assert.deepEqual(ws.metadata.tags, { env: ['dev'], team: ['a', 'b'] });
      assert.equal(ws.metadata.customNote, 'kept as sent');
      assert.match(ws.metadata.createdOn, ISO);
      assert.deepEqual(ws.spec, body.spec);
      assert.equal(linkPath(ws._links.self.href), `${PATHS.workspaces}/${name}`);
      assert.equal(created.headers.location, ws._links.self.href);
      assert.equal(linkPath(ws._links.meshprojects.href), `${PATHS.projects}?workspaceIdentifier=${name}`);
      assert.equal(linkPath(ws._links.meshtenants.href), `${PATHS.tenants}?workspaceIdentifier=${name}`);

      const read = await get(ctx.client, `${PATHS.workspaces}/${name}`, WORKSPACE);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, ws);
      assert.ok((await workspaceNames(ctx.client)).includes(name));

      const projectsLink = await get(ctx.client, ws._links.meshprojects.href, PROJECT);
      assert.equal(projectsLink.status, 200, projectsLink.text);
      assert.deepEqual(projectsLink.json._embedded.meshProjects, []);

      const replacement = workspaceBody(name, { metadata: { tags: { env: ['prod'] } }, spec: { displayName: 'Renamed' } });
      const put = await ctx.client.put(`${PATHS.workspaces}/${name}`, replacement, { headers: io(WORKSPACE) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.metadata.tags, { env: ['prod'] }, 'PUT replaces all tags');
      assert.deepEqual(put.json.spec, replacement.spec, 'PUT replaces the spec');
      const reread = await get(ctx.client, `${PATHS.workspaces}/${name}`, WORKSPACE);
      assert.deepEqual(reread.json.metadata.tags, { env: ['prod'] });
      assert.equal(reread.json.spec.displayName, 'Renamed');
      assert.equal(reread.json.spec.futureField, undefined);

      assertError(await ctx.client.post(PATHS.workspaces, body, { headers: io(WORKSPACE) }), 409);
      assertError(
        await ctx.client.put(`${PATHS.workspaces}/${name}`, workspaceBody(unique('other')), { headers: io(WORKSPACE) }),
        400,
        /name/,
      );
      const ghost = unique('ghost');
      assertError(await ctx.client.put(`${PATHS.workspaces}/${ghost}`, workspaceBody(ghost), { headers: io(WORKSPACE) }), 404);

      const deleted = await ctx.client.delete(`${PATHS.workspaces}/${name}`);
      assert.equal(deleted.status, 204, deleted.text);
      assertError(await get(ctx.client, `${PATHS.workspaces}/${name}`, WORKSPACE), 404);
      assert.ok(!(await workspaceNames(ctx.client)).includes(name));
    });

    it('defaults tags to {} and lists workspaces in creation order, with the bootstrap admin workspace', async () => {
      const first = unique('order');
      const second = unique('order');
      const created = await createWorkspace(ctx.client, first);
      assert.deepEqual(created.metadata.tags, {});
      await createWorkspace(ctx.client, second);
      const all = await workspaceNames(ctx.client);
      assert.ok(all.includes('admin'), 'the admin workspace exists from the start');
      assert.ok(all.indexOf(first) >= 0 && all.indexOf(first) < all.indexOf(second), `creation order: ${all.join(',')}`);
      const admin = await get(ctx.client, `${PATHS.workspaces}/admin`, WORKSPACE);
      assert.equal(admin.status, 200, admin.text);
    });

    it('refuses to delete a workspace that owns projects or platforms (409) until they are gone', async () => {
      const withProject = unique('busy');
      await createWorkspace(ctx.client, withProject);
      const project = unique('prj');
      await createProject(ctx.client, withProject, project);
      assertError(await ctx.client.delete(`${PATHS.workspaces}/${withProject}`), 409);
      assert.equal((await get(ctx.client, `${PATHS.workspaces}/${withProject}`, WORKSPACE)).status, 200, 'still there');
      assert.equal((await ctx.client.delete(`${PATHS.projects}/${withProject}.${project}`)).status, 202);
      assert.equal((await ctx.client.delete(`${PATHS.workspaces}/${withProject}`)).status, 204);

      const withPlatform = unique('busy');
      await createWorkspace(ctx.client, withPlatform);
      const location = unique('loc');
      await createLocation(ctx.client, location);
      const platform = await createPlatform(ctx.client, withPlatform, unique('plf'), location);
      assertError(await ctx.client.delete(`${PATHS.workspaces}/${withPlatform}`), 409);
      assert.equal((await ctx.client.delete(`${PATHS.platforms}/${platform}`)).status, 204);
      assert.equal((await ctx.client.delete(`${PATHS.workspaces}/${withPlatform}`)).status, 204);
    });

    it('deletes the API keys of a deleted workspace', async () => {
      const name = unique('keys');
      await createWorkspace(ctx.client, name);
      const holder = await clientWithKey(ctx.client, name, ['WORKSPACE_LIST']);
      assert.equal((await get(holder.client, `${PATHS.workspaces}/${name}`, WORKSPACE)).status, 200);
      assert.equal((await ctx.client.delete(`${PATHS.workspaces}/${name}`)).status, 204);
      assert.equal((await get(ctx.client, `/api/meshobjects/meshapikeys/${holder.key.uuid}`, API_KEY)).status, 404);
      assert.equal((await get(holder.client, `${PATHS.workspaces}/${name}`, WORKSPACE)).status, 401);
    });

    it('refuses an API key for an unknown workspace with 422 naming it', async () => {
      const missing = unique('nokeyws');
      const response = await ctx.client.post(
        '/api/meshobjects/meshapikeys',
        {
          apiVersion: 'v1-preview',
          kind: 'meshApiKey',
          metadata: { ownedByWorkspace: missing },
          spec: { displayName: 'k', permissions: ['WORKSPACE_LIST'] },
        },
        { headers: io(API_KEY) },
      );
      assertError(response, 422, names(missing, 'ownedByWorkspace'));
    });

    it('scopes WORKSPACE_* to the key own workspace; creating a workspace needs ADM_WORKSPACE_SAVE', async () => {
      const a = unique('wsa');
      const b = unique('wsb');
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const key = await clientWithKey(ctx.client, a, ['WORKSPACE_LIST', 'WORKSPACE_SAVE', 'WORKSPACE_DELETE']);
      assert.equal((await get(key.client, `${PATHS.workspaces}/${a}`, WORKSPACE)).status, 200);
      assertError(await get(key.client, `${PATHS.workspaces}/${b}`, WORKSPACE), 404);
      assert.deepEqual(await workspaceNames(key.client), [a]);

      const own = await key.client.put(`${PATHS.workspaces}/${a}`, workspaceBody(a, { spec: { displayName: 'mine' } }), {
        headers: io(WORKSPACE),
      });
      assert.equal(own.status, 200, own.text);
      const other = await key.client.put(`${PATHS.workspaces}/${b}`, workspaceBody(b, { spec: { displayName: 'hijacked' } }), {
        headers: io(WORKSPACE),
      });
      assert.ok([403, 404].includes(other.status), `PUT of another workspace: ${other.status}`);
      const otherDelete = await key.client.delete(`${PATHS.workspaces}/${b}`);
      assert.ok([403, 404].includes(otherDelete.status), `DELETE of another workspace: ${otherDelete.status}`);
      const bNow = await get(ctx.client, `${PATHS.workspaces}/${b}`, WORKSPACE);
      assert.equal(bNow.status, 200);
      assert.equal(bNow.json.spec.displayName, `Workspace ${b}`);

      assertError(await key.client.post(PATHS.workspaces, workspaceBody(unique('new')), { headers: io(WORKSPACE) }), 403);
      const admin = await clientWithKey(ctx.client, 'admin', ['ADM_WORKSPACE_SAVE']);
      const byAdmin = await admin.client.post(PATHS.workspaces, workspaceBody(unique('new')), { headers: io(WORKSPACE) });
      assert.equal(byAdmin.status, 201, byAdmin.text);
    });
  });

  describe('meshProject v2', () => {
    it('creates, reads, replaces and deletes a project, echoing unknown fields', async () => {
      const ws = unique('pws');
      await createWorkspace(ctx.client, ws);
      const name = unique('prj');
      const [pm1, pm2] = [unique('pm-1'), unique('pm-2')];
      await createPaymentMethod(ctx.client, ws, pm1);
      await createPaymentMethod(ctx.client, ws, pm2);
      const body = projectBody(ws, name, {
        metadata: { customNote: 'kept' },
        spec: {
          tags: { cost: ['42'] },
          paymentMethodIdentifier: pm1,
          substitutePaymentMethodIdentifier: pm2,
          futureField: { n: 16, list: ['a'] },
        },
      });
      const created = await ctx.client.post(PATHS.projects, body, { headers: io(PROJECT) });
      assert.equal(created.status, 201, created.text);
      const project = created.json;
      assert.equal(project.kind, 'meshProject');
      assert.equal(project.apiVersion, 'v2');
      assert.equal(project.metadata.name, name);
      assert.equal(project.metadata.ownedByWorkspace, ws);
      assert.equal(project.metadata.customNote, 'kept');
      assert.match(project.metadata.createdOn, ISO);
      assert.deepEqual(project.spec, body.spec);
      assert.equal(linkPath(project._links.self.href), `${PATHS.projects}/${ws}.${name}`);
      assert.equal(created.headers.location, project._links.self.href);
      assert.equal(linkPath(project._links.meshworkspace.href), `${PATHS.workspaces}/${ws}`);
      assert.ok(project._links.meshtenants.href);

      const read = await get(ctx.client, `${PATHS.projects}/${ws}.${name}`, PROJECT);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, project);

      const bare = await createProject(ctx.client, ws, unique('bare'), { spec: { substitutePaymentMethodIdentifier: null } });
      assert.deepEqual(bare.spec.tags, {}, 'tags default to {}');
      assert.equal(bare.spec.substitutePaymentMethodIdentifier ?? null, null);

      assertError(await ctx.client.post(PATHS.projects, body, { headers: io(PROJECT) }), 409);
      const elsewhere = unique('pws');
      await createWorkspace(ctx.client, elsewhere);
      await createProject(ctx.client, elsewhere, name);

      const replacement = projectBody(ws, name, { spec: { displayName: 'Renamed', tags: { cost: ['43'] } } });
      const put = await ctx.client.put(`${PATHS.projects}/${ws}.${name}`, replacement, { headers: io(PROJECT) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.spec, replacement.spec);
      assert.deepEqual((await get(ctx.client, `${PATHS.projects}/${ws}.${name}`, PROJECT)).json.spec, replacement.spec);
      assertError(
        await ctx.client.put(`${PATHS.projects}/${ws}.${name}`, projectBody(ws, unique('x')), { headers: io(PROJECT) }),
        400,
        /name/,
      );
      assertError(
        await ctx.client.put(`${PATHS.projects}/${ws}.${name}`, projectBody(elsewhere, name), { headers: io(PROJECT) }),
        400,
        /ownedByWorkspace|workspace/,
      );

      const deleted = await ctx.client.delete(`${PATHS.projects}/${ws}.${name}`);
      assert.equal(deleted.status, 202, deleted.text);
      assertError(await get(ctx.client, `${PATHS.projects}/${ws}.${name}`, PROJECT), 404);
      assert.equal(
        (await get(ctx.client, `${PATHS.projects}/${elsewhere}.${name}`, PROJECT)).status,
        200,
        'the namesake in another workspace stays',
      );
    });

    it('filters projects by workspaceIdentifier, paymentIdentifier and state', async () => {
      const ws1 = unique('f1');
      const ws2 = unique('f2');
      await createWorkspace(ctx.client, ws1);
      await createWorkspace(ctx.client, ws2);
      const pmA = unique('pma');
      const pmB = unique('pmb');
      const p1 = unique('p');
      const p2 = unique('p');
      const p3 = unique('p');
      const pmA2 = unique('pma');
      await createPaymentMethod(ctx.client, ws1, pmA);
      await createPaymentMethod(ctx.client, ws1, pmB);
      await createPaymentMethod(ctx.client, ws2, pmA2);
      await createProject(ctx.client, ws1, p1, { spec: { paymentMethodIdentifier: pmA } });
      await createProject(ctx.client, ws1, p2, { spec: { paymentMethodIdentifier: pmB } });
      await createProject(ctx.client, ws2, p3, { spec: { paymentMethodIdentifier: pmA2 } });

      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}`), [`${ws1}.${p1}`, `${ws1}.${p2}`]);
      assert.deepEqual(await projectNames(ctx.client, `paymentIdentifier=${pmA}`), [`${ws1}.${p1}`]);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws2}&paymentIdentifier=${pmA2}`), [`${ws2}.${p3}`]);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}&paymentIdentifier=${pmA2}`), []);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}&state=ACTIVE`), [`${ws1}.${p1}`, `${ws1}.${p2}`]);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}&state=DELETED`), []);
      assertError(await get(ctx.client, `${PATHS.projects}?workspaceIdentifier=${ws1}&state=BOGUS`, PROJECT), 400, /state/);

      assert.equal((await ctx.client.delete(`${PATHS.projects}/${ws1}.${p2}`)).status, 202);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}`), [`${ws1}.${p1}`]);
      assert.deepEqual(await projectNames(ctx.client, `workspaceIdentifier=${ws1}&state=DELETED`), [], 'deleted projects are forgotten');
    });

    it('pages a list: size, page, totalElements, totalPages, number', async () => {
      const ws = unique('page');
      await createWorkspace(ctx.client, ws);
      const created = [unique('p'), unique('p'), unique('p')];
      for (const p of created) await createProject(ctx.client, ws, p);
      const first = await get(ctx.client, `${PATHS.projects}?workspaceIdentifier=${ws}&size=2`, PROJECT);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.json.page, { size: 2, totalElements: 3, totalPages: 2, number: 0 });
      assert.equal(first.json._embedded.meshProjects.length, 2);
      assert.ok(first.json._links.next, 'a next link on the first of two pages');
      const second = await get(ctx.client, `${PATHS.projects}?workspaceIdentifier=${ws}&size=2&page=1`, PROJECT);
      assert.deepEqual(second.json.page, { size: 2, totalElements: 3, totalPages: 2, number: 1 });
      assert.equal(second.json._embedded.meshProjects.length, 1);
      const paged = [...first.json._embedded.meshProjects, ...second.json._embedded.meshProjects].map((p: Json) => p.metadata.name);
      assert.deepEqual(paged, created, 'pages follow creation order');
    });

    it('refuses a project of an unknown workspace with 422 naming it', async () => {
      const missing = unique('nows');
      assertError(
        await ctx.client.post(PATHS.projects, projectBody(missing, unique('p')), { headers: io(PROJECT) }),
        422,
        names(missing, 'ownedByWorkspace'),
      );
    });

    it('refuses to delete a project with a tenant (409), allows it once the tenant is deleted', async () => {
      const s = await createStructure(ctx.client, 'pd');
      const tenant = await createTenant(ctx.client, s.workspace, s.project, s.platformUuid);
      assertError(await ctx.client.delete(`${PATHS.projects}/${s.workspace}.${s.project}`), 409);
      assert.equal((await get(ctx.client, `${PATHS.projects}/${s.workspace}.${s.project}`, PROJECT)).status, 200);
      assert.equal((await ctx.client.delete(`${PATHS.tenants}/${tenant.metadata.uuid}`)).status, 202);
      assert.equal((await ctx.client.delete(`${PATHS.projects}/${s.workspace}.${s.project}`)).status, 202);
    });
  });

  describe('meshLocation v1 / v1-preview', () => {
    it('creates, reads, lists by displayName and replaces a location', async () => {
      const name = unique('loc');
      const display = `Region ${name}`;
      const body = locationBody(name, {
        metadata: { customNote: 'kept' },
        spec: { displayName: display, description: 'first', futureField: [1, 'x'] },
      });
      const created = await ctx.client.post(PATHS.locations, body, { headers: io(LOCATION) });
      assert.equal(created.status, 201, created.text);
      const location = created.json;
      assert.equal(location.kind, 'meshLocation');
      assert.equal(location.apiVersion, 'v1');
      assert.equal(location.metadata.name, name);
      assert.equal(location.metadata.customNote, 'kept');
      assert.equal(typeof location.metadata.uuid, 'string');
      assert.match(location.metadata.createdOn, ISO);
      assert.deepEqual(location.spec, body.spec);
      assert.equal(location.status.isPublic, false);
      assert.equal(created.headers.location, location._links.self.href);
      assert.equal(linkPath(location._links.self.href), `${PATHS.locations}/${name}`);

      const read = await get(ctx.client, `${PATHS.locations}/${name}`, LOCATION);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, location);
      assertError(await ctx.client.post(PATHS.locations, body, { headers: io(LOCATION) }), 409);

      const similar = unique('loc');
      await createLocation(ctx.client, similar, { spec: { displayName: `${display} East` } });
      const filtered = await items(ctx.client, `${PATHS.locations}?displayName=${encodeURIComponent(display)}`, LOCATION, 'meshLocations');
      assert.deepEqual(
        filtered.map((l) => l.metadata.name),
        [name],
      );

      const replacement = locationBody(name, { spec: { displayName: `${display} v2`, description: 'second' } });
      const put = await ctx.client.put(`${PATHS.locations}/${name}`, replacement, { headers: io(LOCATION) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.spec, replacement.spec);
      assert.equal(put.json.metadata.uuid, location.metadata.uuid);
      assert.deepEqual((await get(ctx.client, `${PATHS.locations}/${name}`, LOCATION)).json.spec, replacement.spec);
    });

    it('reports isPublic when a platform at the location is PUBLIC', async () => {
      const ws = unique('pub');
      await createWorkspace(ctx.client, ws);
      const publicLoc = unique('loc');
      const privateLoc = unique('loc');
      await createLocation(ctx.client, publicLoc);
      await createLocation(ctx.client, privateLoc);
      await createPlatform(ctx.client, ws, unique('plf'), publicLoc, { spec: { availability: { restriction: 'PUBLIC' } } });
      await createPlatform(ctx.client, ws, unique('plf'), privateLoc, { spec: { availability: { restriction: 'PRIVATE' } } });
      assert.equal((await get(ctx.client, `${PATHS.locations}/${publicLoc}`, LOCATION)).json.status.isPublic, true);
      assert.equal((await get(ctx.client, `${PATHS.locations}/${privateLoc}`, LOCATION)).json.status.isPublic, false);
    });

    it('lets every authenticated caller read locations; writing needs ADM_ or the owning workspace PLATFORMINSTANCE_SAVE', async () => {
      const ws = unique('lw');
      await createWorkspace(ctx.client, ws);
      const shared = unique('loc');
      await createLocation(ctx.client, shared);
      const nobody = await clientWithKey(ctx.client, ws, []);
      assert.equal((await get(nobody.client, `${PATHS.locations}/${shared}`, LOCATION)).status, 200);
      assert.ok(
        (await items(nobody.client, `${PATHS.locations}?size=350`, LOCATION, 'meshLocations')).some((l) => l.metadata.name === shared),
      );

      const saver = await clientWithKey(ctx.client, ws, ['PLATFORMINSTANCE_SAVE']);
      assertError(await saver.client.post(PATHS.locations, locationBody(unique('loc')), { headers: io(LOCATION) }), 403);
      assertError(
        await saver.client.put(`${PATHS.locations}/${shared}`, locationBody(shared, { spec: { displayName: 'hijacked' } }), {
          headers: io(LOCATION),
        }),
        403,
      );
      assert.equal((await get(ctx.client, `${PATHS.locations}/${shared}`, LOCATION)).json.spec.displayName, `Location ${shared}`);
      const owned = unique('loc');
      const created = await saver.client.post(PATHS.locations, locationBody(owned, { metadata: { ownedByWorkspace: ws } }), {
        headers: io(LOCATION),
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json.metadata.ownedByWorkspace, ws);
      const put = await saver.client.put(
        `${PATHS.locations}/${owned}`,
        locationBody(owned, { metadata: { ownedByWorkspace: ws }, spec: { displayName: 'Mine' } }),
        { headers: io(LOCATION) },
      );
      assert.equal(put.status, 200, put.text);
    });

    it('serves v1-preview as deprecated, with a successor-version link to v1', async () => {
      const name = unique('loc');
      await createLocation(ctx.client, name);
      const current = await get(ctx.client, `${PATHS.locations}/${name}`, LOCATION);
      assert.equal(current.headers.deprecation, undefined, 'v1 is not deprecated');
      const preview = await get(ctx.client, `${PATHS.locations}/${name}`, LOCATION_PREVIEW);
      assert.equal(preview.status, 200, preview.text);
      assert.equal(preview.json.apiVersion, 'v1-preview');
      assert.ok(preview.headers.deprecation, 'Deprecation header');
      assert.match(preview.headers.link ?? '', /rel="successor-version"/);
      assert.match(preview.headers.link ?? '', /meshlocation\.v1\.hal\+json/);
      assert.ok(
        (preview.headers.link ?? '').startsWith(`<https://`) && preview.headers.link!.includes(`${PATHS.locations}/${name}>;`),
        `the link names this location: ${preview.headers.link}`,
      );
    });
  });

  describe('meshPlatform v2 / v2-preview', () => {
    it('creates, reads, replaces and deletes a platform; CUSTOM without config, AZURE with one', async () => {
      const ws = unique('plws');
      await createWorkspace(ctx.client, ws);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const name = unique('plf');
      const body = platformBody(ws, name, loc, {
        metadata: { customNote: 'kept' },
        spec: { description: 'a platform', futureField: { n: 1 }, availability: { restriction: 'PRIVATE' } },
      });
      const created = await ctx.client.post(PATHS.platforms, body, { headers: io(PLATFORM) });
      assert.equal(created.status, 201, created.text);
      const platform = created.json;
      const uuid = platform.metadata.uuid;
      assert.equal(platform.kind, 'meshPlatform');
      assert.equal(platform.apiVersion, 'v2');
      assert.equal(typeof uuid, 'string');
      assert.equal(platform.metadata.name, name);
      assert.equal(platform.metadata.ownedByWorkspace, ws);
      assert.equal(platform.metadata.customNote, 'kept');
      assert.match(platform.metadata.createdOn, ISO);
      assert.deepEqual(platform.spec, platformSpecAnswered(body.spec));
      assert.deepEqual(platform.status, { platformTypeIdentifier: 'CUSTOM', availability: { publicationState: 'UNPUBLISHED' } });
      assert.equal(linkPath(platform._links.self.href), `${PATHS.platforms}/${uuid}`);
      assert.equal(created.headers.location, platform._links.self.href);
      assert.equal(linkPath(platform._links.owner.href), `${PATHS.workspaces}/${ws}`);
      assert.equal(linkPath(platform._links.location.href), `${PATHS.locations}/${loc}`);

      const read = await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, platform);

      const azure = await ctx.client.post(
        PATHS.platforms,
        platformBody(ws, unique('az'), loc, { spec: { config: { type: 'azure', azure: { entraTenant: 'contoso.example' } } } }),
        { headers: io(PLATFORM) },
      );
      assert.equal(azure.status, 201, azure.text);
      assert.equal(azure.json.status.platformTypeIdentifier, 'AZURE');
      assert.deepEqual(azure.json.spec.config, { type: 'azure', azure: { entraTenant: 'contoso.example' } });

      assertError(await ctx.client.post(PATHS.platforms, body, { headers: io(PLATFORM) }), 409);
      const otherLoc = unique('loc');
      await createLocation(ctx.client, otherLoc);
      await createPlatform(ctx.client, ws, name, otherLoc);
      const v1Style = await ctx.client.post(
        PATHS.platforms,
        platformBody(ws, unique('v1ref'), loc, { spec: { locationRef: { kind: 'meshLocation', identifier: loc } } }),
        { headers: io(PLATFORM) },
      );
      assert.equal(v1Style.status, 201, `locationRef.identifier is accepted: ${v1Style.text}`);
      assert.equal(linkPath(v1Style.json._links.location.href), `${PATHS.locations}/${loc}`);

      const replacement = platformBody(ws, name, loc, { spec: { displayName: 'Renamed', description: 'changed' } });
      const put = await ctx.client.put(`${PATHS.platforms}/${uuid}`, replacement, { headers: io(PLATFORM) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.spec, platformSpecAnswered(replacement.spec));
      assert.equal(put.json.metadata.uuid, uuid);
      assert.deepEqual((await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM)).json.spec, platformSpecAnswered(replacement.spec));
      assertError(
        await ctx.client.put(`${PATHS.platforms}/${uuid}`, platformBody(ws, unique('moved'), loc), { headers: io(PLATFORM) }),
        400,
        /name/,
      );
      const thirdLoc = unique('loc');
      await createLocation(ctx.client, thirdLoc);
      assertError(
        await ctx.client.put(`${PATHS.platforms}/${uuid}`, platformBody(ws, name, thirdLoc), { headers: io(PLATFORM) }),
        400,
        /location/i,
      );

      const deleted = await ctx.client.delete(`${PATHS.platforms}/${uuid}`);
      assert.equal(deleted.status, 204, deleted.text);
      assertError(await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM), 404);
    });

    it('refuses unknown workspace or location references with 422 naming them', async () => {
      const ws = unique('rws');
      await createWorkspace(ctx.client, ws);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const missingWs = unique('nows');
      const missingLoc = unique('noloc');
      assertError(
        await ctx.client.post(PATHS.platforms, platformBody(missingWs, unique('p'), loc), { headers: io(PLATFORM) }),
        422,
        names(missingWs, 'ownedByWorkspace'),
      );
      assertError(
        await ctx.client.post(PATHS.platforms, platformBody(ws, unique('p'), missingLoc), { headers: io(PLATFORM) }),
        422,
        names(missingLoc, 'locationRef'),
      );
    });

    it('filters platforms by identifier, locationIdentifier, ownedByWorkspace and platformTypeIdentifier', async () => {
      const ws1 = unique('pf1');
      const ws2 = unique('pf2');
      await createWorkspace(ctx.client, ws1);
      await createWorkspace(ctx.client, ws2);
      const loc1 = unique('loc');
      const loc2 = unique('loc');
      await createLocation(ctx.client, loc1);
      await createLocation(ctx.client, loc2);
      const name = unique('plf');
      const azure = { spec: { config: { type: 'azure', azure: { entraTenant: 't' } } } };
      const pA = await createPlatform(ctx.client, ws1, name, loc1, azure);
      const pB = await createPlatform(ctx.client, ws1, unique('plf'), loc2);
      const pC = await createPlatform(ctx.client, ws2, name, loc2, azure);

      assert.deepEqual(await platformUuids(ctx.client, `identifier=${name}.${loc1}`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `identifier=${name}.${loc2}`), [pC]);
      assert.deepEqual(await platformUuids(ctx.client, `locationIdentifier=${loc2}`), [pB, pC]);
      assert.deepEqual(await platformUuids(ctx.client, `ownedByWorkspace=${ws1}`), [pA, pB]);
      assert.deepEqual(await platformUuids(ctx.client, `ownedByWorkspace=${ws1}&platformTypeIdentifier=AZURE`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `ownedByWorkspace=${ws1}&platformTypeIdentifier=CUSTOM`), [pB]);
      assert.deepEqual(await platformUuids(ctx.client, `ownedByWorkspace=${ws2}&platformTypeIdentifier=CUSTOM`), []);
    });

    it('filters platforms by publicationState, restriction, displayName and contributingWorkspace (repeatable: any of them); 400 for values outside the lists', async () => {
      const owner = unique('pfo');
      const [c1, c2, c3] = [unique('pfc'), unique('pfc'), unique('pfc')];
      await createWorkspace(ctx.client, owner);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const shown = unique('Shown Name');
      const pA = await createPlatform(ctx.client, owner, unique('plf'), loc, {
        spec: {
          displayName: shown,
          availability: { restriction: 'PUBLIC', publicationState: 'PUBLISHED' },
          contributingWorkspaces: [c1, c2],
        },
      });
      const pB = await createPlatform(ctx.client, owner, unique('plf'), loc, {
        spec: {
          availability: { restriction: 'RESTRICTED', restrictedToWorkspaces: [c3], publicationState: 'REQUESTED' },
          contributingWorkspaces: [c2],
        },
      });
      const pC = await createPlatform(ctx.client, owner, unique('plf'), loc);
      const at = `locationIdentifier=${loc}`;

      assert.deepEqual(await platformUuids(ctx.client, `${at}&publicationState=PUBLISHED`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&publicationState=REQUESTED`), [pB]);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&publicationState=UNPUBLISHED`), [pC], 'UNPUBLISHED when not sent');
      assert.deepEqual(await platformUuids(ctx.client, `${at}&publicationState=REJECTED`), []);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&restriction=PUBLIC`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&restriction=RESTRICTED`), [pB]);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&restriction=PRIVATE`), [pC], 'PRIVATE when not sent');
      assert.deepEqual(await platformUuids(ctx.client, `displayName=${encodeURIComponent(shown)}`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `displayName=${encodeURIComponent(shown.toUpperCase())}`), [], 'exact match');
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c1}`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c2}`), [pA, pB]);
      assert.deepEqual(
        await platformUuids(ctx.client, `contributingWorkspace=${c1}&contributingWorkspace=${c3}`),
        [pA],
        'restrictedToWorkspaces is not contributing',
      );
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c3}&contributingWorkspace=${unique('none')}`), []);
      assert.deepEqual(
        await platformUuids(ctx.client, `contributingWorkspace=${c2}&restriction=RESTRICTED`),
        [pB],
        'AND with the other filters',
      );

      // A PUT replaces the contributors (and the other filtered fields) at once.
      const put = await ctx.client.put(
        `${PATHS.platforms}/${pB}`,
        platformBody(owner, (await get(ctx.client, `${PATHS.platforms}/${pB}`, PLATFORM)).json.metadata.name, loc, {
          spec: { contributingWorkspaces: [c3] },
        }),
        { headers: io(PLATFORM) },
      );
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c2}`), [pA]);
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c3}`), [pB]);
      assert.deepEqual(await platformUuids(ctx.client, `${at}&restriction=PRIVATE`), [pB, pC]);

      assertError(await get(ctx.client, `${PATHS.platforms}?restriction=EVERYONE`, PLATFORM), 400, /^restriction:/);
      assertError(await get(ctx.client, `${PATHS.platforms}?publicationState=published`, PLATFORM), 400, /^publicationState:/);
      assertError(
        await ctx.client.post(
          PATHS.platforms,
          platformBody(owner, unique('plf'), loc, { spec: { availability: { restriction: 'EVERYONE' } } }),
          { headers: io(PLATFORM) },
        ),
        400,
        /spec\.availability\.restriction/,
      );
      assertError(
        await ctx.client.post(
          PATHS.platforms,
          platformBody(owner, unique('plf'), loc, { spec: { contributingWorkspaces: ['Not An Identifier'] } }),
          { headers: io(PLATFORM) },
        ),
        400,
        /spec\.contributingWorkspaces/,
      );
      // Deleting a platform takes its contributor rows along.
      assert.equal((await ctx.client.delete(`${PATHS.platforms}/${pA}`)).status, 204);
      assert.deepEqual(await platformUuids(ctx.client, `contributingWorkspace=${c1}`), []);
    });

    it('stores config secrets as {hash}: never the plaintext; same hash keeps, another hash 409, new plaintext rotates', async () => {
      const ws = unique('sec');
      await createWorkspace(ctx.client, ws);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const first = `first-${randomUUID()}`;
      const second = `second-${randomUUID()}`;
      const other = `other-${randomUUID()}`;
      const texts: string[] = [];
      const config = (credential: Json, otherSecret: Json) => ({
        type: 'azure',
        azure: {
          entraTenant: 'contoso.example',
          servicePrincipal: { clientId: 'client-1', credential },
          deep: { nested: { token: otherSecret } },
        },
      });
      const name = unique('plf');
      const created = await ctx.client.post(
        PATHS.platforms,
        platformBody(ws, name, loc, { spec: { config: config({ plaintext: first }, { plaintext: other }) } }),
        { headers: io(PLATFORM) },
      );
      texts.push(created.text);
      assert.equal(created.status, 201, created.text);
      const uuid = created.json.metadata.uuid;
      const credential = created.json.spec.config.azure.servicePrincipal.credential;
      assert.deepEqual(Object.keys(credential), ['hash']);
      assert.match(credential.hash, HASH);
      const otherHash = created.json.spec.config.azure.deep.nested.token.hash;
      assert.match(otherHash, HASH);
      assert.notEqual(otherHash, credential.hash);
      assert.equal(created.json.spec.config.azure.servicePrincipal.clientId, 'client-1');
      assert.equal(created.json.spec.config.azure.entraTenant, 'contoso.example');

      const read = await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
      texts.push(read.text);
      assert.equal(read.json.spec.config.azure.servicePrincipal.credential.hash, credential.hash);
      const listed = await get(ctx.client, `${PATHS.platforms}?ownedByWorkspace=${ws}`, PLATFORM);
      texts.push(listed.text);
      assert.equal(listed.json._embedded.meshPlatforms[0].spec.config.azure.servicePrincipal.credential.hash, credential.hash);

      const keep = await ctx.client.put(
        `${PATHS.platforms}/${uuid}`,
        platformBody(ws, name, loc, { spec: { displayName: 'kept', config: config({ hash: credential.hash }, { hash: otherHash }) } }),
        { headers: io(PLATFORM) },
      );
      texts.push(keep.text);
      assert.equal(keep.status, 200, keep.text);
      assert.equal(keep.json.spec.config.azure.servicePrincipal.credential.hash, credential.hash);
      assert.equal(keep.json.spec.config.azure.deep.nested.token.hash, otherHash);

      const wrongHash = `sha256:${(credential.hash.endsWith('0') ? '1' : '0').repeat(64)}`;
      const mismatch = await ctx.client.put(
        `${PATHS.platforms}/${uuid}`,
        platformBody(ws, name, loc, { spec: { config: config({ hash: wrongHash }, { hash: otherHash }) } }),
        { headers: io(PLATFORM) },
      );
      texts.push(mismatch.text);
      assertError(mismatch, 409);
      assert.equal(
        (await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM)).json.spec.displayName,
        'kept',
        'a refused PUT changes nothing',
      );

      const rotated = await ctx.client.put(
        `${PATHS.platforms}/${uuid}`,
        platformBody(ws, name, loc, { spec: { config: config({ plaintext: second }, { hash: otherHash }) } }),
        { headers: io(PLATFORM) },
      );
      texts.push(rotated.text);
      assert.equal(rotated.status, 200, rotated.text);
      const newHash = rotated.json.spec.config.azure.servicePrincipal.credential.hash;
      assert.match(newHash, HASH);
      assert.notEqual(newHash, credential.hash);
      assert.equal(rotated.json.spec.config.azure.deep.nested.token.hash, otherHash);
      const reread = await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
      texts.push(reread.text);
      assert.equal(reread.json.spec.config.azure.servicePrincipal.credential.hash, newHash);
      const preview = await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM_PREVIEW);
      texts.push(preview.text);

      for (const text of texts) {
        for (const secret of [first, second, other]) assert.ok(!text.includes(secret), `a plaintext secret appears in a response: ${text}`);
      }
    });

    it('shows spec.config only to admins and PLATFORMINSTANCE_LIST of the owning workspace', async () => {
      const owner = unique('own');
      const stranger = unique('str');
      await createWorkspace(ctx.client, owner);
      await createWorkspace(ctx.client, stranger);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const uuid = await createPlatform(ctx.client, owner, unique('plf'), loc, {
        spec: { config: { type: 'azure', azure: { entraTenant: 'hidden.example' } } },
      });

      const ownerKey = await clientWithKey(ctx.client, owner, ['PLATFORMINSTANCE_LIST']);
      const ownView = await get(ownerKey.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
      assert.equal(ownView.status, 200, ownView.text);
      assert.equal(ownView.json.spec.config.azure.entraTenant, 'hidden.example');
      assert.equal((await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM)).json.spec.config.type, 'azure');

      for (const permissions of [['PLATFORMINSTANCE_LIST'], []]) {
        const other = await clientWithKey(ctx.client, stranger, permissions);
        const single = await get(other.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
        assert.equal(single.status, 200, `marketplace read with ${permissions}: ${single.text}`);
        assert.equal(single.json.spec.displayName !== undefined, true);
        assert.equal(single.json.spec.config, undefined, `config hidden from ${permissions}`);
        assert.ok(!single.text.includes('hidden.example'));
        const listed = await get(other.client, `${PATHS.platforms}?ownedByWorkspace=${owner}`, PLATFORM);
        assert.equal(listed.status, 200, listed.text);
        assert.equal(listed.json._embedded.meshPlatforms.length, 1);
        assert.ok(!listed.text.includes('hidden.example'), 'config hidden in lists');
      }
    });

    it('needs PLATFORMINSTANCE_SAVE/DELETE on the owning workspace to write platforms', async () => {
      const a = unique('pwa');
      const b = unique('pwb');
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const keyA = await clientWithKey(ctx.client, a, ['PLATFORMINSTANCE_LIST', 'PLATFORMINSTANCE_SAVE', 'PLATFORMINSTANCE_DELETE']);
      const keyB = await clientWithKey(ctx.client, b, ['PLATFORMINSTANCE_LIST', 'PLATFORMINSTANCE_SAVE', 'PLATFORMINSTANCE_DELETE']);
      assertError(await keyA.client.post(PATHS.platforms, platformBody(b, unique('plf'), loc), { headers: io(PLATFORM) }), 403);
      const name = unique('plf');
      const created = await keyA.client.post(PATHS.platforms, platformBody(a, name, loc), { headers: io(PLATFORM) });
      assert.equal(created.status, 201, created.text);
      const uuid = created.json.metadata.uuid;
      assertError(
        await keyB.client.put(`${PATHS.platforms}/${uuid}`, platformBody(a, name, loc, { spec: { displayName: 'hijacked' } }), {
          headers: io(PLATFORM),
        }),
        403,
      );
      assertError(await keyB.client.delete(`${PATHS.platforms}/${uuid}`), 403);
      assert.equal((await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM)).json.spec.displayName, `Platform ${name}`);
      const put = await keyA.client.put(`${PATHS.platforms}/${uuid}`, platformBody(a, name, loc, { spec: { displayName: 'mine' } }), {
        headers: io(PLATFORM),
      });
      assert.equal(put.status, 200, put.text);
      assert.equal((await keyA.client.delete(`${PATHS.platforms}/${uuid}`)).status, 204);
    });

    it('refuses to delete a platform with a non-deleted tenant (409)', async () => {
      const s = await createStructure(ctx.client, 'pdel');
      const tenant = await createTenant(ctx.client, s.workspace, s.project, s.platformUuid);
      assertError(await ctx.client.delete(`${PATHS.platforms}/${s.platformUuid}`), 409);
      assert.equal((await get(ctx.client, `${PATHS.platforms}/${s.platformUuid}`, PLATFORM)).status, 200);
      assert.equal((await ctx.client.delete(`${PATHS.tenants}/${tenant.metadata.uuid}`)).status, 202);
      assert.equal((await ctx.client.delete(`${PATHS.platforms}/${s.platformUuid}`)).status, 204);
    });

    it('serves v2-preview as deprecated, with a successor-version link to v2', async () => {
      const s = await createStructure(ctx.client, 'dep');
      const current = await get(ctx.client, `${PATHS.platforms}/${s.platformUuid}`, PLATFORM);
      assert.equal(current.headers.deprecation, undefined, 'v2 is not deprecated');
      const preview = await get(ctx.client, `${PATHS.platforms}/${s.platformUuid}`, PLATFORM_PREVIEW);
      assert.equal(preview.status, 200, preview.text);
      assert.equal(preview.json.apiVersion, 'v2-preview');
      assert.ok(preview.headers.deprecation, 'Deprecation header');
      assert.match(preview.headers.link ?? '', /rel="successor-version"/);
      assert.match(preview.headers.link ?? '', /meshplatform\.v2\.hal\+json/);
    });

    it('serves v1 as deprecated: locationRef.identifier and availability.marketplaceStatus, one platform in both shapes', async () => {
      const ws = unique('v1ws');
      await createWorkspace(ctx.client, ws);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const V1 = media('meshplatform', 'v1');
      const name = unique('plf');
      const body = {
        apiVersion: 'v1',
        kind: 'meshPlatform',
        metadata: { name, ownedByWorkspace: ws },
        spec: {
          displayName: 'Old style',
          locationRef: { kind: 'meshLocation', identifier: loc },
          availability: { restriction: 'PUBLIC', restrictedToWorkspaces: [], marketplaceStatus: 'PUBLISHED' },
          endpoint: 'https://old.example',
        },
      };
      const created = await ctx.client.post(PATHS.platforms, body, { headers: io(V1) });
      assert.equal(created.status, 201, created.text);
      assert.ok(created.headers.deprecation, 'Deprecation header');
      assert.match(
        created.headers.link ?? '',
        /rel="successor-version"; type="application\/vnd\.vendor\.api\.meshplatform\.v2\.hal\+json"/,
      );
      assert.equal(created.json.apiVersion, 'v1');
      assert.deepEqual(created.json.spec, body.spec, 'v1 answers in its own shape');
      assert.equal(created.json.status.marketPlace.status, 'PUBLISHED');
      const uuid = created.json.metadata.uuid;

      const v2 = await get(ctx.client, `${PATHS.platforms}/${uuid}`, PLATFORM);
      assert.equal(v2.status, 200, v2.text);
      assert.deepEqual(v2.json.spec.availability, { restriction: 'PUBLIC', restrictedToWorkspaces: [], publicationState: 'PUBLISHED' });
      assert.deepEqual(v2.json.spec.locationRef, { kind: 'meshLocation', identifier: loc, name: loc });
      assert.deepEqual(await platformUuids(ctx.client, `locationIdentifier=${loc}&publicationState=PUBLISHED`), [uuid]);

      const list = await get(ctx.client, `${PATHS.platforms}?locationIdentifier=${loc}`, V1);
      assert.equal(list.status, 200, list.text);
      assert.ok(list.headers.deprecation);
      assert.deepEqual(
        list.json._embedded.meshPlatforms.map((p: Json) => p.spec.availability.marketplaceStatus),
        ['PUBLISHED'],
      );

      // A v2 platform read as v1: identifier and marketplaceStatus, never name or publicationState.
      const modern = await createPlatform(ctx.client, ws, unique('plf'), loc, {
        spec: { availability: { restriction: 'PRIVATE', publicationState: 'REJECTED' } },
      });
      const old = await get(ctx.client, `${PATHS.platforms}/${modern}`, V1);
      assert.deepEqual(old.json.spec.locationRef, { kind: 'meshLocation', identifier: loc });
      assert.deepEqual(old.json.spec.availability, { restriction: 'PRIVATE', marketplaceStatus: 'REJECTED' });

      const put = await ctx.client.put(
        `${PATHS.platforms}/${uuid}`,
        { ...body, spec: { ...body.spec, availability: { restriction: 'PUBLIC', marketplaceStatus: 'UNPUBLISHED' } } },
        { headers: io(V1) },
      );
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(await platformUuids(ctx.client, `locationIdentifier=${loc}&publicationState=UNPUBLISHED`), [uuid]);
      assertError(
        await ctx.client.post(
          PATHS.platforms,
          {
            ...body,
            metadata: { name: unique('plf'), ownedByWorkspace: ws },
            spec: { ...body.spec, availability: { marketplaceStatus: 'LIVE' } },
          },
          { headers: io(V1) },
        ),
        400,
        /marketplaceStatus/,
      );
    });
  });

  describe('meshTenant v4 / v4-preview', () => {
    it('creates a tenant by platformRef and reads it by uuid and by its full identifier', async () => {
      const s = await createStructure(ctx.client, 'ten');
      const lz1 = unique('lz');
      await createLandingZone(ctx.client, lz1, s.platformUuid);
      const body = tenantBody(s.workspace, s.project, s.platformUuid, {
        metadata: { customNote: 'kept' },
        spec: { landingZoneIdentifier: lz1, futureField: { x: [1] } },
      });
      const created = await ctx.client.post(PATHS.tenants, body, { headers: io(TENANT) });
      assert.equal(created.status, 201, created.text);
      const tenant = created.json;
      const uuid = tenant.metadata.uuid;
      const identifier = `${s.workspace}.${s.project}.${s.platform}.${s.location}`;
      assert.equal(tenant.kind, 'meshTenant');
      assert.equal(tenant.apiVersion, 'v4');
      assert.equal(typeof uuid, 'string');
      assert.equal(tenant.metadata.ownedByWorkspace, s.workspace);
      assert.equal(tenant.metadata.ownedByProject, s.project);
      assert.equal(tenant.metadata.customNote, 'kept');
      assert.match(tenant.metadata.createdOn, ISO);
      assert.deepEqual(tenant.spec.platformRef, { kind: 'meshPlatform', uuid: s.platformUuid });
      assert.equal(tenant.spec.platformIdentifier, `${s.platform}.${s.location}`);
      assert.equal(tenant.spec.landingZoneIdentifier, lz1);
      assert.deepEqual(tenant.spec.futureField, { x: [1] });
      assert.equal(typeof tenant.spec.platformTenantId, 'string');
      assert.ok(tenant.spec.platformTenantId.length > 0, 'a platformTenantId is generated');
      assert.equal(tenant.status.tenantName, identifier);
      assert.equal(tenant.status.platformTypeIdentifier, 'CUSTOM');
      assert.deepEqual(tenant.status.tags, {});
      assert.equal(tenant.status.lifecycle.state, 'ACTIVE');
      assert.equal(linkPath(tenant._links.self.href), `${PATHS.tenants}/${uuid}`);
      assert.equal(created.headers.location, tenant._links.self.href);
      assert.equal(linkPath(tenant._links.meshproject.href), `${PATHS.projects}/${s.workspace}.${s.project}`);
      assert.equal(linkPath(tenant._links.meshplatform.href), `${PATHS.platforms}/${s.platformUuid}`);

      const byUuid = await get(ctx.client, `${PATHS.tenants}/${uuid}`, TENANT);
      assert.equal(byUuid.status, 200, byUuid.text);
      assert.deepEqual(byUuid.json, tenant);
      const byIdentifier = await get(ctx.client, `${PATHS.tenants}/${identifier}`, TENANT);
      assert.equal(byIdentifier.status, 200, byIdentifier.text);
      assert.equal(byIdentifier.json.metadata.uuid, uuid);
      assert.equal(byIdentifier.json.status.tenantName, identifier);
      assertError(await get(ctx.client, `${PATHS.tenants}/${s.workspace}.${s.project}.${s.platform}.${unique('nowhere')}`, TENANT), 404);
      assertError(await get(ctx.client, `${PATHS.tenants}/${randomUUID()}`, TENANT), 404);
    });

    it('accepts spec.platformIdentifier (v4-preview and v4), both forms when they agree, 400 for neither or a disagreement', async () => {
      const s = await createStructure(ctx.client, 'tform');
      const otherUuid = await createPlatform(ctx.client, s.workspace, unique('plf'), s.location);
      const p2 = unique('prj');
      const p3 = unique('prj');
      const p4 = unique('prj');
      for (const p of [p2, p3, p4]) await createProject(ctx.client, s.workspace, p);
      const identifier = `${s.platform}.${s.location}`;
      const lz = unique('lz');
      await createLandingZone(ctx.client, lz, s.platformUuid);

      const preview = await ctx.client.post(
        PATHS.tenants,
        {
          apiVersion: 'v4-preview',
          kind: 'meshTenant',
          metadata: { ownedByWorkspace: s.workspace, ownedByProject: s.project },
          spec: { platformIdentifier: identifier, landingZoneIdentifier: lz },
        },
        { headers: io(TENANT_PREVIEW) },
      );
      assert.equal(preview.status, 201, preview.text);
      assert.equal(preview.json.apiVersion, 'v4-preview');
      assert.equal(preview.json.spec.platformIdentifier, identifier);
      assert.equal(preview.json.spec.platformRef.uuid, s.platformUuid);

      const v4ById = await ctx.client.post(
        PATHS.tenants,
        {
          apiVersion: 'v4',
          kind: 'meshTenant',
          metadata: { ownedByWorkspace: s.workspace, ownedByProject: p2 },
          spec: { platformIdentifier: identifier },
        },
        { headers: io(TENANT) },
      );
      assert.equal(v4ById.status, 201, v4ById.text);
      assert.equal(v4ById.json.spec.platformRef.uuid, s.platformUuid);

      const both = await ctx.client.post(
        PATHS.tenants,
        tenantBody(s.workspace, p3, s.platformUuid, { spec: { platformIdentifier: identifier } }),
        { headers: io(TENANT) },
      );
      assert.equal(both.status, 201, both.text);

      assertError(
        await ctx.client.post(PATHS.tenants, tenantBody(s.workspace, p4, otherUuid, { spec: { platformIdentifier: identifier } }), {
          headers: io(TENANT),
        }),
        400,
        /platform/i,
      );
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          {
            apiVersion: 'v4',
            kind: 'meshTenant',
            metadata: { ownedByWorkspace: s.workspace, ownedByProject: p4 },
            spec: { landingZoneIdentifier: 'lz' },
          },
          { headers: io(TENANT) },
        ),
        400,
        /platform/i,
      );
      assert.deepEqual(
        await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&projectIdentifier=${p4}`),
        [],
        'refused tenants are not stored',
      );
    });

    it('refuses a second tenant for the same project and platform (409), by either platform form', async () => {
      const s = await createStructure(ctx.client, 'tdup');
      await createTenant(ctx.client, s.workspace, s.project, s.platformUuid);
      assertError(await ctx.client.post(PATHS.tenants, tenantBody(s.workspace, s.project, s.platformUuid), { headers: io(TENANT) }), 409);
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          {
            apiVersion: 'v4',
            kind: 'meshTenant',
            metadata: { ownedByWorkspace: s.workspace, ownedByProject: s.project },
            spec: { platformIdentifier: `${s.platform}.${s.location}` },
          },
          { headers: io(TENANT) },
        ),
        409,
      );
      assert.equal((await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}`)).length, 1);
    });

    it('refuses unknown workspace, project and platform references with 422 naming them', async () => {
      const s = await createStructure(ctx.client, 'tref');
      const missingWs = unique('nows');
      const missingProject = unique('noprj');
      const missingPlatform = randomUUID();
      const missingIdentifier = `${unique('noplf')}.${s.location}`;
      assertError(
        await ctx.client.post(PATHS.tenants, tenantBody(missingWs, s.project, s.platformUuid), { headers: io(TENANT) }),
        422,
        names(missingWs, 'ownedByWorkspace'),
      );
      assertError(
        await ctx.client.post(PATHS.tenants, tenantBody(s.workspace, missingProject, s.platformUuid), { headers: io(TENANT) }),
        422,
        names(missingProject, 'ownedByProject'),
      );
      assertError(
        await ctx.client.post(PATHS.tenants, tenantBody(s.workspace, s.project, missingPlatform), { headers: io(TENANT) }),
        422,
        names(missingPlatform, 'platformRef'),
      );
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          {
            apiVersion: 'v4',
            kind: 'meshTenant',
            metadata: { ownedByWorkspace: s.workspace, ownedByProject: s.project },
            spec: { platformIdentifier: missingIdentifier },
          },
          { headers: io(TENANT) },
        ),
        422,
        names(missingIdentifier, 'platformIdentifier'),
      );
    });

    it('filters tenants by workspaceIdentifier, projectIdentifier, platformIdentifier; 400 for a bad deletionState', async () => {
      const s = await createStructure(ctx.client, 'tfil');
      const p2Name = unique('plf');
      const p2 = await createPlatform(ctx.client, s.workspace, p2Name, s.location);
      const project2 = unique('prj');
      await createProject(ctx.client, s.workspace, project2);
      const t1 = (await createTenant(ctx.client, s.workspace, s.project, s.platformUuid)).metadata.uuid;
      const t2 = (await createTenant(ctx.client, s.workspace, s.project, p2)).metadata.uuid;
      const t3 = (await createTenant(ctx.client, s.workspace, project2, s.platformUuid)).metadata.uuid;
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}`), [t1, t2, t3]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&projectIdentifier=${s.project}`), [t1, t2]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&projectIdentifier=${project2}`), [t3]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&platformIdentifier=${p2Name}.${s.location}`), [
        t2,
      ]);
      assert.deepEqual(await tenantUuids(ctx.client, `platformIdentifier=${s.platform}.${s.location}`), [t1, t3]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=ACTIVE`), [t1, t2, t3]);
      assertError(
        await get(ctx.client, `${PATHS.tenants}?workspaceIdentifier=${s.workspace}&deletionState=GONE`, TENANT),
        400,
        /deletionState/,
      );
    });

    it('deletes a tenant at once (DELETED, hidden by default), allows a new one, purges only for admins', async () => {
      const s = await createStructure(ctx.client, 'tdel');
      const identifier = `${s.workspace}.${s.project}.${s.platform}.${s.location}`;
      const first = (await createTenant(ctx.client, s.workspace, s.project, s.platformUuid)).metadata.uuid;
      const deleted = await ctx.client.delete(`${PATHS.tenants}/${first}`);
      assert.equal(deleted.status, 202, deleted.text);
      const gone = await get(ctx.client, `${PATHS.tenants}/${first}`, TENANT);
      assert.equal(gone.status, 200, gone.text);
      assert.equal(gone.json.status.lifecycle.state, 'DELETED');
      assert.match(gone.json.metadata.deletedOn, ISO);
      assertError(await get(ctx.client, `${PATHS.tenants}/${identifier}`, TENANT), 404);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}`), []);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=ACTIVE`), []);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=DELETED`), [first]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=ALL`), [first]);
      assert.equal((await ctx.client.delete(`${PATHS.tenants}/${first}`)).status, 202, 'a repeated DELETE answers 202');

      const second = (await createTenant(ctx.client, s.workspace, s.project, s.platformUuid)).metadata.uuid;
      assert.notEqual(second, first);
      assert.equal(
        (await get(ctx.client, `${PATHS.tenants}/${identifier}`, TENANT)).json.metadata.uuid,
        second,
        'the identifier resolves the non-deleted tenant',
      );
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}`), [second]);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=ALL`), [first, second]);

      const member = await clientWithKey(ctx.client, s.workspace, ['TENANT_LIST', 'TENANT_SAVE', 'TENANT_DELETE']);
      assertError(await member.client.delete(`${PATHS.tenants}/${first}?purge=true`), 403);
      assert.equal((await get(ctx.client, `${PATHS.tenants}/${first}`, TENANT)).status, 200, 'a refused purge keeps the tenant');
      const purged = await ctx.client.delete(`${PATHS.tenants}/${first}?purge=true`);
      assert.ok(purged.status >= 200 && purged.status < 300, `purge by an admin: ${purged.status} ${purged.text}`);
      assertError(await get(ctx.client, `${PATHS.tenants}/${first}`, TENANT), 404);
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${s.workspace}&deletionState=ALL`), [second]);
      assert.equal((await member.client.delete(`${PATHS.tenants}/${second}`)).status, 202, 'TENANT_DELETE suffices for a plain delete');
    });

    it('filters tenants by platformTypeIdentifier, landingZoneIdentifier, platformTenantId and state (repeatable); state=DELETED returns only deleted ones', async () => {
      const s = await createStructure(ctx.client, 'tf2');
      const azureName = unique('az');
      const azure = await createPlatform(ctx.client, s.workspace, azureName, s.location, {
        spec: { config: { type: 'azure', azure: { entraTenant: 't' } } },
      });
      const [p2, p3] = [unique('prj'), unique('prj')];
      await createProject(ctx.client, s.workspace, p2);
      await createProject(ctx.client, s.workspace, p3);
      const [lzDev, lzProd, lzGone] = [unique('lz-dev'), unique('lz-prod'), unique('lz-gone')];
      await createLandingZone(ctx.client, lzDev, s.platformUuid);
      await createLandingZone(ctx.client, lzProd, azure);
      await createLandingZone(ctx.client, lzGone, azure);
      const t1 = (
        await createTenant(ctx.client, s.workspace, s.project, s.platformUuid, {
          spec: { landingZoneRef: { kind: 'meshLandingZone', name: lzDev } },
        })
      ).metadata.uuid;
      const t2 = (
        await createTenant(ctx.client, s.workspace, s.project, azure, {
          spec: { landingZoneIdentifier: lzProd, platformTenantId: `sub-${s.workspace}` },
        })
      ).metadata.uuid;
      const t3 = (await createTenant(ctx.client, s.workspace, p2, azure)).metadata.uuid;
      const gone = (await createTenant(ctx.client, s.workspace, p3, azure, { spec: { landingZoneIdentifier: lzGone } })).metadata.uuid;
      assert.equal((await ctx.client.delete(`${PATHS.tenants}/${gone}`)).status, 202);
      const ws = `workspaceIdentifier=${s.workspace}`;

      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&platformTypeIdentifier=AZURE`), [t2, t3]);
      assert.deepEqual(
        await tenantUuids(ctx.client, `${ws}&platformTypeIdentifier=custom`),
        [t1],
        'case-insensitive, like the platform list',
      );
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&platformTypeIdentifier=AWS`), []);
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&landingZoneIdentifier=${lzDev}`), [t1], 'by landingZoneRef.name too');
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&landingZoneIdentifier=${lzProd}`), [t2]);
      assert.deepEqual(
        await tenantUuids(ctx.client, `${ws}&landingZoneIdentifier=${lzGone}`),
        [],
        'deleted tenants are not listed by default',
      );
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&landingZoneIdentifier=lz-none`), []);
      assert.deepEqual(await tenantUuids(ctx.client, `platformTenantId=sub-${s.workspace}`), [t2]);
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&platformTenantId=${s.workspace}-${p2}`), [t3], 'the generated id');

      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=DELETED`), [gone], 'state=DELETED: the deleted ones only');
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=ACTIVE`), [t1, t2, t3]);
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=ACTIVE&state=DELETED`), [t1, t2, t3, gone]);
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=MARKED_FOR_DELETION`), [], 'deletion is immediate: never marked');
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=MARKED_FOR_DELETION&state=DELETED`), [gone]);
      assert.deepEqual(
        await tenantUuids(ctx.client, `${ws}&state=DELETED&landingZoneIdentifier=${lzGone}`),
        [gone],
        'AND with the other filters',
      );
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=DELETED&landingZoneIdentifier=${lzDev}`), []);
      assert.deepEqual(await tenantUuids(ctx.client, `${ws}&state=DELETED&deletionState=ALL`), [gone], 'both given: in both');
      assertError(await get(ctx.client, `${PATHS.tenants}?${ws}&state=GONE`, TENANT), 400, /^state:/);
      assertError(await get(ctx.client, `${PATHS.tenants}?${ws}&state=ACTIVE&state=deleted`, TENANT), 400, /^state:/);
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          tenantBody(s.workspace, p2, s.platformUuid, {
            spec: { landingZoneRef: { kind: 'meshLandingZone', name: 'a' }, landingZoneIdentifier: 'b' },
          }),
          { headers: io(TENANT) },
        ),
        400,
        /landingZone/,
      );
    });

    it('answers v4-preview with spec.quotas ([] when none) and spec.landingZoneIdentifier ("" when none)', async () => {
      const s = await createStructure(ctx.client, 'tq');
      const p2 = unique('prj');
      const p3 = unique('prj');
      await createProject(ctx.client, s.workspace, p2);
      await createProject(ctx.client, s.workspace, p3);
      const plain = (await createTenant(ctx.client, s.workspace, s.project, s.platformUuid)).metadata.uuid;
      const preview = await get(ctx.client, `${PATHS.tenants}/${plain}`, TENANT_PREVIEW);
      assert.equal(preview.status, 200, preview.text);
      assert.deepEqual(preview.json.spec.quotas, []);
      assert.equal(preview.json.spec.landingZoneIdentifier, '');
      const quotas = [
        { key: 'limits.cpu', value: 2000 },
        { key: 'limits.memory', value: 10000 },
      ];
      const lz = unique('lz');
      await createLandingZone(ctx.client, lz, s.platformUuid);
      const sent = await ctx.client.post(
        PATHS.tenants,
        {
          apiVersion: 'v4-preview',
          kind: 'meshTenant',
          metadata: { ownedByWorkspace: s.workspace, ownedByProject: p2 },
          spec: { platformIdentifier: `${s.platform}.${s.location}`, landingZoneIdentifier: lz, quotas },
        },
        { headers: io(TENANT_PREVIEW) },
      );
      assert.equal(sent.status, 201, sent.text);
      assert.deepEqual(sent.json.spec.quotas, quotas);
      const requested = await createTenant(ctx.client, s.workspace, p3, s.platformUuid, {
        spec: { requestedQuotas: { 'limits.cpu': { value: 4 } } },
      });
      assert.deepEqual(requested.spec.requestedQuotas, { 'limits.cpu': { value: 4 } }, 'v4 echoes what it was sent');
      const asPreview = await get(ctx.client, `${PATHS.tenants}/${requested.metadata.uuid}`, TENANT_PREVIEW);
      assert.deepEqual(asPreview.json.spec.quotas, [{ key: 'limits.cpu', value: 4 }]);
      const list = await get(ctx.client, `${PATHS.tenants}?workspaceIdentifier=${s.workspace}`, TENANT_PREVIEW);
      assert.ok(
        list.json._embedded.meshTenants.every(
          (t: Json) => Array.isArray(t.spec.quotas) && typeof t.spec.landingZoneIdentifier === 'string',
        ),
        list.text,
      );
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          tenantBody(s.workspace, unique('prj'), s.platformUuid, { spec: { quotas: [{ key: 'cpu', value: 'lots' }] } }),
          { headers: io(TENANT) },
        ),
        400,
        /spec\.quotas/,
      );
    });

    it('serves v3 as deprecated: POST with metadata.platformIdentifier and spec.localId, list, GET by full identifier; one tenant in every version', async () => {
      const s = await createStructure(ctx.client, 'tv3');
      const V3 = media('meshtenant', 'v3');
      const identifier = `${s.workspace}.${s.project}.${s.platform}.${s.location}`;
      const stageDev = unique('stage-dev');
      await createLandingZone(ctx.client, stageDev, s.platformUuid);
      const body = {
        apiVersion: 'v3',
        kind: 'meshTenant',
        metadata: { ownedByWorkspace: s.workspace, ownedByProject: s.project, platformIdentifier: `${s.platform}.${s.location}` },
        spec: { landingZoneIdentifier: stageDev, quotas: [{ key: 'limits.cpu', value: 2000 }], futureField: 'kept' },
      };
      const created = await ctx.client.post(PATHS.tenants, body, { headers: io(V3) });
      assert.equal(created.status, 201, created.text);
      assert.ok(created.headers.deprecation, 'Deprecation header');
      assert.match(created.headers.link ?? '', /rel="successor-version"; type="application\/vnd\.vendor\.api\.meshtenant\.v4\.hal\+json"/);
      const v3 = created.json;
      assert.equal(v3.apiVersion, 'v3');
      assert.equal(v3.metadata.tenantIdentifier, identifier);
      assert.equal(v3.metadata.platformIdentifier, `${s.platform}.${s.location}`);
      assert.deepEqual(v3.metadata.assignedTags, {});
      assert.equal(v3.metadata.uuid, undefined, 'v3 names tenants by identifier');
      assert.deepEqual(v3.spec, {
        landingZoneIdentifier: stageDev,
        quotas: [{ key: 'limits.cpu', value: 2000 }],
        futureField: 'kept',
        localId: `${s.workspace}-${s.project}`,
      });
      assert.equal(linkPath(v3._links.self.href), `${PATHS.tenants}/${identifier}`);
      assert.equal(created.headers.location, v3._links.self.href);

      const byIdentifier = await get(ctx.client, `${PATHS.tenants}/${identifier}`, V3);
      assert.equal(byIdentifier.status, 200, byIdentifier.text);
      assert.ok(byIdentifier.headers.deprecation);
      assert.deepEqual(byIdentifier.json, v3);
      const list = await get(ctx.client, `${PATHS.tenants}?workspaceIdentifier=${s.workspace}`, V3);
      assert.equal(list.status, 200, list.text);
      assert.ok(list.headers.deprecation);
      assert.deepEqual(list.json._embedded.meshTenants, [v3]);

      const v4 = await get(ctx.client, `${PATHS.tenants}/${identifier}`, TENANT);
      assert.equal(v4.json.spec.platformIdentifier, `${s.platform}.${s.location}`);
      assert.equal(v4.json.spec.landingZoneIdentifier, stageDev);
      assert.equal(v4.json.spec.localId, undefined, 'v4 shows localId as platformTenantId');
      assert.deepEqual(await tenantUuids(ctx.client, `${`workspaceIdentifier=${s.workspace}`}&landingZoneIdentifier=${stageDev}`), [
        v4.json.metadata.uuid,
      ]);

      // localId imports the tenant (needs the import permission, like platformTenantId).
      const p2 = unique('prj');
      await createProject(ctx.client, s.workspace, p2);
      const imported = await ctx.client.post(
        PATHS.tenants,
        { ...body, metadata: { ...body.metadata, ownedByProject: p2 }, spec: { localId: 'sub-42' } },
        { headers: io(V3) },
      );
      assert.equal(imported.status, 201, imported.text);
      assert.equal(imported.json.spec.localId, 'sub-42');
      assert.deepEqual(imported.json.spec.quotas, []);
      assert.equal(imported.json.spec.landingZoneIdentifier, '');
      const member = await clientWithKey(ctx.client, s.workspace, ['TENANT_LIST', 'TENANT_SAVE']);
      const p3 = unique('prj');
      await createProject(ctx.client, s.workspace, p3);
      assertError(
        await member.client.post(
          PATHS.tenants,
          { ...body, metadata: { ...body.metadata, ownedByProject: p3 }, spec: { localId: 'sub-43' } },
          { headers: io(V3) },
        ),
        403,
        /platformTenantId|TENANT_IMPORT/,
      );
      assertError(
        await ctx.client.post(
          PATHS.tenants,
          { ...body, metadata: { ownedByWorkspace: s.workspace, ownedByProject: p3 } },
          { headers: io(V3) },
        ),
        400,
        /metadata\.platformIdentifier/,
      );

      // A deleted tenant keeps answering by uuid; its v3 self link is that uuid (its name may be reused).
      const deleted = await ctx.client.delete(`${PATHS.tenants}/${identifier}`);
      assert.equal(deleted.status, 202, deleted.text);
      const deletedList = await get(
        ctx.client,
        `${PATHS.tenants}?workspaceIdentifier=${s.workspace}&projectIdentifier=${s.project}&deletionState=DELETED`,
        V3,
      );
      const [record] = deletedList.json._embedded.meshTenants;
      assert.match(record.metadata.deletedOn, ISO);
      assert.equal(linkPath(record._links.self.href), `${PATHS.tenants}/${v4.json.metadata.uuid}`);
      assert.equal((await get(ctx.client, record._links.self.href, V3)).status, 200);
    });

    it('needs ADM_TENANT_IMPORT, or MANAGED_TENANT_IMPORT on an own platform, to send platformTenantId', async () => {
      const s = await createStructure(ctx.client, 'timp');
      const foreignWs = unique('fws');
      await createWorkspace(ctx.client, foreignWs);
      const foreign = await createPlatform(ctx.client, foreignWs, unique('plf'), s.location);
      const plain = await clientWithKey(ctx.client, s.workspace, ['TENANT_LIST', 'TENANT_SAVE']);
      const managed = await clientWithKey(ctx.client, s.workspace, ['TENANT_LIST', 'TENANT_SAVE', 'MANAGED_TENANT_IMPORT']);
      const withId = (platform: string, id: string) => tenantBody(s.workspace, s.project, platform, { spec: { platformTenantId: id } });

      assertError(await plain.client.post(PATHS.tenants, withId(s.platformUuid, 'sub-1'), { headers: io(TENANT) }), 403);
      assertError(await managed.client.post(PATHS.tenants, withId(foreign, 'sub-2'), { headers: io(TENANT) }), 403);
      const own = await managed.client.post(PATHS.tenants, withId(s.platformUuid, 'sub-3'), { headers: io(TENANT) });
      assert.equal(own.status, 201, own.text);
      assert.equal(own.json.spec.platformTenantId, 'sub-3');
      const byAdmin = await ctx.client.post(PATHS.tenants, withId(foreign, 'sub-4'), { headers: io(TENANT) });
      assert.equal(byAdmin.status, 201, byAdmin.text);
      assert.equal(byAdmin.json.spec.platformTenantId, 'sub-4');
      const plainOk = await plain.client.post(
        PATHS.tenants,
        tenantBody(s.workspace, (await createProject(ctx.client, s.workspace, unique('prj'))).metadata.name, s.platformUuid),
        { headers: io(TENANT) },
      );
      assert.equal(plainOk.status, 201, `TENANT_SAVE suffices without platformTenantId: ${plainOk.text}`);
    });
  });

  describe('validation and isolation', () => {
    it('answers 400 naming the field for bad identifiers: upper case, dots, 256 characters, dashes at the ends, empty', async () => {
      const ws = unique('val');
      await createWorkspace(ctx.client, ws);
      const loc = unique('loc');
      await createLocation(ctx.client, loc);
      const bad = ['Upper', 'has.dot', 'a'.repeat(256), '-lead', 'trail-', 'under_score', 'sp ace', ''];
      for (const name of bad) {
        assertError(await ctx.client.post(PATHS.workspaces, workspaceBody(name), { headers: io(WORKSPACE) }), 400, /name/);
        assertError(await ctx.client.post(PATHS.projects, projectBody(ws, name), { headers: io(PROJECT) }), 400, /name/);
        assertError(await ctx.client.post(PATHS.locations, locationBody(name), { headers: io(LOCATION) }), 400, /name/);
        assertError(await ctx.client.post(PATHS.platforms, platformBody(ws, name, loc), { headers: io(PLATFORM) }), 400, /name/);
      }
      const longest = `${unique('l')}${'a'.repeat(255)}`.slice(0, 255);
      await createWorkspace(ctx.client, longest, { spec: { displayName: 'Longest' } });
      await createProject(ctx.client, ws, longest, { spec: { displayName: 'Longest' } });
      await createLocation(ctx.client, longest, { spec: { displayName: 'Longest' } });
      await createPlatform(ctx.client, ws, longest, loc, { spec: { displayName: 'Longest' } });
      // What can be created with a 255-character identifier can also be read by it.
      assert.equal(
        (await get(ctx.client, `${PATHS.workspaces}/${longest}`, WORKSPACE)).status,
        200,
        'GET of a workspace with a 255-character name',
      );
      assert.equal(
        (await get(ctx.client, `${PATHS.projects}/${ws}.${longest}`, PROJECT)).status,
        200,
        'GET of a project with a 255-character name',
      );
      assert.equal(
        (await get(ctx.client, `${PATHS.locations}/${longest}`, LOCATION)).status,
        200,
        'GET of a location with a 255-character name',
      );
    });

    it('answers 400 naming tags whose values are not arrays of strings', async () => {
      const ws = unique('tags');
      await createWorkspace(ctx.client, ws);
      for (const tags of [{ env: 'dev' }, { env: [1] }, { env: ['dev', 2] }, { env: { value: 'dev' } }, 'env=dev', ['dev']]) {
        assertError(
          await ctx.client.post(PATHS.workspaces, workspaceBody(unique('t'), { metadata: { tags } }), { headers: io(WORKSPACE) }),
          400,
          /tags/,
        );
        assertError(
          await ctx.client.post(PATHS.projects, projectBody(ws, unique('t'), { spec: { tags } }), { headers: io(PROJECT) }),
          400,
          /tags/,
        );
      }
      assertError(
        await ctx.client.put(`${PATHS.workspaces}/${ws}`, workspaceBody(ws, { metadata: { tags: { env: 'dev' } } }), {
          headers: io(WORKSPACE),
        }),
        400,
        /tags/,
      );
    });

    it('answers 404 for unknown workspaces, projects, locations, platforms and tenants', async () => {
      const missing = unique('missing');
      assertError(await get(ctx.client, `${PATHS.workspaces}/${missing}`, WORKSPACE), 404);
      assertError(await get(ctx.client, `${PATHS.projects}/admin.${missing}`, PROJECT), 404);
      assertError(await get(ctx.client, `${PATHS.locations}/${missing}`, LOCATION), 404);
      assertError(await get(ctx.client, `${PATHS.platforms}/${randomUUID()}`, PLATFORM), 404);
      assertError(await get(ctx.client, `${PATHS.platforms}/not-a-uuid`, PLATFORM), 404);
      assertError(await get(ctx.client, `${PATHS.tenants}/${randomUUID()}`, TENANT), 404);
      assertError(await get(ctx.client, `${PATHS.tenants}/not-a-tenant`, TENANT), 404);
    });

    it('isolates workspaces: a key of A neither sees, lists nor writes the projects and tenants of B', async () => {
      const a = await createStructure(ctx.client, 'isa');
      const b = await createStructure(ctx.client, 'isb');
      const tenantB = (await createTenant(ctx.client, b.workspace, b.project, b.platformUuid)).metadata.uuid;
      const identifierB = `${b.workspace}.${b.project}.${b.platform}.${b.location}`;
      const key = await clientWithKey(ctx.client, a.workspace, [
        'WORKSPACE_LIST',
        'PROJECT_LIST',
        'PROJECT_SAVE',
        'PROJECT_DELETE',
        'TENANT_LIST',
        'TENANT_SAVE',
        'TENANT_DELETE',
      ]);

      // What A may do, so the refusals below are about B and not about missing permissions.
      const ownProject = await key.client.post(PATHS.projects, projectBody(a.workspace, unique('prj')), { headers: io(PROJECT) });
      assert.equal(ownProject.status, 201, ownProject.text);
      const ownTenant = await key.client.post(PATHS.tenants, tenantBody(a.workspace, a.project, a.platformUuid), { headers: io(TENANT) });
      assert.equal(ownTenant.status, 201, ownTenant.text);

      assertError(await get(key.client, `${PATHS.workspaces}/${b.workspace}`, WORKSPACE), 404);
      assertError(await get(key.client, `${PATHS.projects}/${b.workspace}.${b.project}`, PROJECT), 404);
      assertError(await get(key.client, `${PATHS.tenants}/${tenantB}`, TENANT), 404);
      assertError(await get(key.client, `${PATHS.tenants}/${identifierB}`, TENANT), 404);

      const projects = await projectNames(key.client, '');
      assert.ok(projects.includes(`${a.workspace}.${a.project}`), 'own projects are listed');
      assert.ok(
        projects.every((p) => p.startsWith(`${a.workspace}.`)),
        `only A's projects: ${projects.join(',')}`,
      );
      assert.deepEqual(await projectNames(key.client, `workspaceIdentifier=${b.workspace}`), []);
      const tenants = await tenantUuids(key.client, '');
      assert.ok(tenants.includes(ownTenant.json.metadata.uuid));
      assert.ok(!tenants.includes(tenantB), "B's tenant is not listed");
      assert.deepEqual(await tenantUuids(key.client, `workspaceIdentifier=${b.workspace}`), []);

      assertError(await key.client.post(PATHS.projects, projectBody(b.workspace, unique('prj')), { headers: io(PROJECT) }), 403);
      const project2 = unique('prj');
      await createProject(ctx.client, b.workspace, project2);
      assertError(await key.client.post(PATHS.tenants, tenantBody(b.workspace, project2, b.platformUuid), { headers: io(TENANT) }), 403);
      const put = await key.client.put(
        `${PATHS.projects}/${b.workspace}.${b.project}`,
        projectBody(b.workspace, b.project, { spec: { displayName: 'hijacked' } }),
        { headers: io(PROJECT) },
      );
      assert.ok([403, 404].includes(put.status), `PUT of B's project: ${put.status} ${put.text}`);
      const deleteProject = await key.client.delete(`${PATHS.projects}/${b.workspace}.${project2}`);
      assert.ok([403, 404].includes(deleteProject.status), `DELETE of B's project: ${deleteProject.status}`);
      const deleteTenant = await key.client.delete(`${PATHS.tenants}/${tenantB}`);
      assert.ok([403, 404].includes(deleteTenant.status), `DELETE of B's tenant: ${deleteTenant.status}`);

      assert.equal(
        (await get(ctx.client, `${PATHS.projects}/${b.workspace}.${b.project}`, PROJECT)).json.spec.displayName,
        `Project ${b.project}`,
      );
      assert.equal((await get(ctx.client, `${PATHS.projects}/${b.workspace}.${project2}`, PROJECT)).status, 200);
      assert.equal((await get(ctx.client, `${PATHS.tenants}/${tenantB}`, TENANT)).json.status.lifecycle.state, 'ACTIVE');
      assert.deepEqual(await tenantUuids(ctx.client, `workspaceIdentifier=${b.workspace}`), [tenantB]);
    });
  });
});
