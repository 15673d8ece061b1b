import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { ApiClient, Response } from './support/client.js';
import {
  assertError,
  createDefinition,
  createReleasedDefinition,
  DEFINITION,
  DEFINITION_MESHCLOUD,
  definitionBody,
  DEFINITIONS,
  definitionUuids,
  firstVersionUuid,
  getDefinition,
  getVersion,
  HASH,
  IMPLEMENTATION_TYPES,
  implementationOf,
  ISO,
  linkPath,
  listVersions,
  postVersion,
  putVersion,
  REQUIRED_IMPLEMENTATION_FIELDS,
  SHARED_TERRAFORM_RUNNER,
  UUID,
  VERSION,
  VERSION_MESHCLOUD,
  versionBody,
  versionSpec,
  VERSIONS,
  type ImplementationType,
} from './support/definitions.js';
import { clientWithKey } from './support/identity.js';
import { registerRunner } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, IMPORT_JSON, IMPORT_YAML, io, PATHS, unique, type Json } from './support/structure.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES_YAML = path.join(ROOT, 'examples', 'definitions.yaml');
const IMPORT_EXAMPLE = path.join(ROOT, 'examples', 'import.yaml');

const LIST = 'BUILDINGBLOCKDEFINITION_LIST';
const SAVE = 'BUILDINGBLOCKDEFINITION_SAVE';
const DELETE = 'BUILDINGBLOCKDEFINITION_DELETE';

const ref = (uuid: string) => ({ uuid, kind: 'meshBuildingBlockDefinition' });

/** A fresh workspace (created by the admin client). */
async function workspace(client: ApiClient, prefix = 'bbd'): Promise<string> {
  const name = unique(prefix);
  await createWorkspace(client, name);
  return name;
}

/** A definition with its one version's uuid. */
async function draftDefinition(
  client: ApiClient,
  ws: string,
  specOverrides: Json = {},
): Promise<{ uuid: string; versionUuid: string; definition: Json }> {
  const definition = await createDefinition(client, ws, specOverrides);
  const uuid = definition.metadata.uuid as string;
  return { uuid, versionUuid: await firstVersionUuid(client, uuid), definition };
}

