/**
 * The platform catalogue: payment methods and tag definitions, black-box on both
 * databases — each operation, its 4xx paths, workspace isolation, the projects' references to
 * payment methods and the enforcement of tag definitions on the kinds that carry tags.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { media, type ApiClient, type Response } from './support/client.js';
import {
  createDefinition,
  firstVersionUuid,
  implementationOf,
  putVersion,
  SHARED_TERRAFORM_RUNNER,
  versionSpec,
} from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { RUNNER, runnerBody, RUNNERS } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { readFileSync } from 'node:fs';
import {
  createLandingZone,
  createLocation,
  createPlatform,
  createProject,
  createTenant,
  createWorkspace,
  io,
  landingZoneBody,
  PATHS,
  PLATFORM,
  platformBody,
  PROJECT,
  projectBody,
  TENANT,
  tenantBody,
  unique,
  WORKSPACE,
  workspaceBody,
  type Json,
} from './support/structure.js';

const PAYMENT = media('meshpaymentmethod', 'v2');
const TAGDEF = media('meshtagdefinition', 'v1');
const PAYMENT_PATH = '/api/meshobjects/meshpaymentmethods';
const TAGDEF_PATH = '/api/meshobjects/meshtagdefinitions';
const TYPE = media('meshplatformtype', 'v1');
const TYPE_PREVIEW = media('meshplatformtype', 'v1-preview');
const TYPE_PATH = '/api/meshobjects/meshplatformtypes';

const ZONE = media('meshlandingzone', 'v1');
const ZONE_PREVIEW = media('meshlandingzone', 'v1-preview');
const ZONE_PATH = '/api/meshobjects/meshlandingzones';
const OPENAPI = JSON.parse(readFileSync(new URL('./reference/original-openapi.json', import.meta.url), 'utf8')) as Json;
/** The vendor's request examples of an operation of the published OpenAPI. */
const vendorExamples = (path: string, method: string): Json[] =>
  Object.values(OPENAPI.paths[path][method].requestBody.content as Record<string, { examples: Record<string, { value: Json }> }>).flatMap(
    (content) => Object.values(content.examples).map((example) => example.value),
  );

const typeBody = (name: string, spec: Json = {}, apiVersion = 'v1'): Json => ({
  apiVersion,
  kind: 'meshPlatformType',
  metadata: { name },
  spec: {
    displayName: `Type ${name}`,
    category: 'CUSTOM',
    defaultEndpoint: 'https://platform.example.com',
    icon: 'data:image/png;base64,iVBORw0KGgo...',
    ...spec,
  },
});

function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

const paymentBody = (workspace: string, name: string, spec: Json = {}): Json => ({
  apiVersion: 'v2',
  kind: 'meshPaymentMethod',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: `Payment ${name}`, tags: {}, ...spec },
});

const tagBody = (targetKind: string, key: string, valueType: Json, flags: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'meshTagDefinition',
  metadata: { name: `${targetKind}.${key}` },
  spec: {
    targetKind,
    key,
    valueType,
    description: `The ${key}`,
    displayName: `Tag ${key}`,
    sortOrder: 1,
    mandatory: false,
    immutable: false,
    restricted: false,
    ...flags,
  },
});

const post = (client: ApiClient, path: string, type: string, body: Json) => client.post(path, body, { headers: io(type) });
const put = (client: ApiClient, path: string, type: string, body: Json) => client.put(path, body, { headers: io(type) });
const get = (client: ApiClient, path: string, type: string) => client.get(path, { headers: { accept: type } });

async function createPaymentMethod(client: ApiClient, workspace: string, name: string, spec: Json = {}): Promise<Json> {
  const response = await post(client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, name, spec));
  assert.equal(response.status, 201, response.text);
  return response.json;
}

const names = async (client: ApiClient, path: string, type: string, embedded: string, query = '') => {
  const response = await get(client, `${path}?size=350${query}`, type);
  assert.equal(response.status, 200, response.text);
  return (response.json._embedded[embedded] as Json[]).map((item) => item.metadata.name as string);
};

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describeEachDatabase('the platform catalogue', (ctx) => {
  const eventTitles = async (): Promise<string[]> =>
    (await ctx.server.server.database.db.selectFrom('events').select('title').execute()).map((row) => row.title);

  describe('meshPaymentMethod v2', () => {
    it('creates (the vendor example), reads, lists, replaces (upsert) and soft-deletes a payment method, with its events', async () => {
      const workspace = unique('pay');
      await createWorkspace(ctx.client, workspace);
      const name = unique('pm');
      const created = await post(ctx.client, PAYMENT_PATH, PAYMENT, {
        apiVersion: 'v2',
        kind: 'meshPaymentMethod',
        metadata: { name, ownedByWorkspace: workspace },
        spec: { displayName: 'New Payment Method', amount: 1000, expirationDate: '2099-12-31', tags: {} },
      });
      assert.equal(created.status, 201, created.text);
      assert.match(created.headers['content-type']!, /meshpaymentmethod\.v2\.hal\+json/);
      assert.equal(created.headers.location, `${ctx.server.url}${PAYMENT_PATH}/${name}`);
      assert.deepEqual(created.json.spec, { displayName: 'New Payment Method', amount: 1000, expirationDate: '2099-12-31', tags: {} });
      assert.equal(created.json._links.meshprojects.href, `${ctx.server.url}/api/meshobjects/meshprojects?paymentIdentifier=${name}`);

      assert.equal((await get(ctx.client, `${PAYMENT_PATH}/${name}`, PAYMENT)).json.spec.amount, 1000);
      assert.deepEqual(await names(ctx.client, PAYMENT_PATH, PAYMENT, 'meshPaymentMethods', `&workspaceIdentifier=${workspace}`), [name]);

      const replaced = await put(
        ctx.client,
        `${PAYMENT_PATH}/${name}`,
        PAYMENT,
        paymentBody(workspace, name, { displayName: 'Updated Payment Method', amount: 1500, expirationDate: '2099-01-31' }),
      );
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.json.spec.displayName, 'Updated Payment Method');
      const upserted = unique('pm-new');
      assert.equal(
        (await put(ctx.client, `${PAYMENT_PATH}/${upserted}`, PAYMENT, paymentBody(workspace, upserted))).status,
        200,
        'PUT creates an unknown one',
      );

      assert.equal((await ctx.client.delete(`${PAYMENT_PATH}/${name}`)).status, 204);
      assert.equal((await get(ctx.client, `${PAYMENT_PATH}/${name}`, PAYMENT)).status, 200, 'a deleted payment method is still readable');
      assert.deepEqual(
        await names(ctx.client, PAYMENT_PATH, PAYMENT, 'meshPaymentMethods', `&workspaceIdentifier=${workspace}`),
        [upserted],
        'but not listed',
      );
      const titles = await eventTitles();
      for (const title of ['Payment Method Created', 'Payment Method Changed', 'Payment Method Deleted'])
        assert.ok(titles.includes(title), title);
    });

    it('refuses bad input, unknown workspaces, non-admins, wrong media types and retired v1, storing nothing', async () => {
      const workspace = unique('pay');
      await createWorkspace(ctx.client, workspace);
      assertError(await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, 'Not A Name')), 400, /^metadata\.name/);
      assertError(
        await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, unique('pm'), { expirationDate: '2025-02-30' })),
        400,
        /^spec\.expirationDate/,
      );
      assertError(
        await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, unique('pm'), { displayName: '' })),
        400,
        /^spec\.displayName/,
      );
      const ghost = unique('pm');
      assertError(
        await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(unique('no-such-ws'), ghost)),
        422,
        /metadata\.ownedByWorkspace/,
      );
      assertError(await get(ctx.client, `${PAYMENT_PATH}/${ghost}`, PAYMENT), 404);
      const name = unique('pm');
      await createPaymentMethod(ctx.client, workspace, name);
      assertError(await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, name)), 409, /already exists/);
      assertError(
        await put(ctx.client, `${PAYMENT_PATH}/${unique('other')}`, PAYMENT, paymentBody(workspace, name)),
        400,
        /^metadata\.name/,
      );
      const other = unique('pay');
      await createWorkspace(ctx.client, other);
      assertError(await put(ctx.client, `${PAYMENT_PATH}/${name}`, PAYMENT, paymentBody(other, name)), 400, /^metadata\.ownedByWorkspace/);
      assertError(
        await ctx.client.post(PAYMENT_PATH, paymentBody(workspace, unique('pm')), {
          headers: { accept: PAYMENT, 'content-type': 'application/json' },
        }),
        415,
      );
      assertError(
        await get(ctx.client, `${PAYMENT_PATH}/${name}`, media('meshpaymentmethod', 'v1')),
        406,
        /retired on 2025-07-01; use meshPaymentMethod\.v2/,
      );

      const { client: lister } = await clientWithKey(ctx.client, workspace, ['PAYMENTMETHOD_LIST', 'PROJECT_SAVE']);
      assertError(await post(lister, PAYMENT_PATH, PAYMENT, paymentBody(workspace, unique('pm'))), 403);
      assertError(await put(lister, `${PAYMENT_PATH}/${name}`, PAYMENT, paymentBody(workspace, name)), 403);
      assertError(await lister.delete(`${PAYMENT_PATH}/${name}`), 403);
      const { client: nobody } = await clientWithKey(ctx.client, workspace, ['PROJECT_LIST']);
      assertError(await get(nobody, PAYMENT_PATH, PAYMENT), 403);
    });

    it('isolates workspaces: another workspace’s method is invisible (404) and its filter is ignored', async () => {
      const [a, b] = [unique('pay-a'), unique('pay-b')];
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const [pmA, pmB] = [unique('pm-a'), unique('pm-b')];
      await createPaymentMethod(ctx.client, a, pmA);
      await createPaymentMethod(ctx.client, b, pmB);
      const { client: keyB } = await clientWithKey(ctx.client, b, ['PAYMENTMETHOD_LIST']);
      assertError(await get(keyB, `${PAYMENT_PATH}/${pmA}`, PAYMENT), 404, /not found/);
      assert.equal((await get(keyB, `${PAYMENT_PATH}/${pmB}`, PAYMENT)).status, 200);
      assert.deepEqual(await names(keyB, PAYMENT_PATH, PAYMENT, 'meshPaymentMethods'), [pmB]);
      assert.deepEqual(
        await names(keyB, PAYMENT_PATH, PAYMENT, 'meshPaymentMethods', `&workspaceIdentifier=${a}`),
        [pmB],
        'the filter is ignored for a workspace-scoped key (OpenAPI)',
      );
      const { client: admin } = await clientWithKey(ctx.client, b, ['ADM_PAYMENTMETHOD_DELETE']);
      assertError(await get(admin, `${PAYMENT_PATH}/${pmA}`, PAYMENT), 403, /PAYMENTMETHOD_LIST/);
    });

    it('holds projects to payment methods of their workspace; activePaymentMethod, the filter, expiry and deletion in use', async () => {
      const [a, b] = [unique('pay-a'), unique('pay-b')];
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const [pmA, pmB, expired, substitute] = [unique('pm-a'), unique('pm-b'), unique('pm-old'), unique('pm-sub')];
      await createPaymentMethod(ctx.client, a, pmA);
      await createPaymentMethod(ctx.client, b, pmB);
      await createPaymentMethod(ctx.client, a, expired, { expirationDate: isoDay(-2) });
      await createPaymentMethod(ctx.client, a, substitute);

      const project = unique('prj');
      assertError(
        await post(ctx.client, PATHS.projects, PROJECT, projectBody(a, project, { spec: { paymentMethodIdentifier: pmB } })),
        422,
        /^spec\.paymentMethodIdentifier: .*does not exist in meshWorkspace/,
      );
      assertError(
        await post(ctx.client, PATHS.projects, PROJECT, projectBody(a, project, { spec: { paymentMethodIdentifier: unique('none') } })),
        422,
        /^spec\.paymentMethodIdentifier/,
      );
      assertError(
        await post(
          ctx.client,
          PATHS.projects,
          PROJECT,
          projectBody(a, project, { spec: { paymentMethodIdentifier: pmA, substitutePaymentMethodIdentifier: pmB } }),
        ),
        422,
        /^spec\.substitutePaymentMethodIdentifier/,
      );
      assertError(
        await post(ctx.client, PATHS.projects, PROJECT, projectBody(a, project, { spec: { paymentMethodIdentifier: expired } })),
        422,
        /expired on/,
      );
      assertError(await get(ctx.client, `${PATHS.projects}/${a}.${project}`, PROJECT), 404, /not found/);

      const made = await createProject(ctx.client, a, project, {
        spec: { paymentMethodIdentifier: pmA, substitutePaymentMethodIdentifier: substitute },
      });
      assert.equal(made.spec.substitutePaymentMethodIdentifier, substitute);
      assert.equal(made._links.activePaymentMethod.href, `${ctx.server.url}${PAYMENT_PATH}/${pmA}`);
      const bare = unique('bare');
      const without = await createProject(ctx.client, a, bare);
      assert.equal(without._links.activePaymentMethod, undefined);
      assert.deepEqual(await names(ctx.client, PATHS.projects, PROJECT, 'meshProjects', `&paymentIdentifier=${pmA}`), [project]);
      assert.ok(
        (await names(ctx.client, PATHS.projects, PROJECT, 'meshProjects', `&workspaceIdentifier=${a}&paymentIdentifier=`)).includes(bare),
        'blank: ignored (COMPAT §4, README "OpenAPI conformance")',
      );

      // The payment method expires: the substitute pays (a PUT keeping the expired method is accepted).
      assert.equal(
        (await put(ctx.client, `${PAYMENT_PATH}/${pmA}`, PAYMENT, paymentBody(a, pmA, { expirationDate: isoDay(-1) }))).status,
        200,
      );
      assert.equal(
        (await get(ctx.client, `${PATHS.projects}/${a}.${project}`, PROJECT)).json._links.activePaymentMethod.href,
        `${ctx.server.url}${PAYMENT_PATH}/${substitute}`,
      );
      const kept = await put(
        ctx.client,
        `${PATHS.projects}/${a}.${project}`,
        PROJECT,
        projectBody(a, project, {
          spec: { displayName: 'Renamed', paymentMethodIdentifier: pmA, substitutePaymentMethodIdentifier: substitute },
        }),
      );
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.json._links.activePaymentMethod.href, `${ctx.server.url}${PAYMENT_PATH}/${substitute}`);

      // In use: 409, nothing changes; free again: 204.
      assertError(await ctx.client.delete(`${PAYMENT_PATH}/${substitute}`), 409, /still used by 1 meshProjects \(as substitute\)/);
      assert.equal(
        (await names(ctx.client, PAYMENT_PATH, PAYMENT, 'meshPaymentMethods', `&workspaceIdentifier=${a}`)).includes(substitute),
        true,
      );
      assert.equal(
        (
          await put(
            ctx.client,
            `${PATHS.projects}/${a}.${project}`,
            PROJECT,
            projectBody(a, project, { spec: { paymentMethodIdentifier: pmA } }),
          )
        ).status,
        200,
      );
      assert.equal((await ctx.client.delete(`${PAYMENT_PATH}/${substitute}`)).status, 204);
      assertError(
        await put(
          ctx.client,
          `${PATHS.projects}/${a}.${project}`,
          PROJECT,
          projectBody(a, project, { spec: { paymentMethodIdentifier: pmA, substitutePaymentMethodIdentifier: substitute } }),
        ),
        422,
        /substitutePaymentMethodIdentifier/,
      );
    });

    it('is imported (meshPaymentMethod v2) and keeps its workspace from being deleted while live', async () => {
      const workspace = unique('pay');
      await createWorkspace(ctx.client, workspace);
      const name = unique('pm');
      const imported = await ctx.client.put('/api/meshobjects', JSON.stringify([paymentBody(workspace, name)]), {
        headers: io('application/vnd.vendor.api.meshobjects.v1+json'),
      });
      assert.equal(imported.status, 200, imported.text);
      assert.equal(imported.json[0].status, 'SUCCESS', imported.text);
      assert.equal(imported.json[0].meshObject, `meshPaymentMethod[${name}]`);
      assertError(await ctx.client.delete(`${PATHS.workspaces}/${workspace}`), 409, /meshPaymentMethods/);
      assert.equal((await ctx.client.delete(`${PAYMENT_PATH}/${name}`)).status, 204);
      assert.equal((await ctx.client.delete(`${PATHS.workspaces}/${workspace}`)).status, 204);
    });
  });

  describe('meshTagDefinition v1', () => {
    it('creates (the vendor example), reads freely, lists, upserts (the vendor example with nulls) and deletes', async () => {
      const key = `environment${unique('k').replace(/-/g, '')}`;
      const body = tagBody(
        'meshProject',
        key,
        { singleSelect: { options: ['dev', 'test', 'qa', 'production'], defaultValue: 'dev' } },
        { description: 'The environment the project runs in.', displayName: 'Environment', sortOrder: 9999, mandatory: true },
      );
      const created = await post(ctx.client, TAGDEF_PATH, TAGDEF, body);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.location, `${ctx.server.url}${TAGDEF_PATH}/meshProject.${key}`);
      assert.deepEqual(created.json.spec, body.spec);

      const { client: reader } = await clientWithKey(ctx.client, unique('reader'), ['PROJECT_LIST']);
      assert.equal((await get(reader, `${TAGDEF_PATH}/meshProject.${key}`, TAGDEF)).status, 200, 'reading needs no permission');
      assert.ok((await names(reader, TAGDEF_PATH, TAGDEF, 'meshTagDefinitions')).includes(`meshProject.${key}`));

      const wsKey = `costCenter${unique('k').replace(/-/g, '')}`;
      const upsert = await put(ctx.client, `${TAGDEF_PATH}/meshWorkspace.${wsKey}`, TAGDEF, {
        kind: 'meshTagDefinition',
        apiVersion: 'v1',
        metadata: { name: `meshWorkspace.${wsKey}` },
        spec: {
          targetKind: 'meshWorkspace',
          key: wsKey,
          valueType: {
            string: { defaultValue: '1001', validationRegex: '^\\d{4}$' },
            email: null,
            integer: null,
            number: null,
            singleSelect: null,
            multiSelect: null,
          },
          description: 'Updated description',
          displayName: 'Updated display name',
          sortOrder: 9999,
          mandatory: false,
          immutable: false,
          restricted: false,
          replicationKey: 'updatedReplicationKey',
        },
      });
      assert.equal(upsert.status, 200, upsert.text);
      assert.deepEqual(upsert.json.spec.valueType, { string: { defaultValue: '1001', validationRegex: '^\\d{4}$' } });
      const changed = await put(ctx.client, `${TAGDEF_PATH}/meshProject.${key}`, TAGDEF, {
        ...body,
        spec: { ...body.spec, description: 'Changed' },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.spec.description, 'Changed');

      assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshProject.${key}`)).status, 204);
      assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshWorkspace.${wsKey}`)).status, 204);
      assertError(await get(ctx.client, `${TAGDEF_PATH}/meshProject.${key}`, TAGDEF), 404);
      const titles = await eventTitles();
      for (const title of ['Tag Definition Created', 'Tag Definition Changed', 'Tag Definition Deleted'])
        assert.ok(titles.includes(title), title);
    });

    it('refuses bad definitions, non-admin writes and wrong media types, storing nothing', async () => {
      const key = `k${unique('k').replace(/-/g, '')}`;
      const bad = async (body: Json, field: RegExp) => {
        assertError(await post(ctx.client, TAGDEF_PATH, TAGDEF, body), 400, field);
        assertError(await get(ctx.client, `${TAGDEF_PATH}/${body.metadata.name}`, TAGDEF), 404);
      };
      await bad({ ...tagBody('meshProject', key, { string: {} }), metadata: { name: `meshWorkspace.${key}` } }, /^metadata\.name/);
      await bad(tagBody('meshProject', key, { string: {}, integer: {} }), /^spec\.valueType: .*exactly one/);
      await bad(tagBody('meshProject', key, {}), /^spec\.valueType/);
      await bad(tagBody('meshProject', key, { string: { validationRegex: '(a)\\1' } }), /^spec\.valueType\.string\.validationRegex/);
      await bad(
        tagBody('meshProject', key, { singleSelect: { options: ['a'], defaultValue: 'b' } }),
        /^spec\.valueType\.singleSelect\.defaultValue/,
      );
      await bad(tagBody('meshThing', key, { string: {} }), /^spec\.targetKind/);
      const { client: keyed } = await clientWithKey(ctx.client, unique('writer'), ['PROJECT_SAVE', 'WORKSPACE_SAVE']);
      assertError(await post(keyed, TAGDEF_PATH, TAGDEF, tagBody('meshProject', key, { string: {} })), 403, /TAGDEFINITION_SAVE/);
      assertError(
        await ctx.client.post(TAGDEF_PATH, tagBody('meshProject', key, { string: {} }), {
          headers: { accept: TAGDEF, 'content-type': 'application/json' },
        }),
        415,
      );
      assertError(await get(ctx.client, `${TAGDEF_PATH}/meshProject.${key}`, TAGDEF), 404);
    });

    it('enforces definitions on projects: mandatory, defaults, regex, immutable, restricted; deleting one strips the tag', async () => {
      const workspace = unique('tags');
      await createWorkspace(ctx.client, workspace);
      const suffix = unique('t').replace(/-/g, '');
      const [cost, env, owner, tier] = [`cost${suffix}`, `env${suffix}`, `owner${suffix}`, `tier${suffix}`];
      for (const body of [
        tagBody('meshProject', cost, { string: { validationRegex: '^\\d{4}$' } }, { mandatory: true }),
        tagBody('meshProject', env, { singleSelect: { options: ['dev', 'prod'], defaultValue: 'dev' } }, { mandatory: true }),
        tagBody('meshProject', owner, { email: {} }, { immutable: true }),
        tagBody('meshProject', tier, { integer: {} }, { restricted: true }),
      ]) {
        assert.equal((await post(ctx.client, TAGDEF_PATH, TAGDEF, body)).status, 201);
      }
      try {
        const project = unique('prj');
        const path = `${PATHS.projects}/${workspace}.${project}`;
        assertError(
          await post(ctx.client, PATHS.projects, PROJECT, projectBody(workspace, project, { spec: { tags: {} } })),
          400,
          new RegExp(`^spec\\.tags\\.${cost}: .*mandatory`),
        );
        assertError(
          await post(ctx.client, PATHS.projects, PROJECT, projectBody(workspace, project, { spec: { tags: { [cost]: ['12'] } } })),
          400,
          new RegExp(`^spec\\.tags\\.${cost}: "12" does not match`),
        );
        assertError(
          await post(
            ctx.client,
            PATHS.projects,
            PROJECT,
            projectBody(workspace, project, { spec: { tags: { [cost]: ['1234'], [env]: ['qa'] } } }),
          ),
          400,
          new RegExp(`^spec\\.tags\\.${env}`),
        );
        assertError(
          await post(
            ctx.client,
            PATHS.projects,
            PROJECT,
            projectBody(workspace, project, { spec: { tags: { [cost]: ['1234'], [owner]: ['nobody'] } } }),
          ),
          400,
          new RegExp(`^spec\\.tags\\.${owner}`),
        );
        assertError(await get(ctx.client, path, PROJECT), 404, /not found/);

        const made = await createProject(ctx.client, workspace, project, {
          spec: { tags: { [cost]: ['1234'], [owner]: ['a@example.com'], free: ['form'] } },
        });
        assert.deepEqual(
          made.spec.tags,
          { [cost]: ['1234'], [owner]: ['a@example.com'], free: ['form'], [env]: ['dev'] },
          'the default applied, free-form tags kept',
        );
        assertError(
          await put(
            ctx.client,
            path,
            PROJECT,
            projectBody(workspace, project, { spec: { tags: { [cost]: ['1234'], [owner]: ['b@example.com'] } } }),
          ),
          400,
          new RegExp(`^spec\\.tags\\.${owner}: .*immutable`),
        );

        const { client: member } = await clientWithKey(ctx.client, workspace, ['PROJECT_SAVE', 'PROJECT_LIST']);
        assertError(
          await put(member, path, PROJECT, projectBody(workspace, project, { spec: { tags: { [cost]: ['1234'], [tier]: ['3'] } } })),
          400,
          new RegExp(`^spec\\.tags\\.${tier}: .*restricted`),
        );
        const byAdmin = await put(
          ctx.client,
          path,
          PROJECT,
          projectBody(workspace, project, { spec: { tags: { [cost]: ['1234'], [tier]: ['3'] } } }),
        );
        assert.equal(byAdmin.status, 200, byAdmin.text);
        assert.deepEqual(
          byAdmin.json.spec.tags,
          { [cost]: ['1234'], [tier]: ['3'], [owner]: ['a@example.com'], [env]: ['dev'] },
          'omitted mandatory and immutable tags are kept',
        );
        const byMember = await put(
          member,
          path,
          PROJECT,
          projectBody(workspace, project, { spec: { displayName: 'Renamed', tags: { [cost]: ['5678'], [tier]: ['3'] } } }),
        );
        assert.equal(byMember.status, 200, `an unchanged restricted tag is fine: ${byMember.text}`);

        assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshProject.${cost}`)).status, 204);
        assert.equal((await get(ctx.client, path, PROJECT)).json.spec.tags[cost], undefined, 'the tag is gone from every project');
        assert.equal((await get(ctx.client, path, PROJECT)).json.spec.tags[env][0], 'dev', 'other tags stay');
      } finally {
        for (const key of [cost, env, owner, tier]) await ctx.client.delete(`${TAGDEF_PATH}/meshProject.${key}`);
      }
    });

    it('enforces definitions on workspaces (metadata.tags) and payment methods (spec.tags)', async () => {
      const suffix = unique('t').replace(/-/g, '');
      const [area, budget] = [`area${suffix}`, `budget${suffix}`];
      assert.equal(
        (
          await post(
            ctx.client,
            TAGDEF_PATH,
            TAGDEF,
            tagBody('meshWorkspace', area, { multiSelect: { options: ['eu', 'us'] } }, { mandatory: true }),
          )
        ).status,
        201,
      );
      assert.equal(
        (await post(ctx.client, TAGDEF_PATH, TAGDEF, tagBody('meshPaymentMethod', budget, { number: {} }, { mandatory: true }))).status,
        201,
      );
      try {
        const workspace = unique('tags');
        assertError(
          await post(ctx.client, PATHS.workspaces, WORKSPACE, workspaceBody(workspace)),
          400,
          new RegExp(`^metadata\\.tags\\.${area}: .*mandatory`),
        );
        assertError(
          await post(ctx.client, PATHS.workspaces, WORKSPACE, workspaceBody(workspace, { metadata: { tags: { [area]: ['eu', 'mars'] } } })),
          400,
          /"mars"/,
        );
        assertError(await get(ctx.client, `${PATHS.workspaces}/${workspace}`, WORKSPACE), 404);
        const made = await createWorkspace(ctx.client, workspace, { metadata: { tags: { [area]: ['eu', 'us'] } } });
        assert.deepEqual(made.metadata.tags, { [area]: ['eu', 'us'] });

        const name = unique('pm');
        assertError(
          await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, name)),
          400,
          new RegExp(`^spec\\.tags\\.${budget}`),
        );
        assertError(
          await post(ctx.client, PAYMENT_PATH, PAYMENT, paymentBody(workspace, name, { tags: { [budget]: ['lots'] } })),
          400,
          /not a number/,
        );
        assert.deepEqual((await createPaymentMethod(ctx.client, workspace, name, { tags: { [budget]: ['12.5'] } })).spec.tags, {
          [budget]: ['12.5'],
        });

        // Deleting a definition strips its key from the objects of its kind, which stay.
        assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshWorkspace.${area}`)).status, 204);
        const workspaceAfter = await get(ctx.client, `${PATHS.workspaces}/${workspace}`, WORKSPACE);
        assert.equal(workspaceAfter.status, 200);
        assert.equal(workspaceAfter.json.metadata.tags?.[area], undefined, workspaceAfter.text);
        assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshPaymentMethod.${budget}`)).status, 204);
        const methodAfter = await get(ctx.client, `${PAYMENT_PATH}/${name}`, PAYMENT);
        assert.equal(methodAfter.status, 200);
        assert.equal(methodAfter.json.spec.tags?.[budget], undefined, methodAfter.text);
      } finally {
        await ctx.client.delete(`${TAGDEF_PATH}/meshWorkspace.${area}`);
        await ctx.client.delete(`${TAGDEF_PATH}/meshPaymentMethod.${budget}`);
      }
    });

    it('enforces definitions on building block definitions (metadata.tags)', async () => {
      const key = `team${unique('t').replace(/-/g, '')}`;
      assert.equal(
        (
          await post(
            ctx.client,
            TAGDEF_PATH,
            TAGDEF,
            tagBody('meshBuildingBlockDefinition', key, { string: { validationRegex: '^[a-z]+$' } }, { mandatory: true }),
          )
        ).status,
        201,
      );
      try {
        const workspace = unique('bbd');
        await createWorkspace(ctx.client, workspace);
        const DEFINITION = media('meshbuildingblockdefinition', 'v1-preview');
        const definition = (tags?: Json) => ({
          apiVersion: 'v1-preview',
          kind: 'meshBuildingBlockDefinition',
          metadata: { ownedByWorkspace: workspace, ...(tags ? { tags } : {}) },
          spec: { displayName: unique('Def'), description: 'tagged', targetType: 'WORKSPACE_LEVEL' },
        });
        const path = '/api/meshobjects/meshbuildingblockdefinitions';
        assertError(await post(ctx.client, path, DEFINITION, definition()), 400, new RegExp(`^metadata\\.tags\\.${key}: .*mandatory`));
        assertError(await post(ctx.client, path, DEFINITION, definition({ [key]: ['Ops!'] })), 400, /does not match/);
        const made = await post(ctx.client, path, DEFINITION, definition({ [key]: ['ops'] }));
        assert.equal(made.status, 201, made.text);
        assert.deepEqual(made.json.metadata.tags, { [key]: ['ops'] });

        assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshBuildingBlockDefinition.${key}`)).status, 204);
        const after = await ctx.client.get(`${path}/${made.json.metadata.uuid}`, { headers: { accept: DEFINITION } });
        assert.equal(after.status, 200);
        assert.equal(after.json.metadata.tags?.[key], undefined, after.text);
      } finally {
        await ctx.client.delete(`${TAGDEF_PATH}/meshBuildingBlockDefinition.${key}`);
      }
    });
  });

  describe('meshPlatformType v1 and v1-preview', () => {
    it('lists the built-in types (reading is free) and filters by category and lifecycleStatus', async () => {
      const { client: reader } = await clientWithKey(ctx.client, unique('reader'), ['PROJECT_LIST']);
      const all = await names(reader, TYPE_PATH, TYPE_PREVIEW, 'meshPlatformTypes');
      for (const builtIn of ['AWS', 'AZURE', 'AZURERG', 'AKS', 'GCP', 'KUBERNETES', 'OPENSHIFT', 'CUSTOM'])
        assert.ok(all.includes(builtIn), builtIn);
      assert.deepEqual(await names(reader, TYPE_PATH, TYPE, 'meshPlatformTypes', '&category=AZURE_KUBERNETES_SERVICE'), ['AKS']);
      const azure = await get(reader, `${TYPE_PATH}/AZURE`, TYPE);
      assert.equal(azure.status, 200, azure.text);
      assert.deepEqual(azure.json.status, { lifecycleState: 'ACTIVE', lifecycle: { state: 'ACTIVE' } });
      assert.equal(azure.json.spec.category, 'AZURE');
      assertError(await get(reader, `${TYPE_PATH}?category=azure`, TYPE), 400, /^category:/);
      assertError(await get(reader, `${TYPE_PATH}?lifecycleStatus=GONE`, TYPE), 400, /^lifecycleStatus:/);
    });

    it('creates a CUSTOM type (the vendor example), upserts, deactivates; platforms need an existing ACTIVE type', async () => {
      const name = unique('my-new-platform');
      const created = await post(ctx.client, TYPE_PATH, TYPE_PREVIEW, typeBody(name, { displayName: 'My New Platform' }, 'v1-preview'));
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json.apiVersion, 'v1-preview');
      assert.match(created.headers.deprecation ?? '', /^@\d+$/, 'v1-preview is deprecated');
      assert.match(created.json.metadata.uuid, /^[0-9a-f-]{36}$/);
      assert.deepEqual(created.json.status, { lifecycleState: 'ACTIVE', lifecycle: { state: 'ACTIVE' } });
      assert.equal(created.headers.location, `${ctx.server.url}${TYPE_PATH}/${name}`);
      const changed = await put(
        ctx.client,
        `${TYPE_PATH}/${name}`,
        TYPE,
        typeBody(name, { displayName: 'Updated Custom Platform', icon: 'updated-icon' }),
      );
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.spec.displayName, 'Updated Custom Platform');
      assert.equal(changed.json.metadata.uuid, created.json.metadata.uuid);

      const workspace = unique('types');
      await createWorkspace(ctx.client, workspace);
      const location = unique('loc');
      await createLocation(ctx.client, location);
      const custom = (type: string) => ({ spec: { config: { type: 'custom', custom: { platformTypeRef: { name: type } } } } });
      const platformUuid = await createPlatform(ctx.client, workspace, unique('plf'), location, custom(name));
      const platform = await get(ctx.client, `${PATHS.platforms}/${platformUuid}`, PLATFORM);
      assert.equal(platform.json.status.platformTypeIdentifier, name.toUpperCase());
      assertError(
        await post(ctx.client, PATHS.platforms, PLATFORM, platformBody(workspace, unique('plf'), location, custom(unique('no-such-type')))),
        422,
        /^spec\.config\.custom\.platformTypeRef\.name: meshPlatformType/,
      );
      assertError(
        await post(
          ctx.client,
          PATHS.platforms,
          PLATFORM,
          platformBody(workspace, unique('plf'), location, { spec: { config: { type: 'openstack' } } }),
        ),
        422,
        /^spec\.config\.type: meshPlatformType "OPENSTACK" does not exist/,
      );

      // The tenant list's platformTypeIdentifier filter has something to match.
      const project = unique('prj');
      await createProject(ctx.client, workspace, project);
      const tenant = await createTenant(ctx.client, workspace, project, platformUuid);
      const tenants = await get(ctx.client, `${PATHS.tenants}?platformTypeIdentifier=${name}`, TENANT);
      assert.deepEqual(
        (tenants.json._embedded.meshTenants as Json[]).map((t) => t.metadata.uuid),
        [tenant.metadata.uuid],
      );

      assert.equal((await ctx.client.delete(`${TYPE_PATH}/${name}`)).status, 204);
      assert.deepEqual((await get(ctx.client, `${TYPE_PATH}/${name}`, TYPE)).json.status, {
        lifecycleState: 'DEACTIVATED',
        lifecycle: { state: 'DEACTIVATED' },
      });
      assert.ok(
        (await names(ctx.client, TYPE_PATH, TYPE, 'meshPlatformTypes', '&lifecycleStatus=DEACTIVATED&category=CUSTOM')).includes(name),
      );
      assertError(
        await post(ctx.client, PATHS.platforms, PLATFORM, platformBody(workspace, unique('plf'), location, custom(name))),
        422,
        /deactivated/,
      );
      const kept = await put(ctx.client, `${PATHS.platforms}/${platformUuid}`, PLATFORM, {
        ...platform.json,
        spec: { ...platform.json.spec, displayName: 'Still here' },
      });
      assert.equal(kept.status, 200, `existing platforms keep their type: ${kept.text}`);
      const reactivated = await put(ctx.client, `${TYPE_PATH}/${name}`, TYPE, { ...typeBody(name), status: { lifecycleState: 'ACTIVE' } });
      assert.deepEqual(reactivated.json.status, { lifecycleState: 'ACTIVE', lifecycle: { state: 'ACTIVE' } });
    });

    it('refuses other categories, changes of built-ins and the category, bad names, missing permissions and wrong media types', async () => {
      assertError(await post(ctx.client, TYPE_PATH, TYPE, typeBody(unique('t'), { category: 'AWS' })), 400, /^spec\.category: only CUSTOM/);
      assertError(await post(ctx.client, TYPE_PATH, TYPE, typeBody(unique('t'), { category: 'MOON' })), 400, /^spec\.category/);
      assertError(await post(ctx.client, TYPE_PATH, TYPE, typeBody('Not A Name')), 400, /^metadata\.name/);
      assertError(await post(ctx.client, TYPE_PATH, TYPE, typeBody(unique('t'), { icon: undefined })), 400, /^spec\.icon/);
      assertError(await post(ctx.client, TYPE_PATH, TYPE, typeBody('azure')), 409, /already exists/);
      assertError(
        await put(ctx.client, `${TYPE_PATH}/AZURE`, TYPE, { ...typeBody('AZURE'), metadata: { name: 'AZURE' } }),
        409,
        /built in and cannot be changed/,
      );
      assertError(await ctx.client.delete(`${TYPE_PATH}/AZURE`), 409, /built in/);
      const name = unique('t');
      assert.equal((await post(ctx.client, TYPE_PATH, TYPE, typeBody(name))).status, 201);
      assertError(
        await put(ctx.client, `${TYPE_PATH}/${name}`, TYPE, typeBody(name, { category: 'GCP' })),
        400,
        /^spec\.category: the category of a platform type cannot change/,
      );

      // Platform types belong to no workspace: only admins make, change and deactivate them.
      const { client: saver } = await clientWithKey(ctx.client, unique('saver'), ['PLATFORMINSTANCE_SAVE', 'PLATFORMINSTANCE_DELETE']);
      assertError(await post(saver, TYPE_PATH, TYPE, typeBody(unique('t'))), 403, /ADM_PLATFORMINSTANCE_SAVE/);
      assertError(
        await put(saver, `${TYPE_PATH}/${name}`, TYPE, typeBody(name, { displayName: 'Mine' })),
        403,
        /ADM_PLATFORMINSTANCE_SAVE/,
      );
      assertError(await saver.delete(`${TYPE_PATH}/${name}`), 403, /ADM_PLATFORMINSTANCE_DELETE/);
      const { client: admin } = await clientWithKey(ctx.client, unique('admin'), ['ADM_PLATFORMINSTANCE_SAVE']);
      assert.equal((await post(admin, TYPE_PATH, TYPE, typeBody(unique('t')))).status, 201, 'ADM_PLATFORMINSTANCE_SAVE makes custom types');
      const { client: reader } = await clientWithKey(ctx.client, unique('reader'), ['PLATFORMINSTANCE_LIST']);
      assertError(await post(reader, TYPE_PATH, TYPE, typeBody(unique('t'))), 403);
      assertError(
        await ctx.client.post(TYPE_PATH, typeBody(unique('t')), { headers: { accept: TYPE, 'content-type': 'application/json' } }),
        415,
      );
      assertError(await get(ctx.client, `${TYPE_PATH}/${unique('none')}`, TYPE), 404);
    });
  });

  describe('meshLandingZone v1 and v1-preview', () => {
    /** A workspace with a platform of each type the vendor's examples name. */
    async function platformsByType(): Promise<{ workspace: string; byType: Record<string, string> }> {
      const workspace = unique('lzws');
      await createWorkspace(ctx.client, workspace);
      const location = unique('loc');
      await createLocation(ctx.client, location);
      const byType: Record<string, string> = {};
      for (const type of ['aks', 'aws', 'azure', 'azurerg', 'gcp', 'kubernetes', 'openshift'])
        byType[type] = await createPlatform(ctx.client, workspace, unique(`plf-${type}`), location, { spec: { config: { type } } });
      byType.custom = await createPlatform(ctx.client, workspace, unique('plf'), location);
      return { workspace, byType };
    }

    it('accepts every vendor request example (POST and PUT, each platform properties type) and answers them as the OpenAPI shows', async () => {
      const { workspace, byType } = await platformsByType();
      for (const [path, method] of [
        ['/api/meshobjects/meshlandingzones', 'post'],
        ['/api/meshobjects/meshlandingzones/{identifier}', 'put'],
      ] as const) {
        for (const example of vendorExamples(path, method)) {
          const name = unique('lz');
          const type = example.spec.platformProperties.type as string;
          const body = {
            ...example,
            metadata: { ...example.metadata, name },
            spec: { ...example.spec, platformRef: { ...example.spec.platformRef, uuid: byType[type] } },
          };
          const response =
            method === 'post'
              ? await post(ctx.client, ZONE_PATH, ZONE_PREVIEW, body)
              : await put(ctx.client, `${ZONE_PATH}/${name}`, ZONE_PREVIEW, body);
          assert.equal(response.status, method === 'post' ? 201 : 200, `${method} ${type}: ${response.text}`);
          assert.equal(response.json.metadata.ownedByWorkspace, workspace, 'owned by the platform’s workspace');
          assert.deepEqual(response.json.status, { disabled: false, restricted: false });
          assert.equal(response.json.spec.platformProperties.type, type);
          assert.deepEqual(response.json.spec.quotas, example.spec.quotas);
        }
      }
    });

    it('reads, lists with every filter, replaces and disables (DELETE); tenants need an enabled zone of their platform', async () => {
      const { workspace, byType } = await platformsByType();
      const [a, b] = [unique('lz-a'), unique('lz-b')];
      const created = await createLandingZone(ctx.client, a, byType.azure!, {
        spec: { platformProperties: { type: 'azure', azure: { azureManagementGroupId: 'mg', azureRoleMappings: [] } } },
      });
      assert.equal(created._links.self.href, `${ctx.server.url}${ZONE_PATH}/${a}`);
      await createLandingZone(ctx.client, b, byType.custom!, { spec: { restricted: true } });
      assert.equal((await get(ctx.client, `${ZONE_PATH}/${b}`, ZONE)).json.status.restricted, true, 'restricted is echoed');
      const list = (query: string) => names(ctx.client, ZONE_PATH, ZONE, 'meshLandingZones', `&ownedByWorkspace=${workspace}${query}`);
      assert.deepEqual(await list(''), [a, b]);
      assert.deepEqual(await list(`&identifier=${a}`), [a]);
      assert.deepEqual(await list(`&displayName=${encodeURIComponent(`Landing zone ${b}`)}`), [b]);
      assert.deepEqual(await list(`&platformUuid=${byType.azure}`), [a]);
      assert.deepEqual(await list('&restricted=true'), [b]);
      assert.deepEqual(await list('&disabled=true'), []);
      assertError(await get(ctx.client, `${ZONE_PATH}?disabled=maybe`, ZONE), 400, /^disabled:/);

      const replaced = await put(
        ctx.client,
        `${ZONE_PATH}/${a}`,
        ZONE,
        landingZoneBody(a, byType.azure!, {
          spec: {
            displayName: 'Renamed',
            platformProperties: { type: 'azure', azure: { azureManagementGroupId: 'mg2', azureRoleMappings: [] } },
          },
        }),
      );
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.json.spec.displayName, 'Renamed');
      assertError(
        await put(ctx.client, `${ZONE_PATH}/${a}`, ZONE, landingZoneBody(a, byType.custom!)),
        400,
        /^spec\.platformRef\.uuid: a landing zone's platform cannot change/,
      );

      const project = unique('prj');
      await createProject(ctx.client, workspace, project);
      assertError(
        await post(
          ctx.client,
          PATHS.tenants,
          TENANT,
          tenantBody(workspace, project, byType.custom!, { spec: { landingZoneIdentifier: a } }),
        ),
        422,
        /^spec\.landingZoneIdentifier: meshLandingZone ".*" does not exist on meshPlatform/,
      );
      assertError(
        await post(
          ctx.client,
          PATHS.tenants,
          TENANT,
          tenantBody(workspace, project, byType.azure!, { spec: { landingZoneIdentifier: unique('none') } }),
        ),
        422,
        /^spec\.landingZoneIdentifier/,
      );
      const tenant = await createTenant(ctx.client, workspace, project, byType.azure!, { spec: { landingZoneIdentifier: a } });
      assert.deepEqual(
        (await get(ctx.client, `${PATHS.tenants}?landingZoneIdentifier=${a}`, TENANT)).json._embedded.meshTenants.map(
          (t: Json) => t.metadata.uuid,
        ),
        [tenant.metadata.uuid],
      );

      assert.equal((await ctx.client.delete(`${ZONE_PATH}/${a}`)).status, 204);
      const disabled = await get(ctx.client, `${ZONE_PATH}/${a}`, ZONE);
      assert.equal(disabled.status, 200, 'a disabled zone is still readable');
      assert.equal(disabled.json.status.disabled, true);
      assert.deepEqual(await list('&disabled=true'), [a]);
      assert.equal(
        (await get(ctx.client, `${PATHS.tenants}/${tenant.metadata.uuid}`, TENANT)).json.spec.landingZoneIdentifier,
        a,
        'existing tenants are unaffected',
      );
      const other = unique('prj');
      await createProject(ctx.client, workspace, other);
      assertError(
        await post(ctx.client, PATHS.tenants, TENANT, tenantBody(workspace, other, byType.azure!, { spec: { landingZoneIdentifier: a } })),
        422,
        /disabled/,
      );
      assertError(await ctx.client.delete(`${PATHS.platforms}/${byType.custom}`), 409, /enabled meshLandingZones/);
      const titles = await eventTitles();
      for (const title of ['Landing Zone Created', 'Landing Zone Changed', 'Landing Zone Deleted'])
        assert.ok(titles.includes(title), title);
    });

    it('enforces tag definitions on landing zones (metadata.tags); deleting one strips the tag from every zone', async () => {
      const { byType } = await platformsByType();
      const key = `tier${unique('t').replace(/-/g, '')}`;
      assert.equal(
        (
          await post(
            ctx.client,
            TAGDEF_PATH,
            TAGDEF,
            tagBody('meshLandingZone', key, { singleSelect: { options: ['gold', 'silver'] } }, { mandatory: true }),
          )
        ).status,
        201,
      );
      try {
        const zone = unique('lz');
        assertError(
          await post(ctx.client, ZONE_PATH, ZONE, landingZoneBody(zone, byType.custom!)),
          400,
          new RegExp(`^metadata\\.tags\\.${key}: .*mandatory`),
        );
        assertError(await get(ctx.client, `${ZONE_PATH}/${zone}`, ZONE), 404);
        const made = await createLandingZone(ctx.client, zone, byType.custom!, { metadata: { tags: { [key]: ['gold'], team: ['ops'] } } });
        assert.deepEqual(made.metadata.tags, { [key]: ['gold'], team: ['ops'] });
        assert.equal((await ctx.client.delete(`${TAGDEF_PATH}/meshLandingZone.${key}`)).status, 204);
        assert.deepEqual((await get(ctx.client, `${ZONE_PATH}/${zone}`, ZONE)).json.metadata.tags, { team: ['ops'] });
      } finally {
        await ctx.client.delete(`${TAGDEF_PATH}/meshLandingZone.${key}`);
      }
    });

    it('refuses bad platform properties, unknown platforms, other workspaces and restricted zones for non-platform teams', async () => {
      const { workspace, byType } = await platformsByType();
      const body = (name: string, platformUuid: string, platformProperties: Json) =>
        landingZoneBody(name, platformUuid, { spec: { platformProperties } });
      assertError(
        await post(ctx.client, ZONE_PATH, ZONE, body(unique('lz'), byType.aws!, { type: 'aws', aws: { awsRoleMappings: [] } })),
        400,
        /^spec\.platformProperties\.aws\.awsEnrollAccount: required/,
      );
      assertError(
        await post(
          ctx.client,
          ZONE_PATH,
          ZONE,
          body(unique('lz'), byType.gcp!, { type: 'gcp', gcp: { gcpFolderId: 'f', gcpRoleMappings: [] }, aws: {} }),
        ),
        400,
        /^spec\.platformProperties\.aws/,
      );
      assertError(
        await post(ctx.client, ZONE_PATH, ZONE, body(unique('lz'), byType.gcp!, { type: 'moon' })),
        400,
        /^spec\.platformProperties\.type/,
      );
      assertError(
        await post(ctx.client, ZONE_PATH, ZONE, body(unique('lz'), byType.gcp!, { type: 'openshift', openshift: {} })),
        422,
        /^spec\.platformProperties\.type: .*GCP/,
      );
      assertError(
        await post(ctx.client, ZONE_PATH, ZONE, landingZoneBody(unique('lz'), '0d4c5a1e-0000-4000-8000-000000000000')),
        422,
        /^spec\.platformRef\.uuid: meshPlatform/,
      );
      assertError(await post(ctx.client, ZONE_PATH, ZONE, landingZoneBody('Not A Name', byType.custom!)), 400, /^metadata\.name/);
      assertError(
        await ctx.client.post(ZONE_PATH, landingZoneBody(unique('lz'), byType.custom!), {
          headers: { accept: ZONE, 'content-type': 'application/json' },
        }),
        415,
      );

      const zone = unique('lz');
      await createLandingZone(ctx.client, zone, byType.custom!, { spec: { restricted: true } });
      const codes = ['LANDINGZONE_LIST', 'LANDINGZONE_SAVE', 'LANDINGZONE_DELETE', 'TENANT_SAVE', 'TENANT_LIST', 'PROJECT_SAVE'];
      const { client: other } = await clientWithKey(ctx.client, unique('other'), codes);
      assertError(await get(other, `${ZONE_PATH}/${zone}`, ZONE), 404, /not found/);
      assertError(await put(other, `${ZONE_PATH}/${zone}`, ZONE, landingZoneBody(zone, byType.custom!)), 404);
      assertError(await other.delete(`${ZONE_PATH}/${zone}`), 404);
      assertError(await post(other, ZONE_PATH, ZONE, landingZoneBody(unique('lz'), byType.custom!)), 403, /LANDINGZONE_SAVE for workspace/);
      assert.deepEqual(await names(other, ZONE_PATH, ZONE, 'meshLandingZones', `&ownedByWorkspace=${workspace}`), []);
      const { client: nobody } = await clientWithKey(ctx.client, workspace, ['TENANT_SAVE']);
      assertError(await get(nobody, ZONE_PATH, ZONE), 403);

      // A consumer on a PUBLIC platform may use its zones, but not a restricted one.
      const location = unique('loc');
      await createLocation(ctx.client, location);
      const publicPlatform = await createPlatform(ctx.client, workspace, unique('pub'), location, {
        spec: { availability: { restriction: 'PUBLIC' } },
      });
      const [open, closed] = [unique('lz-open'), unique('lz-closed')];
      await createLandingZone(ctx.client, open, publicPlatform);
      await createLandingZone(ctx.client, closed, publicPlatform, { spec: { restricted: true } });
      const consumer = unique('consumer');
      const { client: member } = await clientWithKey(ctx.client, consumer, ['TENANT_SAVE', 'TENANT_LIST']);
      const [p1, p2] = [unique('prj'), unique('prj')];
      await createProject(ctx.client, consumer, p1);
      await createProject(ctx.client, consumer, p2);
      assertError(
        await post(member, PATHS.tenants, TENANT, tenantBody(consumer, p1, publicPlatform, { spec: { landingZoneIdentifier: closed } })),
        403,
        /restricted/,
      );
      const made = await post(
        member,
        PATHS.tenants,
        TENANT,
        tenantBody(consumer, p2, publicPlatform, { spec: { landingZoneIdentifier: open } }),
      );
      assert.equal(made.status, 201, made.text);
    });
  });

  describe('meshIntegration v1 and v1-preview', () => {
    const INTEGRATION = media('meshintegration', 'v1');
    const INTEGRATION_PREVIEW = media('meshintegration', 'v1-preview');
    const INTEGRATION_PATH = '/api/meshobjects/meshintegrations';
    const REPLICATOR = 'c8f4e7d2-3b1a-4c9e-8d5f-6a2b7c8d9e0f';
    const METERING = 'a1b2c3d4-5e6f-7a8b-9c0d-1e2f3a4b5c6d';
    const runnerRef = { kind: 'meshBuildingBlockRunner', uuid: SHARED_TERRAFORM_RUNNER };
    const gitlab = (workspace: string, displayName = 'My GitLab Integration') => ({
      apiVersion: 'v1',
      kind: 'meshIntegration',
      metadata: { ownedByWorkspace: workspace },
      spec: { displayName, config: { type: 'gitlab', gitlab: { baseUrl: 'https://gitlab.com', runnerRef } } },
    });
    const storedDocument = async (uuid: string) =>
      (await ctx.server.server.database.db.selectFrom('integrations').select('document').where('uuid', '=', uuid).executeTakeFirstOrThrow())
        .document;

    it('accepts every vendor request example, masks secrets, keeps them when the mask comes back and replaces them when a new one does', async () => {
      const workspace = unique('int');
      await createWorkspace(ctx.client, workspace);
      const made: Record<string, Json> = {};
      for (const example of vendorExamples('/api/meshobjects/meshintegrations', 'post')) {
        const type = example.spec.config.type as string;
        const body = {
          ...example,
          metadata: { ownedByWorkspace: workspace },
          spec: { ...example.spec, config: { type, [type]: { ...example.spec.config[type], runnerRef } } },
        };
        const response = await post(ctx.client, INTEGRATION_PATH, INTEGRATION_PREVIEW, body);
        assert.equal(response.status, 201, `${type}: ${response.text}`);
        assert.deepEqual(response.json.status, { isBuiltIn: false });
        made[type] = response.json;
      }
      assert.equal(made.github!.spec.config.github.appPrivateKey, '<hidden>');
      assert.equal(made.azuredevops!.spec.config.azuredevops.personalAccessToken, '<hidden>');
      const github = made.github!.metadata.uuid as string;
      const sealedBefore = await storedDocument(github);
      assert.ok(!sealedBefore.includes('test-private-key'), 'sealed at rest');

      for (const example of vendorExamples('/api/meshobjects/meshintegrations/{uuid}', 'put')) {
        const type = example.spec.config.type as string;
        const uuid = made[type]!.metadata.uuid as string;
        const body = {
          ...example,
          metadata: { uuid, ownedByWorkspace: workspace },
          spec: { ...example.spec, config: { type, [type]: { ...example.spec.config[type], runnerRef } } },
        };
        const response = await put(ctx.client, `${INTEGRATION_PATH}/${uuid}`, INTEGRATION_PREVIEW, body);
        assert.equal(response.status, 200, `${type}: ${response.text}`);
        assert.match(response.json.spec.displayName, /^Updated/);
      }
      const kept = { ...made.github!, spec: { ...made.github!.spec, displayName: 'Kept secret' } };
      const afterNew = await storedDocument(github);
      assert.equal((await put(ctx.client, `${INTEGRATION_PATH}/${github}`, INTEGRATION, kept)).status, 200);
      assert.equal(
        await storedDocument(github).then((d) => JSON.parse(d).spec.config.github.appPrivateKey.hash),
        JSON.parse(afterNew).spec.config.github.appPrivateKey.hash,
        'the mask keeps the stored secret',
      );
      const rotated = {
        ...kept,
        spec: { ...kept.spec, config: { type: 'github', github: { ...kept.spec.config.github, appPrivateKey: 'another-private-key' } } },
      };
      assert.equal((await put(ctx.client, `${INTEGRATION_PATH}/${github}`, INTEGRATION, rotated)).status, 200);
      assert.notEqual(
        JSON.parse(await storedDocument(github)).spec.config.github.appPrivateKey.hash,
        JSON.parse(afterNew).spec.config.github.appPrivateKey.hash,
        'a new value replaces it',
      );

      assertError(
        await put(ctx.client, `${INTEGRATION_PATH}/${github}`, INTEGRATION, {
          ...gitlab(workspace),
          metadata: { uuid: github, ownedByWorkspace: workspace },
        }),
        400,
        /^spec\.config\.type: an integration's type cannot change/,
      );
      assertError(
        await post(ctx.client, INTEGRATION_PATH, INTEGRATION, {
          ...made.github!,
          spec: {
            ...made.github!.spec,
            config: { type: 'github', github: { ...made.github!.spec.config.github, appPrivateKey: '<hidden>' } },
          },
        }),
        400,
        /appPrivateKey: "<hidden>" keeps a stored secret, and there is none/,
      );
      const titles = await eventTitles();
      for (const title of ['Integration Created', 'Integration Changed']) assert.ok(titles.includes(title), title);
    });

    it('serves the built-in integrations read-only to every caller who may list integrations; lists with its filters', async () => {
      const workspace = unique('int');
      await createWorkspace(ctx.client, workspace);
      const { client: member } = await clientWithKey(ctx.client, workspace, ['INTEGRATION_LIST', 'INTEGRATION_SAVE', 'INTEGRATION_DELETE']);
      const replicator = await get(member, `${INTEGRATION_PATH}/${REPLICATOR}`, INTEGRATION);
      assert.equal(replicator.status, 200, replicator.text);
      assert.equal(replicator.json.status.isBuiltIn, true);
      assert.equal(replicator.json.spec.config.type, 'replicator');
      assert.equal(typeof replicator.json.status.workloadIdentityFederation.issuer, 'string');
      assert.equal(
        (await get(member, `${INTEGRATION_PATH}/${METERING}`, INTEGRATION)).json.spec.displayName,
        'meshStack Metering (Built-in)',
      );
      assertError(await put(ctx.client, `${INTEGRATION_PATH}/${METERING}`, INTEGRATION, gitlab('admin')), 409, /built in/);
      assertError(await ctx.client.delete(`${INTEGRATION_PATH}/${REPLICATOR}`), 409, /built in/);

      const mine = (await post(member, INTEGRATION_PATH, INTEGRATION, gitlab(workspace, 'Mine'))).json.metadata.uuid as string;
      const uuids = async (client: ApiClient, query: string) =>
        ((await get(client, `${INTEGRATION_PATH}?size=350${query}`, INTEGRATION)).json._embedded.meshIntegrations as Json[]).map(
          (i) => i.metadata.uuid as string,
        );
      assert.deepEqual((await uuids(member, '')).sort(), [METERING, REPLICATOR, mine].sort(), 'its own and the built-in ones');
      assert.deepEqual(await uuids(member, '&type=GITLAB'), [mine]);
      assert.deepEqual(await uuids(member, '&type=REPLICATOR'), [REPLICATOR]);
      assert.deepEqual(await uuids(member, `&ownedByWorkspace=${workspace}`), [mine]);
      assert.deepEqual(await uuids(member, '&displayName=Mine'), [mine]);
      assertError(await get(member, `${INTEGRATION_PATH}?type=github`, INTEGRATION), 400, /^type:/);
      assert.equal((await member.delete(`${INTEGRATION_PATH}/${mine}`)).status, 204);
      assertError(await get(member, `${INTEGRATION_PATH}/${mine}`, INTEGRATION), 404);
    });

    it('isolates workspaces, refuses invisible runners, bad configs and missing permissions', async () => {
      const [a, b] = [unique('int-a'), unique('int-b')];
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const ofA = (await post(ctx.client, INTEGRATION_PATH, INTEGRATION, gitlab(a))).json.metadata.uuid as string;
      const { client: keyB } = await clientWithKey(ctx.client, b, [
        'INTEGRATION_LIST',
        'INTEGRATION_SAVE',
        'INTEGRATION_DELETE',
        'BUILDINGBLOCKRUNNER_SAVE',
      ]);
      assertError(await get(keyB, `${INTEGRATION_PATH}/${ofA}`, INTEGRATION), 404, /not found/);
      assertError(await put(keyB, `${INTEGRATION_PATH}/${ofA}`, INTEGRATION, gitlab(a)), 404);
      assertError(await keyB.delete(`${INTEGRATION_PATH}/${ofA}`), 404);
      assertError(await post(keyB, INTEGRATION_PATH, INTEGRATION, gitlab(a)), 403, /INTEGRATION_SAVE for workspace/);
      const { client: lister } = await clientWithKey(ctx.client, b, ['INTEGRATION_LIST']);
      assertError(await post(lister, INTEGRATION_PATH, INTEGRATION, gitlab(b)), 403);
      const { client: nobody } = await clientWithKey(ctx.client, b, ['PROJECT_LIST']);
      assertError(await get(nobody, INTEGRATION_PATH, INTEGRATION), 403);

      const privateRunner = await post(ctx.client, RUNNERS, RUNNER, runnerBody(a, undefined, { implementationType: 'GITLAB_PIPELINE' }));
      assert.equal(privateRunner.status, 201, privateRunner.text);
      const body = {
        ...gitlab(b),
        spec: {
          displayName: 'x',
          config: {
            type: 'gitlab',
            gitlab: {
              baseUrl: 'https://gitlab.com',
              runnerRef: { kind: 'meshBuildingBlockRunner', uuid: privateRunner.json.metadata.uuid },
            },
          },
        },
      };
      assertError(
        await post(keyB, INTEGRATION_PATH, INTEGRATION, body),
        422,
        /^spec\.config\.gitlab\.runnerRef\.uuid: meshBuildingBlockRunner/,
      );
      assertError(
        await post(ctx.client, INTEGRATION_PATH, INTEGRATION, {
          ...gitlab(b),
          spec: {
            displayName: 'x',
            config: {
              type: 'gitlab',
              gitlab: {
                baseUrl: 'https://gitlab.com',
                runnerRef: { kind: 'meshBuildingBlockRunner', uuid: '0d4c5a1e-0000-4000-8000-000000000000' },
              },
            },
          },
        }),
        422,
        /runnerRef/,
      );
      assertError(
        await post(ctx.client, INTEGRATION_PATH, INTEGRATION, {
          ...gitlab(b),
          spec: { displayName: 'x', config: { type: 'github', github: { baseUrl: 'https://api.github.com', runnerRef } } },
        }),
        400,
        /^spec\.config\.github\.(owner|appId|appPrivateKey)/,
      );
      assertError(
        await post(ctx.client, INTEGRATION_PATH, INTEGRATION, { ...gitlab(b), spec: { displayName: 'x', config: { type: 'replicator' } } }),
        400,
        /^spec\.config\.type/,
      );
      assertError(
        await post(ctx.client, INTEGRATION_PATH, INTEGRATION, {
          ...gitlab(b),
          spec: { displayName: 'x', config: { type: 'gitlab', gitlab: { baseUrl: 'https://gitlab.com', runnerRef }, github: {} } },
        }),
        400,
        /^spec\.config\.github/,
      );
      assertError(await post(ctx.client, INTEGRATION_PATH, INTEGRATION, gitlab(unique('no-such-ws'))), 422, /metadata\.ownedByWorkspace/);
      assertError(
        await ctx.client.post(INTEGRATION_PATH, gitlab(b), { headers: { accept: INTEGRATION, 'content-type': 'application/json' } }),
        415,
      );
    });

    it('is named by definition versions of its workspace (integrationRef), and cannot be deleted while one does', async () => {
      const [a, b] = [unique('int-a'), unique('int-b')];
      await createWorkspace(ctx.client, a);
      await createWorkspace(ctx.client, b);
      const ofA = (await post(ctx.client, INTEGRATION_PATH, INTEGRATION, gitlab(a))).json.metadata.uuid as string;
      const ofB = (await post(ctx.client, INTEGRATION_PATH, INTEGRATION, gitlab(b))).json.metadata.uuid as string;
      const definition = await createDefinition(ctx.client, a);
      const uuid = definition.metadata.uuid as string;
      const versionUuid = await firstVersionUuid(ctx.client, uuid);
      const withRef = (integration: string) => {
        const implementation = implementationOf('gitlabPipeline');
        return versionSpec(uuid, 1, 'gitlabPipeline', {
          implementation: {
            ...implementation,
            gitlabPipeline: { ...implementation.gitlabPipeline, integrationRef: { kind: 'meshIntegration', uuid: integration } },
          },
        });
      };
      assertError(
        await putVersion(ctx.client, versionUuid, withRef('0d4c5a1e-0000-4000-8000-000000000000')),
        422,
        /^spec\.implementation\.gitlabPipeline\.integrationRef\.uuid: meshIntegration/,
      );
      assertError(await putVersion(ctx.client, versionUuid, withRef(ofB)), 422, /integrationRef/);
      const saved = await putVersion(ctx.client, versionUuid, withRef(ofA));
      assert.equal(saved.status, 200, saved.text);
      assertError(await ctx.client.delete(`${INTEGRATION_PATH}/${ofA}`), 409, /still used by 1 meshBuildingBlockDefinitionVersions/);
      assert.equal((await get(ctx.client, `${INTEGRATION_PATH}/${ofA}`, INTEGRATION)).status, 200);
      assert.equal((await ctx.client.delete(`${INTEGRATION_PATH}/${ofB}`)).status, 204);
      assert.ok((await eventTitles()).includes('Integration Deleted'));
    });
  });
});