/** A released terraform definition with an output `vpc_id`, to depend on. */
async function dependency(client: ApiClient, ws: string): Promise<string> {
  const { definition } = await createReleasedDefinition(client, ws, 'terraform', {
    outputs: { vpc_id: { displayName: 'VPC id', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
  });
  return definition.metadata.uuid;
}

/** GETs a definition (200) and returns its `status`. */
async function statusOf(client: ApiClient, uuid: string): Promise<Json> {
  const response = await getDefinition(client, uuid);
  assert.equal(response.status, 200, response.text);
  return response.json.status;
}

const byNumber = (versions: Json[]) => [...versions].sort((a, b) => a.versionNumber - b.versionNumber);

/** Fields that are sets: compared without regard to order. */
const SETS = new Set(['permissions', 'dependencyDefinitionRefs', 'supportedPlatforms', 'notificationSubscriberUsernames']);

/**
 * Asserts that every field sent comes back with the same value and JSON type (extra fields are
 * allowed); at the secret paths the response must carry exactly `{hash: "sha256:<64 hex>"}`.
 */
function assertEchoed(sent: unknown, got: unknown, where: string, secrets: ReadonlySet<string> = new Set()): void {
  if (secrets.has(where)) {
    assert.ok(
      got !== null && typeof got === 'object' && !Array.isArray(got),
      `${where}: a secret comes back as {hash}, got ${JSON.stringify(got)}`,
    );
    assert.deepEqual(Object.keys(got as object), ['hash'], `${where}: ${JSON.stringify(got)}`);
    assert.match((got as Json).hash, HASH, where);
    return;
  }
  if (Array.isArray(sent)) {
    assert.ok(Array.isArray(got), `${where}: expected an array, got ${JSON.stringify(got)}`);
    const key = where.split('.').pop() ?? '';
    const order = (list: unknown[]) =>
      SETS.has(key) ? [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : list;
    assert.deepStrictEqual(order(got as unknown[]), order(sent), where);
    return;
  }
  if (sent !== null && typeof sent === 'object') {
    assert.ok(got !== null && typeof got === 'object' && !Array.isArray(got), `${where}: expected an object, got ${JSON.stringify(got)}`);
    for (const [key, value] of Object.entries(sent)) {
      assert.ok(Object.prototype.hasOwnProperty.call(got, key), `${where}.${key} is missing in ${JSON.stringify(got)}`);
      assertEchoed(value, (got as Json)[key], `${where}.${key}`, secrets);
    }
    return;
  }
  assert.strictEqual(got, sent, `${where}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`);
}

/** JSON numbers written with a zero fraction (`16.0`) where an integer was sent. */
const FLOAT_INTEGER = /[:[,]\s*-?\d+\.0+\s*[,}\]]/;

describeEachDatabase('building block definitions', (ctx) => {
  describe('meshBuildingBlockDefinition v1-preview', () => {
    it('creates, reads, lists, replaces and deletes a definition, echoing what was sent', async () => {
      const ws = await workspace(ctx.client);
      const other = await workspace(ctx.client);
      const body = definitionBody(
        ws,
        {
          displayName: 'Storage account',
          description: 'A storage account',
          targetType: 'TENANT_LEVEL',
          supportedPlatforms: ['AZURE', { name: 'AWS', kind: 'meshPlatformType' }],
          useInLandingZonesOnly: false,
          notificationSubscriberUsernames: ['alice', 'user:bob'],
          symbol: 'data:image/png;base64,iVBORw0KGgo=',
          supportUrl: 'https://support.example.com/storage',
          documentationUrl: 'http://docs.example.com/storage',
          readme: '# Storage\n\nReadme text',
          runTransparency: true,
        },
        { tags: { team: ['platform'], env: ['dev', 'prod'] } },
      );
      const created = await ctx.client.post(DEFINITIONS, body, { headers: io(DEFINITION) });
      assert.equal(created.status, 201, created.text);
      const definition = created.json;
      assert.equal(definition.kind, 'meshBuildingBlockDefinition');
      assert.equal(definition.apiVersion, 'v1-preview');
      assert.match(definition.metadata.uuid, UUID);
      assert.equal(definition.metadata.ownedByWorkspace, ws);
      assert.deepEqual(definition.metadata.tags, { team: ['platform'], env: ['dev', 'prod'] });
      assert.match(definition.metadata.createdOn, ISO);
      assert.deepEqual(definition.spec, body.spec, 'the spec comes back as sent');
      const uuid = definition.metadata.uuid as string;
      assert.equal(linkPath(definition._links.self.href), `${DEFINITIONS}/${uuid}`);
      assert.equal(created.headers.location, definition._links.self.href);
      assert.equal(linkPath(definition._links.owner.href), `${PATHS.workspaces}/${ws}`);
      assert.equal(linkPath(definition._links.buildingblocks.href), `/api/meshobjects/meshbuildingblocks?definitionUuid=${uuid}`);

      const read = await getDefinition(ctx.client, uuid);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.json, definition);
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${ws}`), [uuid]);
      assert.deepEqual(
        await definitionUuids(ctx.client, `ownedByWorkspace=${ws}`),
        [uuid],
        'ownedByWorkspace is an alias of workspaceIdentifier',
      );
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${other}`), []);

      const replacement = definitionBody(
        ws,
        {
          displayName: 'Renamed',
          description: 'Another description',
          targetType: 'WORKSPACE_LEVEL',
          supportedPlatforms: ['GCP'],
          useInLandingZonesOnly: true,
          notificationSubscriberUsernames: [],
          symbol: 'data:image/png;base64,AAAA',
          runTransparency: false,
        },
        { uuid, tags: { team: ['apps'] } },
      );
      const put = await ctx.client.put(`${DEFINITIONS}/${uuid}`, replacement, { headers: io(DEFINITION) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json.metadata.tags, { team: ['apps'] });
      assertEchoed(replacement.spec, put.json.spec, 'spec');
      assert.equal(put.json.metadata.uuid, uuid);
      assert.equal(put.json.metadata.createdOn, definition.metadata.createdOn);
      assert.deepEqual(put.json.status.versions, definition.status.versions, 'a definition PUT keeps its versions');
      const reread = await getDefinition(ctx.client, uuid);
      assert.equal(reread.json.spec.displayName, 'Renamed');
      assert.equal(reread.json.spec.targetType, 'WORKSPACE_LEVEL');
      assert.deepEqual(reread.json.metadata.tags, { team: ['apps'] });

      assertError(
        await ctx.client.put(`${DEFINITIONS}/${uuid}`, definitionBody(ws, {}, { uuid: randomUUID() }), { headers: io(DEFINITION) }),
        400,
        /uuid/,
      );
      assertError(
        await ctx.client.put(`${DEFINITIONS}/${uuid}`, definitionBody(other, {}, { uuid }), { headers: io(DEFINITION) }),
        400,
        /ownedByWorkspace/,
      );
      assertError(
        await ctx.client.put(`${DEFINITIONS}/${uuid}`, definitionBody(ws, {}, { uuid, tags: { team: 'apps' } }), {
          headers: io(DEFINITION),
        }),
        400,
        /tags/,
      );
      const unchanged = await getDefinition(ctx.client, uuid);
      assert.equal(unchanged.json.metadata.ownedByWorkspace, ws);
      assert.equal(unchanged.json.spec.displayName, 'Renamed', 'refused PUTs change nothing');

      const deleted = await ctx.client.delete(`${DEFINITIONS}/${uuid}`);
      assert.equal(deleted.status, 202, deleted.text);
      assertError(await getDefinition(ctx.client, uuid), 404);
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${ws}`), []);
    });

    it('defaults tags to {} and symbol to a data URI; serves the meshcloud vendor; lists are enveloped even when empty', async () => {
      const ws = await workspace(ctx.client);
      const empty = await ctx.client.get(`${DEFINITIONS}?workspaceIdentifier=${ws}`, { headers: { accept: DEFINITION } });
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.json._embedded.meshBuildingBlockDefinitions, []);
      assert.equal(empty.json.page.totalElements, 0);

      const definition = await createDefinition(ctx.client, ws, { supportedPlatforms: null });
      assert.deepEqual(definition.metadata.tags, {});
      assert.equal(typeof definition.spec.symbol, 'string');
      assert.match(definition.spec.symbol, /^data:/, 'a default symbol data URI');
      assert.equal(definition.spec.displayName, 'A building block');
      assert.equal(definition.spec.description, 'Created by the black-box tests');
      assert.equal(definition.spec.targetType, 'WORKSPACE_LEVEL');
      assert.equal(definition.spec.runTransparency ?? false, false);

      const meshcloud = await getDefinition(ctx.client, definition.metadata.uuid, DEFINITION_MESHCLOUD);
      assert.equal(meshcloud.status, 200, meshcloud.text);
      assert.match(meshcloud.headers['content-type'] ?? '', /meshcloud/i);
      assert.equal(meshcloud.json.apiVersion, 'v1-preview');
      assert.equal(meshcloud.json.metadata.uuid, definition.metadata.uuid);
      const created = await ctx.client.post(DEFINITIONS, definitionBody(ws), { headers: io(DEFINITION_MESHCLOUD) });
      assert.equal(created.status, 201, created.text);
    });

    it('answers 400 naming the field for invalid definitions and creates nothing', async () => {
      const ws = await workspace(ctx.client);
      const cases: [string, Json, Json, RegExp][] = [
        ['missing displayName', { displayName: undefined }, {}, /displayName/],
        ['missing description', { description: undefined }, {}, /description/],
        ['unknown targetType', { targetType: 'PROJECT_LEVEL' }, {}, /targetType/],
        ['missing targetType', { targetType: undefined }, {}, /targetType/],
        ['TENANT_LEVEL without supportedPlatforms', { targetType: 'TENANT_LEVEL' }, {}, /supportedPlatforms/],
        ['TENANT_LEVEL with no platform', { targetType: 'TENANT_LEVEL', supportedPlatforms: [] }, {}, /supportedPlatforms/],
        ['a tag value that is a string', {}, { tags: { env: 'dev' } }, /tags/],
        ['a tag value with a number', {}, { tags: { env: ['dev', 2] } }, /tags/],
        ['subscribers not an array', { notificationSubscriberUsernames: 'alice' }, {}, /notificationSubscriberUsernames/],
        ['a subscriber not a string', { notificationSubscriberUsernames: [42] }, {}, /notificationSubscriberUsernames/],
        ['supportUrl not a URL', { supportUrl: 'not a url' }, {}, /supportUrl/],
        ['documentationUrl not http(s)', { documentationUrl: 'ftp://docs.example.com' }, {}, /documentationUrl/],
      ];
      for (const [label, spec, metadata, field] of cases) {
        const body = definitionBody(ws, spec, metadata);
        const response = await ctx.client.post(DEFINITIONS, JSON.parse(JSON.stringify(body)), { headers: io(DEFINITION) });
        assert.equal(response.status, 400, `${label}: ${response.status} ${response.text}`);
        assertError(response, 400, field);
      }
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${ws}`), [], 'no definition was created');
    });

    it('answers 422 naming an unknown owning workspace', async () => {
      const missing = unique('nows');
      const response = await ctx.client.post(DEFINITIONS, definitionBody(missing), { headers: io(DEFINITION) });
      assertError(response, 422, new RegExp(`${missing}|ownedByWorkspace`));
    });

    it('needs BUILDINGBLOCKDEFINITION_SAVE in the owning workspace to create and replace (403 otherwise)', async () => {
      const a = await workspace(ctx.client);
      const b = await workspace(ctx.client);
      const lister = await clientWithKey(ctx.client, a, [LIST]);
      const saver = await clientWithKey(ctx.client, a, [LIST, SAVE]);
      assertError(await lister.client.post(DEFINITIONS, definitionBody(a), { headers: io(DEFINITION) }), 403);
      assertError(await saver.client.post(DEFINITIONS, definitionBody(b), { headers: io(DEFINITION) }), 403);
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${b}`), []);
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${a}`), []);

      const own = await createDefinition(saver.client, a);
      assert.equal(own.metadata.ownedByWorkspace, a);
      const uuid = own.metadata.uuid as string;
      const renamed = await saver.client.put(`${DEFINITIONS}/${uuid}`, definitionBody(a, { displayName: 'By the key' }, { uuid }), {
        headers: io(DEFINITION),
      });
      assert.equal(renamed.status, 200, renamed.text);
      assertError(
        await lister.client.put(`${DEFINITIONS}/${uuid}`, definitionBody(a, { displayName: 'By the lister' }, { uuid }), {
          headers: io(DEFINITION),
        }),
        403,
      );
      assert.equal((await getDefinition(ctx.client, uuid)).json.spec.displayName, 'By the key');
    });

    it('answers 404 for unknown and malformed definition and version ids, 400 for a malformed version filter', async () => {
      assertError(await getDefinition(ctx.client, randomUUID()), 404);
      assertError(await getDefinition(ctx.client, 'not-a-uuid'), 404);
      assertError(await getVersion(ctx.client, randomUUID()), 404);
      assertError(await getVersion(ctx.client, 'not-a-uuid'), 404);
      assertError(
        await ctx.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=not-a-uuid`, { headers: { accept: VERSION } }),
        400,
        /buildingBlockDefinitionUuid/,
      );
    });
  });

  describe('meshBuildingBlockDefinitionVersion v1-preview', () => {
    it('creates version 1 as a DRAFT with the definition: latestVersion 1, latestReleasedVersion 0, exactly one version listed', async () => {
      const ws = await workspace(ctx.client);
      const definition = await createDefinition(ctx.client, ws);
      const uuid = definition.metadata.uuid as string;
      const status = definition.status;
      assert.equal(status.latestVersion, 1);
      assert.strictEqual(status.latestReleasedVersion, 0, 'latestReleasedVersion is 0, not null, before any release');
      assert.equal(status.versions.length, 1, JSON.stringify(status));
      const [entry] = status.versions;
      assert.match(entry.versionUuid, UUID);
      assert.strictEqual(entry.versionNumber, 1);
      assert.equal(entry.state, 'DRAFT');
      assert.equal(status.latestVersionUuid, entry.versionUuid);
      assert.equal(status.latestReleasedVersionUuid ?? null, null);

      const versions = await listVersions(ctx.client, uuid);
      assert.equal(versions.length, 1, 'exactly one version is listed');
      const version = versions[0]!;
      assert.equal(version.kind, 'meshBuildingBlockDefinitionVersion');
      assert.equal(version.apiVersion, 'v1-preview');
      assert.equal(version.metadata.uuid, entry.versionUuid);
      assert.equal(version.metadata.ownedByWorkspace, ws);
      assert.match(version.metadata.createdOn, ISO);
      assert.deepEqual(version.spec.buildingBlockDefinitionRef, ref(uuid));
      assert.strictEqual(version.spec.versionNumber, 1);
      assert.equal(version.spec.state, 'DRAFT');
      assert.equal(version.spec.implementation.type, 'manual');
      assert.deepEqual(version.spec.inputs, {});
      assert.deepEqual(version.spec.outputs, {});
      assert.equal(version.spec.deletionMode, 'DELETE');
      assert.strictEqual(version.spec.onlyApplyOncePerTenant, false);
      assert.strictEqual(version.spec.runnerRef, null);
      assert.deepEqual(version.spec.dependencyDefinitionRefs, []);
      assert.deepEqual(version.spec.permissions, []);
      assert.equal(linkPath(version._links.self.href), `${VERSIONS}/${entry.versionUuid}`);
      assert.equal(linkPath(version._links.buildingBlockDefinition.href), `${DEFINITIONS}/${uuid}`);

      const one = await getVersion(ctx.client, entry.versionUuid);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.json, version, 'GET one equals the list entry');
    });

    it('goes draft → release → new draft (latest + 1) → release, tracking latestVersion and latestReleasedVersion', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid: v1 } = await draftDefinition(ctx.client, ws);
      const input = { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT' };

      const edited = await putVersion(ctx.client, v1, versionSpec(uuid, 1, 'manual', { inputs: { name: input } }));
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.json.spec.state, 'DRAFT');
      assert.equal(edited.json.metadata.uuid, v1);
      assertEchoed(input, edited.json.spec.inputs.name, 'spec.inputs.name');
      let status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestVersion, 1);
      assert.strictEqual(status.latestReleasedVersion, 0);

      const released = await putVersion(ctx.client, v1, versionSpec(uuid, 1, 'manual', { state: 'RELEASED', inputs: { name: input } }));
      assert.equal(released.status, 200, released.text);
      assert.equal(released.json.spec.state, 'RELEASED');
      status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestVersion, 1);
      assert.equal(status.latestReleasedVersion, 1);
      assert.equal(status.latestVersionUuid, v1);
      assert.equal(status.latestReleasedVersionUuid, v1);
      assert.deepEqual(status.versions, [{ versionUuid: v1, versionNumber: 1, state: 'RELEASED', reviewState: 'APPROVED' }]);

      const posted = await postVersion(
        ctx.client,
        versionSpec(uuid, 2, 'manual', {
          inputs: { name: input, size: { displayName: 'Size', type: 'INTEGER', assignmentType: 'USER_INPUT' } },
        }),
      );
      assert.equal(posted.status, 201, posted.text);
      const v2 = posted.json.metadata.uuid as string;
      assert.match(v2, UUID);
      assert.notEqual(v2, v1);
      assert.equal(posted.headers.location, posted.json._links.self.href);
      assert.equal(linkPath(posted.json._links.self.href), `${VERSIONS}/${v2}`);
      assert.strictEqual(posted.json.spec.versionNumber, 2);
      assert.equal(posted.json.spec.state, 'DRAFT');
      assert.deepEqual(Object.keys(posted.json.spec.inputs).sort(), ['name', 'size']);
      const located = await ctx.client.get(posted.headers.location!, { headers: { accept: VERSION } });
      assert.equal(located.status, 200, located.text);
      assert.deepEqual(located.json.spec, posted.json.spec);
      status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestVersion, 2);
      assert.equal(status.latestVersionUuid, v2);
      assert.equal(status.latestReleasedVersion, 1);
      assert.equal(status.latestReleasedVersionUuid, v1);
      assert.deepEqual(byNumber(status.versions), [
        { versionUuid: v1, versionNumber: 1, state: 'RELEASED', reviewState: 'APPROVED' },
        { versionUuid: v2, versionNumber: 2, state: 'DRAFT' },
      ]);
      assert.deepEqual(
        byNumber((await listVersions(ctx.client, uuid)).map((v) => v.spec)).map((s) => [s.versionNumber, s.state]),
        [
          [1, 'RELEASED'],
          [2, 'DRAFT'],
        ],
      );

      const replaced = await putVersion(ctx.client, v2, versionSpec(uuid, 2, 'manual', { deletionMode: 'PURGE', inputs: { name: input } }));
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.json.spec.deletionMode, 'PURGE');
      assert.deepEqual(Object.keys(replaced.json.spec.inputs), ['name'], 'a PUT replaces the draft');

      const second = await putVersion(
        ctx.client,
        v2,
        versionSpec(uuid, 2, 'manual', { state: 'RELEASED', deletionMode: 'PURGE', inputs: { name: input } }),
      );
      assert.equal(second.status, 200, second.text);
      assert.equal(second.json.spec.state, 'RELEASED');
      status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestVersion, 2);
      assert.equal(status.latestReleasedVersion, 2);
      assert.equal(status.latestVersionUuid, v2);
      assert.equal(status.latestReleasedVersionUuid, v2);
      // Released by an admin (the API user): no publication review needed.
      assert.deepEqual(byNumber(status.versions), [
        { versionUuid: v1, versionNumber: 1, state: 'RELEASED', reviewState: 'APPROVED' },
        { versionUuid: v2, versionNumber: 2, state: 'RELEASED', reviewState: 'APPROVED' },
      ]);
      const first = await getVersion(ctx.client, v1);
      assert.deepEqual(first.json.spec, released.json.spec, 'version 1 is untouched');
    });

    it('keeps a released version immutable: a changing PUT answers 409, an identical PUT 200 unchanged', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const sent = versionSpec(uuid, 1, 'manual', {
        state: 'RELEASED',
        inputs: { name: { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT', displayOrder: 0 } },
      });
      const released = await putVersion(ctx.client, versionUuid, sent);
      assert.equal(released.status, 200, released.text);

      const same = await putVersion(ctx.client, versionUuid, sent);
      assert.equal(same.status, 200, `an identical PUT: ${same.text}`);
      assert.deepEqual(same.json.spec, released.json.spec);
      assert.deepEqual(same.json.metadata, released.json.metadata);

      const changes: [string, Json][] = [
        ['an input renamed', { ...sent, inputs: { name: { ...sent.inputs.name, displayName: 'Other' } } }],
        [
          'an input added',
          { ...sent, inputs: { ...sent.inputs, more: { displayName: 'More', type: 'STRING', assignmentType: 'USER_INPUT' } } },
        ],
        ['the deletion mode', { ...sent, deletionMode: 'PURGE' }],
        ['back to DRAFT', { ...sent, state: 'DRAFT' }],
      ];
      for (const [label, spec] of changes) {
        const response = await putVersion(ctx.client, versionUuid, spec);
        assert.equal(response.status, 409, `${label}: ${response.status} ${response.text}`);
        assertError(response, 409);
      }
      const after = await getVersion(ctx.client, versionUuid);
      assert.deepEqual(after.json.spec, released.json.spec, 'the released version is unchanged');
      const status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestReleasedVersion, 1);
    });

    it('treats a PUT of a released version that spells out the defaults (or leaves them out) as identical: 200 unchanged', async () => {
      const ws = await workspace(ctx.client);
      const input = { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT', displayOrder: 0 };
      // Released without the defaults; then the response spec (defaults spelled out) is sent back, as the Terraform provider re-applies.
      const first = await draftDefinition(ctx.client, ws);
      const released = await putVersion(
        ctx.client,
        first.versionUuid,
        versionSpec(first.uuid, 1, 'manual', { state: 'RELEASED', inputs: { name: input } }),
      );
      assert.equal(released.status, 200, released.text);
      const echoed = await putVersion(ctx.client, first.versionUuid, released.json.spec);
      assert.equal(echoed.status, 200, `re-sending the response spec of a released version: ${echoed.text}`);
      assert.deepEqual(echoed.json.spec, released.json.spec);

      // Released with every default spelled out; then the same content is sent without them.
      const second = await draftDefinition(ctx.client, ws);
      const explicit = versionSpec(second.uuid, 1, 'manual', {
        state: 'RELEASED',
        deletionMode: 'DELETE',
        onlyApplyOncePerTenant: false,
        runnerRef: null,
        dependencyDefinitionRefs: [],
        permissions: [],
        inputs: { name: input },
      });
      const withDefaults = await putVersion(ctx.client, second.versionUuid, explicit);
      assert.equal(withDefaults.status, 200, withDefaults.text);
      const without = await putVersion(
        ctx.client,
        second.versionUuid,
        versionSpec(second.uuid, 1, 'manual', { state: 'RELEASED', inputs: { name: input } }),
      );
      assert.equal(without.status, 200, `the same content without the defaults: ${without.text}`);
      assert.deepEqual(without.json.spec, withDefaults.json.spec);
    });

    it('refuses a second draft (409), a new draft that is not latest + 1 or not DRAFT (400) and a PUT with another versionNumber (400)', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid: v1 } = await draftDefinition(ctx.client, ws);
      assertError(await postVersion(ctx.client, versionSpec(uuid, 2)), 409);
      assertError(await putVersion(ctx.client, v1, versionSpec(uuid, 2)), 400, /versionNumber/);
      assert.equal((await putVersion(ctx.client, v1, versionSpec(uuid, 1, 'manual', { state: 'RELEASED' }))).status, 200);

      assertError(await postVersion(ctx.client, versionSpec(uuid, 3)), 400, /versionNumber/);
      assertError(await postVersion(ctx.client, versionSpec(uuid, 1)), 400, /versionNumber/);
      assertError(await postVersion(ctx.client, versionSpec(uuid, 2, 'manual', { state: 'RELEASED' })), 400, /state|RELEASED/);
      assert.equal((await listVersions(ctx.client, uuid)).length, 1, 'refused POSTs create nothing');

      const v2 = await postVersion(ctx.client, versionSpec(uuid, 2));
      assert.equal(v2.status, 201, v2.text);
      assertError(await postVersion(ctx.client, versionSpec(uuid, 3)), 409);
      assertError(await putVersion(ctx.client, v2.json.metadata.uuid, versionSpec(uuid, 3)), 400, /versionNumber/);
      assert.equal((await listVersions(ctx.client, uuid)).length, 2);
      const status = await statusOf(ctx.client, uuid);
      assert.equal(status.latestVersion, 2);
      assert.equal(status.latestReleasedVersion, 1);
    });

    it('refuses inputs: null and outputs: null with 400 naming them', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      assertError(await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { inputs: null })), 400, /inputs/);
      assertError(await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { outputs: null })), 400, /outputs/);
      assertError(await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'terraform', { outputs: null })), 400, /outputs/);
    });

    it('accepts every legal input combination and answers 400 naming spec.inputs.<key> for each input rule', async () => {
      const ws = await workspace(ctx.client);
      const dep = await dependency(ctx.client, ws);
      const stranger = await dependency(ctx.client, ws);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const deps = { dependencyDefinitionRefs: [ref(dep)] };
      const user = (type: string, extra: Json = {}) => ({ displayName: `A ${type}`, type, assignmentType: 'USER_INPUT', ...extra });
      const valid: Json = {
        name: user('STRING', {
          defaultValue: 'abc',
          valueValidationRegex: '^[a-z]+$',
          validationRegexErrorMessage: 'lower case',
          description: 'd',
          isEnvironment: true,
          updateableByConsumer: true,
          displayOrder: 0,
        }),
        operator: { displayName: 'Op', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT', defaultValue: 'op' },
        count: user('INTEGER', { defaultValue: 16 }),
        flag: user('BOOLEAN', { defaultValue: false }),
        file: user('FILE', { defaultValue: 'data:text/plain;base64,aGVsbG8=' }),
        list: user('LIST', { defaultValue: ['a', 'b'] }),
        single: user('SINGLE_SELECT', { selectableValues: ['s', 'm'], defaultValue: 's' }),
        multi: user('MULTI_SELECT', { selectableValues: ['a', 'b', 'c'], defaultValue: ['a', 'c'] }),
        fixed: { displayName: 'Fixed', type: 'INTEGER', assignmentType: 'STATIC', argument: 3 },
        fixed_flag: { displayName: 'Fixed flag', type: 'BOOLEAN', assignmentType: 'STATIC', argument: true },
        upstream: { displayName: 'Upstream', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: `${dep}.vpc_id` },
        tenant: { displayName: 'Tenant', type: 'STRING', assignmentType: 'PLATFORM_TENANT_ID' },
        workspace: { displayName: 'Workspace', type: 'STRING', assignmentType: 'WORKSPACE_IDENTIFIER' },
        author: { displayName: 'Author', type: 'STRING', assignmentType: 'AUTHOR' },
        secret: user('STRING', { isSensitive: true }),
        secret_code: user('CODE', { isSensitive: true, defaultValue: 'x = 1' }),
        secret_file: user('FILE', { isSensitive: true }),
      };
      const ok = await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'terraform', { ...deps, inputs: valid }));
      assert.equal(ok.status, 200, `the legal inputs: ${ok.text}`);
      assert.deepEqual(Object.keys(ok.json.spec.inputs).sort(), Object.keys(valid).sort());

      const rules: [string, Json][] = [
        ['argument_on_user_input', user('STRING', { argument: 'x' })],
        ['static_without_argument', { displayName: 'S', type: 'STRING', assignmentType: 'STATIC' }],
        ['output_without_argument', { displayName: 'O', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT' }],
        [
          'output_argument_malformed',
          { displayName: 'O', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: 'not-a-reference' },
        ],
        [
          'output_of_no_dependency',
          { displayName: 'O', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: `${stranger}.vpc_id` },
        ],
        ['default_on_static', { displayName: 'S', type: 'STRING', assignmentType: 'STATIC', argument: 'a', defaultValue: 'b' }],
        ['default_on_tenant_id', { displayName: 'T', type: 'STRING', assignmentType: 'PLATFORM_TENANT_ID', defaultValue: 'b' }],
        ['integer_default_string', user('INTEGER', { defaultValue: '16' })],
        ['integer_default_fraction', user('INTEGER', { defaultValue: 1.5 })],
        ['boolean_default_string', user('BOOLEAN', { defaultValue: 'true' })],
        ['file_default_not_data_url', user('FILE', { defaultValue: 'hello.txt' })],
        ['list_default_not_array', user('LIST', { defaultValue: 'a' })],
        ['multi_default_not_array', user('MULTI_SELECT', { selectableValues: ['a', 'b'], defaultValue: 'a' })],
        ['single_default_not_selectable', user('SINGLE_SELECT', { selectableValues: ['s', 'm'], defaultValue: 'xl' })],
        ['static_integer_argument_string', { displayName: 'S', type: 'INTEGER', assignmentType: 'STATIC', argument: '3' }],
        ['static_boolean_argument_string', { displayName: 'S', type: 'BOOLEAN', assignmentType: 'STATIC', argument: 'true' }],
        ['single_without_values', user('SINGLE_SELECT')],
        ['multi_without_values', user('MULTI_SELECT')],
        ['values_on_string', user('STRING', { selectableValues: ['a', 'b'] })],
        ['regex_not_compiling', user('STRING', { valueValidationRegex: '([a-z' })],
        ['sensitive_integer', user('INTEGER', { isSensitive: true })],
        ['sensitive_boolean', user('BOOLEAN', { isSensitive: true })],
        ['file_as_environment', user('FILE', { isEnvironment: true })],
        ['unknown_type', user('FLOAT')],
        ['unknown_assignment', { displayName: 'U', type: 'STRING', assignmentType: 'ANYONE' }],
      ];
      const failures: string[] = [];
      for (const [key, input] of rules) {
        const response = await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'terraform', { ...deps, inputs: { ...valid, [key]: input } }),
        );
        if (response.status !== 400) failures.push(`${key}: expected 400, got ${response.status} ${response.text.slice(0, 300)}`);
        else {
          const message = String(response.json.message);
          if (!message.includes(`spec.inputs.${key}`)) failures.push(`${key}: the message does not name spec.inputs.${key}: ${message}`);
        }
      }
      assert.deepEqual(failures, [], failures.join('\n'));
      const after = await getVersion(ctx.client, versionUuid);
      assert.deepEqual(after.json.spec, ok.json.spec, 'refused PUTs change nothing');
    });

    it('derives a manual version outputs from its inputs, keeps overrides, refuses unmatched keys and other types', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const inputs: Json = {
        zeta: { displayName: 'Zeta', type: 'STRING', assignmentType: 'USER_INPUT', displayOrder: 0 },
        alpha: { displayName: 'Alpha', type: 'SINGLE_SELECT', assignmentType: 'USER_INPUT', selectableValues: ['x', 'y'], displayOrder: 2 },
        beta: { displayName: 'Beta', type: 'MULTI_SELECT', assignmentType: 'USER_INPUT', selectableValues: ['x'], displayOrder: 1 },
        gamma: { displayName: 'Gamma', type: 'LIST', assignmentType: 'USER_INPUT', displayOrder: 1 },
        delta: { displayName: 'Delta', type: 'FILE', assignmentType: 'USER_INPUT', displayOrder: 3 },
        eps: { displayName: 'Eps', type: 'INTEGER', assignmentType: 'USER_INPUT', displayOrder: 5 },
        eta: { displayName: 'Eta', type: 'BOOLEAN', assignmentType: 'USER_INPUT', displayOrder: 4 },
        theta: { displayName: 'Theta', type: 'CODE', assignmentType: 'USER_INPUT', displayOrder: 6 },
      };
      const locked: Json = {
        zeta: 'STRING',
        alpha: 'STRING',
        beta: 'CODE',
        gamma: 'CODE',
        delta: 'CODE',
        eps: 'INTEGER',
        eta: 'BOOLEAN',
        theta: 'CODE',
      };
      const rankOrder = ['zeta', 'beta', 'gamma', 'alpha', 'delta', 'eta', 'eps', 'theta'];

      const derived = await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { inputs, outputs: {} }));
      assert.equal(derived.status, 200, derived.text);
      const outputs = derived.json.spec.outputs;
      assert.deepEqual(Object.keys(outputs).sort(), Object.keys(inputs).sort(), 'one output per input');
      for (const [key, input] of Object.entries(inputs)) {
        assert.equal(outputs[key].displayName, input.displayName, `${key} displayName`);
        assert.equal(outputs[key].type, locked[key], `${key} type`);
        assert.equal(outputs[key].assignmentType, 'NONE', `${key} assignmentType`);
        assert.ok(Number.isInteger(outputs[key].displayOrder), `${key} displayOrder is an integer`);
      }
      const orders = rankOrder.map((key) => outputs[key].displayOrder as number);
      assert.ok(orders[0] === 0 || orders[0] === 1, `ranks start at 0 or 1: ${orders.join(',')}`);
      orders.forEach((order, i) =>
        assert.equal(
          order,
          orders[0]! + i,
          `displayOrder is the rank by (displayOrder, key): ${rankOrder.join(',')} → ${orders.join(',')}`,
        ),
      );
      const listed = (await listVersions(ctx.client, uuid))[0]!;
      assert.deepEqual(listed.spec, derived.json.spec, 'the list entry equals the PUT response spec');

      const override = { displayName: 'Size', type: 'STRING', assignmentType: 'SUMMARY', displayOrder: 0 };
      const overridden = await putVersion(
        ctx.client,
        versionUuid,
        versionSpec(uuid, 1, 'manual', { inputs, outputs: { alpha: override } }),
      );
      assert.equal(overridden.status, 200, overridden.text);
      assert.deepEqual(overridden.json.spec.outputs.alpha, override, 'an override comes back as sent');
      assert.equal(overridden.json.spec.outputs.eps.type, 'INTEGER', 'the others are still derived');
      assert.deepEqual(Object.keys(overridden.json.spec.outputs).sort(), Object.keys(inputs).sort());

      const unmatched = await putVersion(
        ctx.client,
        versionUuid,
        versionSpec(uuid, 1, 'manual', {
          inputs,
          outputs: { ghost: { displayName: 'Ghost', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
        }),
      );
      assertError(unmatched, 400, /ghost/);
      const noInputs = await putVersion(
        ctx.client,
        versionUuid,
        versionSpec(uuid, 1, 'manual', {
          inputs: {},
          outputs: { ghost: { displayName: 'Ghost', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
        }),
      );
      assertError(noInputs, 400, /ghost/);
      assertError(
        await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'manual', {
            inputs,
            outputs: { eps: { displayName: 'Eps', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 } },
          }),
        ),
        400,
        /eps/,
      );
      assertError(
        await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'manual', {
            inputs,
            outputs: { alpha: { displayName: 'Alpha', type: 'CODE', assignmentType: 'NONE', displayOrder: 0 } },
          }),
        ),
        400,
        /alpha/,
      );
      assert.deepEqual((await getVersion(ctx.client, versionUuid)).json.spec, overridden.json.spec, 'refused PUTs change nothing');
    });

    it('echoes a full terraform version (displayOrder 0, the shared runner, a plaintext sshPrivateKey) with the same JSON types; the next list entry is identical', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const sshPrivateKey = `-----BEGIN OPENSSH PRIVATE KEY-----\n${randomUUID()}${randomUUID()}\n-----END OPENSSH PRIVATE KEY-----\n`;
      const password = `pw-${randomUUID()}`;
      const token = `tok-${randomUUID()}`;
      const spec: Json = {
        buildingBlockDefinitionRef: ref(uuid),
        versionNumber: 1,
        state: 'DRAFT',
        onlyApplyOncePerTenant: true,
        deletionMode: 'PURGE',
        runnerRef: { uuid: SHARED_TERRAFORM_RUNNER, kind: 'meshBuildingBlockRunner' },
        dependencyDefinitionRefs: [],
        permissions: ['TENANT_LIST', 'WORKSPACE_LIST'],
        implementation: {
          type: 'terraform',
          terraform: {
            terraformVersion: '1.9.8',
            repositoryUrl: 'git@github.com:example/infrastructure.git',
            async: true,
            useMeshHttpBackendFallback: true,
            repositoryPath: 'modules/network',
            refName: 'v1.2.3',
            sshKnownHost: {
              host: 'github.com',
              keyType: 'ssh-ed25519',
              keyValue: 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
            },
            sshPrivateKey,
          },
        },
        inputs: {
          region: {
            displayName: 'Region',
            type: 'SINGLE_SELECT',
            assignmentType: 'USER_INPUT',
            selectableValues: ['eu-west-1', 'us-east-1'],
            defaultValue: 'eu-west-1',
            displayOrder: 0,
            isEnvironment: false,
            isSensitive: false,
            updateableByConsumer: true,
            description: 'Where it runs',
          },
          size: {
            displayName: 'Size',
            type: 'INTEGER',
            assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT',
            defaultValue: 16,
            displayOrder: 1,
            valueValidationRegex: '^[0-9]+$',
            validationRegexErrorMessage: 'digits only',
          },
          enabled: {
            displayName: 'Enabled',
            type: 'BOOLEAN',
            assignmentType: 'STATIC',
            argument: false,
            displayOrder: 2,
            isEnvironment: true,
          },
          labels: { displayName: 'Labels', type: 'LIST', assignmentType: 'USER_INPUT', defaultValue: ['a', 'b'], displayOrder: 3 },
          password: {
            displayName: 'Password',
            type: 'STRING',
            assignmentType: 'USER_INPUT',
            isSensitive: true,
            defaultValue: password,
            displayOrder: 4,
          },
          token: {
            displayName: 'Token',
            type: 'STRING',
            assignmentType: 'STATIC',
            isSensitive: true,
            argument: { plaintext: token },
            displayOrder: 5,
          },
          tenant: { displayName: 'Tenant', type: 'STRING', assignmentType: 'PLATFORM_TENANT_ID', displayOrder: 6, isEnvironment: true },
          workspace: { displayName: 'Workspace', type: 'STRING', assignmentType: 'WORKSPACE_IDENTIFIER', displayOrder: 7 },
        },
        outputs: {
          vpc_id: { displayName: 'VPC', type: 'STRING', assignmentType: 'NONE', displayOrder: 0 },
          console: { displayName: 'Console', type: 'STRING', assignmentType: 'SIGN_IN_URL', displayOrder: 1 },
          summary: { displayName: 'Summary', type: 'CODE', assignmentType: 'SUMMARY', displayOrder: 2 },
          count: { displayName: 'Count', type: 'INTEGER', assignmentType: 'NONE', displayOrder: 3 },
          ready: { displayName: 'Ready', type: 'BOOLEAN', assignmentType: 'NONE', displayOrder: 4 },
          url: { displayName: 'URL', type: 'STRING', assignmentType: 'RESOURCE_URL', displayOrder: 5 },
          tenant_id: { displayName: 'Tenant id', type: 'STRING', assignmentType: 'PLATFORM_TENANT_ID', displayOrder: 6 },
        },
      };
      const secrets = new Set([
        'spec.implementation.terraform.sshPrivateKey',
        'spec.inputs.password.defaultValue',
        'spec.inputs.token.argument',
      ]);
      // The Terraform provider's request: meshcloud vendor, camel-cased kind, empty metadata fields.
      const headers = io(VERSION_MESHCLOUD);
      const put = await ctx.client.put(`${VERSIONS}/${versionUuid}`, versionBody(spec, { uuid: '', createdOn: '', ownedByWorkspace: ws }), {
        headers,
      });
      assert.equal(put.status, 200, put.text);
      assert.match(put.headers['content-type'] ?? '', /meshcloud/i);
      assert.equal(put.json.metadata.uuid, versionUuid);
      assert.equal(put.json.metadata.ownedByWorkspace, ws);
      assert.match(put.json.metadata.createdOn, ISO);
      assertEchoed(spec, put.json.spec, 'spec', secrets);
      for (const [key, input] of Object.entries(put.json.spec.inputs as Json)) {
        assert.ok(Object.prototype.hasOwnProperty.call(input, 'defaultValue'), `spec.inputs.${key}.defaultValue is always present`);
      }
      for (const key of ['enabled', 'token', 'tenant', 'workspace'])
        assert.strictEqual(put.json.spec.inputs[key].defaultValue, null, `spec.inputs.${key}.defaultValue is null`);
      assert.doesNotMatch(put.text, FLOAT_INTEGER, 'integers stay integers');
      const texts = [put.text];

      const listed = await ctx.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION_MESHCLOUD } });
      assert.equal(listed.status, 200, listed.text);
      texts.push(listed.text);
      const entries = listed.json._embedded.meshBuildingBlockDefinitionVersions as Json[];
      assert.equal(entries.length, 1);
      assert.deepEqual(entries[0]!.spec, put.json.spec, 'the next list entry equals the PUT response spec');
      const one = await getVersion(ctx.client, versionUuid, VERSION_MESHCLOUD);
      texts.push(one.text);
      assert.deepEqual(one.json.spec, put.json.spec);

      // The provider's next apply sends back what it holds: the same spec with the hashes.
      const again = await ctx.client.put(
        `${VERSIONS}/${versionUuid}`,
        versionBody(put.json.spec, { uuid: versionUuid, ownedByWorkspace: ws }),
        { headers },
      );
      texts.push(again.text);
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.json.spec, put.json.spec, 'secrets re-sent as {hash} are kept');
      const released = await ctx.client.put(`${VERSIONS}/${versionUuid}`, versionBody({ ...put.json.spec, state: 'RELEASED' }), {
        headers,
      });
      texts.push(released.text);
      assert.equal(released.status, 200, released.text);
      assert.deepEqual({ ...released.json.spec, state: 'DRAFT' }, put.json.spec);
      for (const text of texts) {
        for (const secret of [sshPrivateKey, password, token, sshPrivateKey.split('\n')[1]!])
          assert.ok(!text.includes(secret), `a plaintext secret appears in a response: ${text}`);
      }
    });

    it('never returns secrets in plaintext, keeps them by {hash}, refuses a wrong hash with 409 and rotates on new plaintext', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const trigger = `trigger-${randomUUID()}`;
      const rotated = `rotated-${randomUUID()}`;
      const password = `password-${randomUUID()}`;
      const fileSecret = Buffer.from(`file-secret-${randomUUID()}`).toString('base64');
      const texts: string[] = [];
      const record = (response: Response) => {
        texts.push(response.text);
        return response;
      };
      const spec = (token: Json | string, passwordValue: Json | string, file: Json | string, displayName = 'Password') =>
        versionSpec(uuid, 1, 'gitlabPipeline', {
          implementation: { type: 'gitlabPipeline', gitlabPipeline: { projectId: '4711', refName: 'main', pipelineTriggerToken: token } },
          inputs: {
            password: { displayName, type: 'STRING', assignmentType: 'USER_INPUT', isSensitive: true, defaultValue: passwordValue },
            kubeconfig: {
              displayName: 'Kubeconfig',
              type: 'FILE',
              assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT',
              isSensitive: true,
              defaultValue: file,
            },
          },
        });

      const created = record(
        await putVersion(
          ctx.client,
          versionUuid,
          spec({ plaintext: trigger }, { plaintext: password }, `data:text/plain;base64,${fileSecret}`),
        ),
      );
      assert.equal(created.status, 200, created.text);
      const tokenHash = created.json.spec.implementation.gitlabPipeline.pipelineTriggerToken;
      const passwordHash = created.json.spec.inputs.password.defaultValue;
      const fileHash = created.json.spec.inputs.kubeconfig.defaultValue;
      for (const [name, value] of Object.entries({ tokenHash, passwordHash, fileHash })) {
        assert.deepEqual(Object.keys(value ?? {}), ['hash'], `${name}: ${JSON.stringify(value)}`);
        assert.match(value.hash, HASH, name);
      }
      assert.equal(new Set([tokenHash.hash, passwordHash.hash, fileHash.hash]).size, 3, 'different values, different hashes');

      record(await getVersion(ctx.client, versionUuid));
      record(await ctx.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION } }));
      record(await getDefinition(ctx.client, uuid));

      const kept = record(await putVersion(ctx.client, versionUuid, spec(tokenHash, passwordHash, fileHash, 'Renamed')));
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual(kept.json.spec.implementation.gitlabPipeline.pipelineTriggerToken, tokenHash);
      assert.deepEqual(kept.json.spec.inputs.password.defaultValue, passwordHash);
      assert.deepEqual(kept.json.spec.inputs.kubeconfig.defaultValue, fileHash);
      assert.equal(kept.json.spec.inputs.password.displayName, 'Renamed');

      const wrong = (hash: Json) => ({ hash: `sha256:${(hash.hash.endsWith('0') ? '1' : '0').repeat(64)}` });
      assertError(record(await putVersion(ctx.client, versionUuid, spec(wrong(tokenHash), passwordHash, fileHash, 'Refused'))), 409);
      assertError(record(await putVersion(ctx.client, versionUuid, spec(tokenHash, wrong(passwordHash), fileHash, 'Refused'))), 409);
      assertError(record(await putVersion(ctx.client, versionUuid, spec(tokenHash, passwordHash, passwordHash, 'Refused'))), 409);
      const unchanged = record(await getVersion(ctx.client, versionUuid));
      assert.equal(unchanged.json.spec.inputs.password.displayName, 'Renamed', 'a refused PUT changes nothing');
      assert.deepEqual(unchanged.json.spec.implementation.gitlabPipeline.pipelineTriggerToken, tokenHash);

      const rotation = record(await putVersion(ctx.client, versionUuid, spec(rotated, passwordHash, fileHash)));
      assert.equal(rotation.status, 200, rotation.text);
      const newHash = rotation.json.spec.implementation.gitlabPipeline.pipelineTriggerToken;
      assert.match(newHash.hash, HASH);
      assert.notEqual(newHash.hash, tokenHash.hash, 'new plaintext, new hash');
      assert.deepEqual(rotation.json.spec.inputs.password.defaultValue, passwordHash);

      const released = record(await putVersion(ctx.client, versionUuid, { ...spec(newHash, passwordHash, fileHash), state: 'RELEASED' }));
      assert.equal(released.status, 200, released.text);
      const identical = record(await putVersion(ctx.client, versionUuid, { ...spec(newHash, passwordHash, fileHash), state: 'RELEASED' }));
      assert.equal(identical.status, 200, `a released version re-sent with its hashes is identical: ${identical.text}`);
      assert.deepEqual(identical.json.spec, released.json.spec);
      record(await getDefinition(ctx.client, uuid));
      record(await ctx.client.get(`${DEFINITIONS}?workspaceIdentifier=${ws}`, { headers: { accept: DEFINITION } }));

      for (const text of texts) {
        for (const secret of [trigger, rotated, password, fileSecret])
          assert.ok(!text.includes(secret), `a plaintext secret appears in a response: ${text}`);
      }
    });

    it('answers 400 naming spec.implementation.<type>.<field> for each missing required implementation field', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const failures: string[] = [];
      for (const type of IMPLEMENTATION_TYPES) {
        for (const field of REQUIRED_IMPLEMENTATION_FIELDS[type]) {
          for (const value of [undefined, null]) {
            const implementation = implementationOf(type);
            if (value === undefined) delete implementation[type][field];
            else implementation[type][field] = value;
            const response = await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, type, { implementation }));
            const name = `spec.implementation.${type}.${field}`;
            if (response.status !== 400)
              failures.push(`${name} = ${value}: expected 400, got ${response.status} ${response.text.slice(0, 200)}`);
            else if (!String(response.json.message).includes(name))
              failures.push(`${name} = ${value}: the message does not name it: ${response.json.message}`);
          }
        }
      }
      assert.deepEqual(failures, [], failures.join('\n'));
      assertError(
        await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { implementation: { type: 'pulumi', pulumi: {} } })),
        400,
        /implementation/,
      );
      assertError(
        await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { implementation: null })),
        400,
        /implementation/,
      );
      const untouched = await getVersion(ctx.client, versionUuid);
      assert.equal(untouched.json.spec.implementation.type, 'manual', 'refused PUTs change nothing');
    });

    it('accepts and releases a valid version of every implementation type, echoing the implementation', async () => {
      const ws = await workspace(ctx.client);
      for (const type of IMPLEMENTATION_TYPES) {
        const { definition, version } = await createReleasedDefinition(ctx.client, ws, type as ImplementationType);
        const sent = implementationOf(type);
        if (type === 'manual') assert.equal(version.spec.implementation.type, 'manual');
        else assertEchoed(sent, version.spec.implementation, `${type}: spec.implementation`);
        assert.strictEqual(version.spec.runnerRef, null, `${type}: no runnerRef sent → null (the shared runner)`);
        const status = await statusOf(ctx.client, definition.metadata.uuid);
        assert.equal(status.latestReleasedVersion, 1, type);
      }
    });

    it('answers 422 for an unknown runner, a runner of another implementation type and an unknown dependency; 400 for unknown or ADM_ permissions', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, ws);
      const unknownRunner = randomUUID();
      assertError(
        await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'terraform', { runnerRef: { uuid: unknownRunner, kind: 'meshBuildingBlockRunner' } }),
        ),
        422,
        new RegExp(`runnerRef|${unknownRunner}`),
      );
      const terraformRunner = (await registerRunner(ctx.client, ws)).metadata.uuid as string;
      assertError(
        await putVersion(
          ctx.client,
          versionUuid,
          versionSpec(uuid, 1, 'githubWorkflows', { runnerRef: { uuid: terraformRunner, kind: 'meshBuildingBlockRunner' } }),
        ),
        422,
        /runnerRef|runner/,
      );
      const unknownDefinition = randomUUID();
      assertError(
        await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { dependencyDefinitionRefs: [ref(unknownDefinition)] })),
        422,
        new RegExp(`dependencyDefinitionRefs|${unknownDefinition}`),
      );
      assertError(
        await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { permissions: ['NOT_A_PERMISSION'] })),
        400,
        /permissions|NOT_A_PERMISSION/,
      );
      assertError(
        await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { permissions: ['ADM_TENANT_LIST'] })),
        400,
        /permissions|ADM_TENANT_LIST/,
      );
      const orphan = await postVersion(ctx.client, versionSpec(randomUUID(), 2));
      assert.ok([404, 422].includes(orphan.status), `a version of an unknown definition: ${orphan.status} ${orphan.text}`);

      const dep = await dependency(ctx.client, ws);
      const ok = await putVersion(
        ctx.client,
        versionUuid,
        versionSpec(uuid, 1, 'terraform', {
          runnerRef: { uuid: SHARED_TERRAFORM_RUNNER, kind: 'meshBuildingBlockRunner' },
          dependencyDefinitionRefs: [ref(dep)],
          permissions: ['TENANT_LIST'],
        }),
      );
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.json.spec.runnerRef, { uuid: SHARED_TERRAFORM_RUNNER, kind: 'meshBuildingBlockRunner' });
      assert.deepEqual(ok.json.spec.dependencyDefinitionRefs, [ref(dep)]);
      assert.deepEqual(ok.json.spec.permissions, ['TENANT_LIST']);
    });

    it('needs BUILDINGBLOCKDEFINITION_SAVE in the owning workspace to write versions', async () => {
      const a = await workspace(ctx.client);
      const b = await workspace(ctx.client);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, a);
      const lister = await clientWithKey(ctx.client, a, [LIST]);
      const saver = await clientWithKey(ctx.client, a, [LIST, SAVE]);
      const stranger = await clientWithKey(ctx.client, b, [LIST, SAVE]);
      const renamed = versionSpec(uuid, 1, 'manual', {
        inputs: { name: { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT' } },
      });

      assertError(await putVersion(lister.client, versionUuid, renamed), 403);
      const invisible = await putVersion(stranger.client, versionUuid, renamed);
      assert.ok(
        [403, 404].includes(invisible.status),
        `another workspace writing a draft-only definition version: ${invisible.status} ${invisible.text}`,
      );
      assert.deepEqual((await getVersion(ctx.client, versionUuid)).json.spec.inputs, {}, 'refused PUTs change nothing');

      const byOwner = await putVersion(saver.client, versionUuid, renamed);
      assert.equal(byOwner.status, 200, byOwner.text);
      const listed = await listVersions(lister.client, uuid);
      assert.equal(listed.length, 1, 'the owner lists its versions');
      assert.equal((await putVersion(ctx.client, versionUuid, { ...renamed, state: 'RELEASED' })).status, 200);

      assertError(await postVersion(lister.client, versionSpec(uuid, 2)), 403);
      assertError(await postVersion(stranger.client, versionSpec(uuid, 2)), 403);
      assert.equal((await listVersions(ctx.client, uuid)).length, 1);
      const draft = await postVersion(saver.client, versionSpec(uuid, 2));
      assert.equal(draft.status, 201, draft.text);
      // A published definition's draft is invisible to other workspaces (404); its released versions are visible, not theirs (403).
      assertError(
        await putVersion(stranger.client, draft.json.metadata.uuid, versionSpec(uuid, 2, 'manual', { deletionMode: 'PURGE' })),
        404,
      );
      assertError(await putVersion(stranger.client, versionUuid, renamed), 403);
    });
  });

  describe('marketplace visibility', () => {
    it('shows a definition to another workspace only once a version is released, its released version as offered, never its version list (403)', async () => {
      const a = await workspace(ctx.client, 'mkt-a');
      const b = await workspace(ctx.client, 'mkt-b');
      const owner = await clientWithKey(ctx.client, a, [LIST]);
      const other = await clientWithKey(ctx.client, b, [LIST]);
      const { uuid, versionUuid } = await draftDefinition(ctx.client, a);

      // The owner sees its draft-only definition and its versions; admins see everything.
      assert.equal((await getDefinition(owner.client, uuid)).status, 200);
      assert.ok((await definitionUuids(owner.client, `workspaceIdentifier=${a}`)).includes(uuid));
      assert.equal((await listVersions(owner.client, uuid)).length, 1);
      assert.equal((await getVersion(owner.client, versionUuid)).status, 200);
      assert.ok((await definitionUuids(ctx.client, `workspaceIdentifier=${a}`)).includes(uuid));

      // Before a release: invisible to workspace B.
      assertError(await getDefinition(other.client, uuid), 404);
      assert.ok(
        !(await definitionUuids(other.client, 'includeAllPublished=true')).includes(uuid),
        'not in the marketplace before a release',
      );
      assert.ok(!(await definitionUuids(other.client, `workspaceIdentifier=${a}`)).includes(uuid));
      assertError(await getVersion(other.client, versionUuid), 404);
      assertError(await other.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION } }), 404);

      const released = await putVersion(ctx.client, versionUuid, versionSpec(uuid, 1, 'manual', { state: 'RELEASED' }));
      assert.equal(released.status, 200, released.text);

      const seen = await getDefinition(other.client, uuid);
      assert.equal(seen.status, 200, seen.text);
      assert.equal(seen.json.metadata.ownedByWorkspace, a);
      assert.equal(seen.json.status.latestReleasedVersion, 1);
      assert.ok((await definitionUuids(other.client, 'includeAllPublished=true')).includes(uuid), 'in the marketplace after a release');
      // The released version is read as offered (for ordering, test/ordering.test.ts); the list stays the owner's.
      const offered = await getVersion(other.client, versionUuid);
      assert.equal(offered.status, 200, offered.text);
      assert.equal(offered.json.spec.implementation, undefined, 'not its implementation');
      assertError(await other.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION } }), 403);
      assert.equal((await listVersions(owner.client, uuid)).length, 1, 'the owner still reads its versions');

      // A draft-only definition of A stays hidden while the released one is visible.
      const hidden = await createDefinition(ctx.client, a);
      assertError(await getDefinition(other.client, hidden.metadata.uuid), 404);
      assert.ok(!(await definitionUuids(other.client, 'includeAllPublished=true')).includes(hidden.metadata.uuid));
    });
  });

  describe('deletion', () => {
    it('deletes a definition with its versions: 202, then 404 for the definition and every version', async () => {
      const ws = await workspace(ctx.client);
      const { uuid, versionUuid: v1 } = await draftDefinition(ctx.client, ws);
      assert.equal((await putVersion(ctx.client, v1, versionSpec(uuid, 1, 'manual', { state: 'RELEASED' }))).status, 200);
      const v2 = await postVersion(ctx.client, versionSpec(uuid, 2));
      assert.equal(v2.status, 201, v2.text);
      const survivor = await createDefinition(ctx.client, ws);

      const deleted = await ctx.client.delete(`${DEFINITIONS}/${uuid}`);
      assert.equal(deleted.status, 202, deleted.text);
      assertError(await getDefinition(ctx.client, uuid), 404);
      assertError(await getVersion(ctx.client, v1), 404);
      assertError(await getVersion(ctx.client, v2.json.metadata.uuid), 404);
      const list = await ctx.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION } });
      if (list.status === 200) assert.deepEqual(list.json._embedded.meshBuildingBlockDefinitionVersions, [], 'no versions are left');
      else assertError(list, 404);
      assert.deepEqual(await definitionUuids(ctx.client, `workspaceIdentifier=${ws}`), [survivor.metadata.uuid]);
      assert.equal((await listVersions(ctx.client, survivor.metadata.uuid)).length, 1, 'other definitions keep their versions');
    });

    it('lets the owning workspace delete with BUILDINGBLOCKDEFINITION_DELETE, never another workspace', async () => {
      const a = await workspace(ctx.client);
      const b = await workspace(ctx.client);
      const { uuid } = await createReleasedDefinition(ctx.client, a).then(({ definition }) => ({
        uuid: definition.metadata.uuid as string,
      }));
      const stranger = await clientWithKey(ctx.client, b, [LIST, SAVE, DELETE]);
      const refused = await stranger.client.delete(`${DEFINITIONS}/${uuid}`);
      assert.ok([403, 404].includes(refused.status), `DELETE by another workspace: ${refused.status} ${refused.text}`);
      assert.equal((await getDefinition(ctx.client, uuid)).status, 200, 'still there');
      const owner = await clientWithKey(ctx.client, a, [LIST, SAVE, DELETE]);
      const deleted = await owner.client.delete(`${DEFINITIONS}/${uuid}`);
      assert.equal(deleted.status, 202, deleted.text);
      assertError(await getDefinition(ctx.client, uuid), 404);
    });
  });

  describe('shipped examples', () => {
    it('follows the README: POST a definition, PUT its version 1 draft with state RELEASED', async () => {
      const ws = await workspace(ctx.client);
      // The README's request bodies, as written there (no apiVersion or kind, a ref without kind).
      const created = await ctx.client.post(
        DEFINITIONS,
        { metadata: { ownedByWorkspace: ws }, spec: { displayName: 'Hello', description: 'says hello', targetType: 'WORKSPACE_LEVEL' } },
        { headers: io(DEFINITION) },
      );
      assert.equal(created.status, 201, created.text);
      const versionUuid = /"versionUuid":"([^"]*)"/.exec(created.text)?.[1];
      assert.ok(versionUuid, `the README extracts versionUuid from ${created.text}`);
      const put = await ctx.client.put(
        `${VERSIONS}/${versionUuid}`,
        {
          spec: {
            buildingBlockDefinitionRef: { uuid: created.json.metadata.uuid },
            versionNumber: 1,
            state: 'RELEASED',
            implementation: { type: 'manual' },
            inputs: { name: { displayName: 'Name', type: 'STRING', assignmentType: 'USER_INPUT' } },
            outputs: {},
          },
        },
        { headers: io(VERSION) },
      );
      assert.equal(put.status, 200, put.text);
      assert.equal(put.json.spec.state, 'RELEASED');
      assert.equal((await statusOf(ctx.client, created.json.metadata.uuid)).latestReleasedVersion, 1);
    });

    it('imports examples/definitions.yaml as the README says (after import.yaml): every definition released with the version the file describes, every implementation type', async () => {
      const structure = await ctx.client.put(PATHS.import, await readFile(IMPORT_EXAMPLE, 'utf8'), {
        headers: { accept: IMPORT_JSON, 'content-type': IMPORT_YAML },
      });
      assert.equal(structure.status, 200, structure.text);
      const text = await readFile(EXAMPLES_YAML, 'utf8');
      const documents = parseAllDocuments(text).map((d) => d.toJS() as Json);
      const definitions = documents.filter((d) => d.kind === 'meshBuildingBlockDefinition');
      const versions = documents.filter((d) => d.kind === 'meshBuildingBlockDefinitionVersion');
      assert.ok(definitions.length > 0, 'the file holds definitions');
      const imported = await ctx.client.put(PATHS.import, text, { headers: { accept: IMPORT_JSON, 'content-type': IMPORT_YAML } });
      assert.equal(imported.status, 200, imported.text);
      for (const entry of imported.json as Json[]) assert.equal(entry.status, 'SUCCESS', JSON.stringify(entry));

      const types = new Set<string>();
      for (const definition of definitions) {
        const uuid = definition.metadata.uuid as string;
        const read = await getDefinition(ctx.client, uuid);
        assert.equal(read.status, 200, `${uuid}: ${read.text}`);
        assertEchoed(definition.spec, read.json.spec, `${uuid} spec`);
        assert.equal(read.json.status.latestReleasedVersion, 1, `${definition.spec.displayName} ends RELEASED`);
        const [listed, ...more] = await listVersions(ctx.client, uuid);
        assert.equal(more.length, 0, `${definition.spec.displayName} has one version`);
        assert.equal(listed!.spec.state, 'RELEASED');
        const described = versions.find((v) => v.spec.buildingBlockDefinitionRef.uuid === uuid);
        assert.ok(described, `the file holds a version of ${uuid}`);
        const secrets = new Set<string>();
        for (const [field, value] of Object.entries(described.spec.implementation[described.spec.implementation.type] ?? {})) {
          if (value !== null && typeof value === 'object' && 'plaintext' in value)
            secrets.add(`spec.implementation.${described.spec.implementation.type}.${field}`);
        }
        const { implementation, ...rest } = described.spec;
        assertEchoed(rest, listed!.spec, `${uuid} version spec`, secrets);
        if (implementation.type !== 'manual') assertEchoed(implementation, listed!.spec.implementation, 'spec.implementation', secrets);
        types.add(listed!.spec.implementation.type);
      }
      assert.deepEqual([...types].sort(), [...IMPLEMENTATION_TYPES].sort(), 'one example per implementation type');
    });
  });
});
