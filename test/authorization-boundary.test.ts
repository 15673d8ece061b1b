/**
 * The authorization boundary between workspaces. A key of workspace A (ordinary, non-ADM_
 * permissions) must neither use workspace B's objects nor learn that they exist:
 *   1. a PUT cannot make B's block the parent of A's block (which would hand B's outputs to A's runs);
 *   2. every answer about B's object equals the answer about a non-existent one (no oracle);
 *   3. uuids are matched whatever their letter case;
 *   4. a sensitive input is sealed (or refused) whatever the JSON type of its plaintext.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { media, type ApiClient, type Response } from './support/client.js';
import {
  BLOCK_V2,
  BLOCKS,
  blockUuids,
  claimRun,
  createBlockV2,
  finishRun,
  getBlock,
  postBlock,
  putBlock,
  readBlock,
  row,
  tenantTarget,
  v1Body,
  v2Body,
  workspaceTarget,
  type Representation,
} from './support/blocks.js';
import { boundaryWorld, normalized, oracleDifferences, pathsOfValue, upper, type BoundaryWorld, type Probe } from './support/boundary.js';
import { createReleasedDefinition, getDefinition, getVersion, HASH, postVersion, putVersion, versionSpec } from './support/definitions.js';
import { getRun, getRunner, logs, patch, readRun, register, RUN, runnerDefinition, RUNS, TENANT_LEVEL } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { clientWithKey } from './support/identity.js';
import { io, PATHS, TENANT, unique, type Json } from './support/structure.js';

const REPRESENTATIONS: Representation[] = ['v1', 'v2'];
const DEFINITION_REF = 'meshBuildingBlockDefinition';

/** Fails with the findings, one a line, unless there are none. */
function assertNone(failures: string[], what: string): void {
  if (failures.length > 0) assert.fail(`${what}:\n  - ${failures.join('\n  - ')}`);
}

/** The number of runs a block has had (admin view). */
async function runCount(admin: ApiClient, blockUuid: string): Promise<number> {
  const response = await admin.get(`${RUNS}?buildingBlockUuid=${blockUuid}&size=350`, { headers: { accept: RUN } });
  assert.equal(response.status, 200, `GET runs of block ${blockUuid}: ${response.text}`);
  return response.json.page.totalElements as number;
}

describeEachDatabase('authorization boundary', (ctx) => {
  let shared: Promise<BoundaryWorld> | undefined;
  const world = () => (shared ??= boundaryWorld(ctx.client));
  /** Names and uuids of B that no answer to A may contain (besides what A itself sent). */
  const hiddenOf = (w: BoundaryWorld) => [w.b.workspace, w.b.project, w.b.secretSource.uuid, w.b.unpublished.uuid];

  it('1. a PUT cannot adopt another workspace\'s block as parent: 422 "does not exist" naming spec.parentBuildingBlocks[0], nothing stored, the parent stays deletable; no definition uuid leaks; POST stays refused', async () => {
    const w = await world();
    const { a, b } = w;
    const hidden = hiddenOf(w);

    // A's definition DA: version 1 released without inputs, on A's runner; A's block bA of it, settled.
    const da = await runnerDefinition(a.key, a.workspace, a.runner);
    const bA = (await createBlockV2(a.key, { versionUuid: da.versionUuid, target: tenantTarget(a.tenant), displayName: unique('A-child') }))
      .metadata.uuid as string;
    await finishRun(a.key, await claimRun(a.key, a.runner, bA), 'SUCCEEDED');

    // DA version 2 depends on B's published definition and takes its `secret` output as input `x`.
    const v2Spec = versionSpec(da.uuid, 2, 'terraform', {
      runnerRef: { uuid: a.runner, kind: 'meshBuildingBlockRunner' },
      dependencyDefinitionRefs: [{ kind: DEFINITION_REF, uuid: b.secretSource.uuid }],
      inputs: {
        x: { displayName: 'X', type: 'STRING', assignmentType: 'BUILDING_BLOCK_OUTPUT', argument: `${b.secretSource.uuid}.secret` },
      },
    });
    const draft = await postVersion(a.key, v2Spec);
    assert.equal(draft.status, 201, `A creates draft version 2 of DA depending on B's published definition: ${draft.text}`);
    const v2 = draft.json.metadata.uuid as string;
    const releasedV2 = await putVersion(a.key, v2, { ...v2Spec, state: 'RELEASED' });
    assert.equal(releasedV2.status, 200, `A releases version 2 of DA: ${releasedV2.text}`);

    const before = await readBlock(ctx.client, bA);
    assert.equal(before.status.status, 'SUCCEEDED', 'bA is settled before the PUT');
    const runsBefore = await runCount(ctx.client, bA);
    const current = await readBlock(a.key, bA);
    /** bA's current body, moved to version 2 with the given parents. */
    const moved = (parents: Json[]): Json => {
      const { _links: _ignored, ...body } = current;
      const { parentBuildingBlockRefs: _refs, ...spec } = body.spec as Json;
      return {
        ...body,
        spec: {
          ...spec,
          buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: v2 },
          parentBuildingBlocks: parents,
        },
      };
    };
    const created = (parents: Json[]) =>
      postBlock(a.key, v2Body({ versionUuid: v2, target: tenantTarget(a.tenant), spec: { parentBuildingBlocks: parents } }));
    const failures: string[] = [];
    const missing = randomUUID();
    const wrongDefinition = randomUUID();

    // Guard: on create, B's block is no parent A may name (refused today; must stay so).
    const onCreate = await created([{ buildingBlockUuid: b.succeeded }]);
    if (
      onCreate.status !== 422 ||
      !/does not exist/.test(String(onCreate.json.message)) ||
      !String(onCreate.json.message).includes('spec.parentBuildingBlocks[0]')
    ) {
      failures.push(
        `POST with B's block as parent: expected 422 "spec.parentBuildingBlocks[0]… does not exist", got ${onCreate.status} ${onCreate.text}`,
      );
    }
    failures.push(
      ...oracleDifferences(
        "POST naming B's block as parent",
        { response: onCreate, probed: b.succeeded },
        { response: await created([{ buildingBlockUuid: missing }]), probed: missing },
        hidden,
      ),
    );
    // A parent entry with a wrong definitionUuid must not learn B's block's definition (create and PUT).
    failures.push(
      ...oracleDifferences(
        "POST naming B's block as parent with a wrong definitionUuid",
        { response: await created([{ buildingBlockUuid: b.succeeded, definitionUuid: wrongDefinition }]), probed: b.succeeded },
        { response: await created([{ buildingBlockUuid: missing, definitionUuid: wrongDefinition }]), probed: missing },
        hidden,
      ),
    );
    failures.push(
      ...oracleDifferences(
        "PUT naming B's block as parent with a wrong definitionUuid",
        {
          response: await putBlock(a.key, bA, moved([{ buildingBlockUuid: b.succeeded, definitionUuid: wrongDefinition }])),
          probed: b.succeeded,
        },
        { response: await putBlock(a.key, bA, moved([{ buildingBlockUuid: missing, definitionUuid: wrongDefinition }])), probed: missing },
        hidden,
      ),
    );

    // The hole: the PUT moving bA to version 2 with B's block as parent (the unknown parent first, while bA is unchanged).
    const unknownParent = await putBlock(a.key, bA, moved([{ buildingBlockUuid: missing }]));
    const adopted = await putBlock(a.key, bA, moved([{ buildingBlockUuid: b.succeeded }]));
    if (
      adopted.status !== 422 ||
      !/does not exist/.test(String(adopted.json.message)) ||
      !String(adopted.json.message).includes('spec.parentBuildingBlocks[0]')
    ) {
      failures.push(
        `PUT with B's block as parent: expected 422 "spec.parentBuildingBlocks[0]… does not exist", got ${adopted.status} ${adopted.text.slice(0, 400)}`,
      );
    }
    failures.push(
      ...oracleDifferences(
        "PUT naming B's block as parent",
        { response: adopted, probed: b.succeeded },
        { response: unknownParent, probed: missing },
        hidden,
      ),
    );

    // Nothing stored: same version, no parent, no new run; B's block has no child, so B may delete it.
    const after = await readBlock(ctx.client, bA);
    if (after.spec.buildingBlockDefinitionVersionRef.uuid !== da.versionUuid)
      failures.push(`bA moved to version ${after.spec.buildingBlockDefinitionVersionRef.uuid} (was ${da.versionUuid})`);
    if (JSON.stringify(after.spec.parentBuildingBlocks) !== '[]')
      failures.push(`bA has parents now: ${JSON.stringify(after.spec.parentBuildingBlocks)}`);
    if (after.status.latestRunUuid !== before.status.latestRunUuid || after.status.status !== 'SUCCEEDED') {
      failures.push(
        `bA changed: status ${after.status.status}, latestRunUuid ${after.status.latestRunUuid} (was SUCCEEDED, ${before.status.latestRunUuid})`,
      );
    }
    const runsAfter = await runCount(ctx.client, bA);
    if (runsAfter !== runsBefore)
      failures.push(`bA has ${runsAfter} runs, had ${runsBefore}: a run was started (it would receive B's secret output)`);
    const deleted = await b.key.delete(`${BLOCKS}/${b.succeeded}`);
    if (deleted.status !== 202) failures.push(`B's DELETE of its own block: expected 202, got ${deleted.status} ${deleted.text}`);
    assertNone(failures, "A adopted or learned about B's block");
  });

  /** Probes B's live run and an unknown run with the key; refused probes must leave B's run as it was. */
  async function probeRunEndpoints(w: BoundaryWorld, who: string, key: ApiClient): Promise<string[]> {
    const { b } = w;
    const missing = randomUUID();
    const registration = { source: { id: 'intruder' }, steps: [{ id: 'probe', displayName: 'Probe' }] };
    const update = { status: 'FAILED', steps: [{ id: 'probe', status: 'FAILED', userMessage: 'changed by a key of another workspace' }] };
    const stepsBefore = await logs(ctx.client, b.live.run);
    const probes: [string, (run: string) => Promise<Response>][] = [
      ['POST …/{run}/status/source', (run) => register(key, run, registration)],
      ['PATCH …/{run}/status/source/intruder', (run) => patch(key, run, 'intruder', update)],
      ['GET …/{run}', (run) => getRun(key, run)],
      ['GET …/{run}/logs', (run) => key.get(`${RUNS}/${run}/logs`, { headers: { accept: RUN } })],
    ];
    const failures: string[] = [];
    for (const [what, send] of probes) {
      failures.push(
        ...oracleDifferences(
          `${who}, ${what}`,
          { response: await send(b.live.run), probed: b.live.run },
          { response: await send(missing), probed: missing },
          hiddenOf(w),
        ),
      );
    }
    const run = await readRun(ctx.client, b.live.run);
    if (run.status !== 'IN_PROGRESS') failures.push(`B's run changed to ${run.status}`);
    const stepsAfter = await logs(ctx.client, b.live.run);
    if (JSON.stringify(stepsAfter) !== JSON.stringify(stepsBefore)) failures.push(`B's run log changed: ${JSON.stringify(stepsAfter)}`);
    return failures;
  }

  it("2a. run status, run and log endpoints answer a key of A without run permissions about B's live run exactly as about an unknown run", async () => {
    const w = await world();
    assertNone(
      await probeRunEndpoints(w, 'a key of A with BUILDINGBLOCK_LIST only', w.a.lister),
      "the run endpoints tell B's run from an unknown one",
    );
  });

  it('2a (also). the same for a key of A holding the run permissions of its own workspace (MANAGED_BUILDINGBLOCKRUN_*, MANAGED_BUILDINGBLOCKRUNSOURCE_SAVE)', async () => {
    const w = await world();
    assertNone(
      await probeRunEndpoints(w, "a key of A with A's run permissions", w.a.key),
      "the run endpoints tell B's run from an unknown one",
    );
  });

  it("2b. block create on B's tenant (v2-preview targetRef uuid, v1 tenantIdentifier) is answered as on a non-existent tenant", async () => {
    const w = await world();
    const { a, b } = w;
    const missingUuid = randomUUID();
    const missingName = `${unique('bd-ghost-ws')}.${unique('bd-ghost-prj')}.${unique('bd-ghost-plf')}.${unique('bd-ghost-loc')}`;
    const v2 = (tenantUuid: string) =>
      postBlock(a.key, v2Body({ versionUuid: a.tenantLevel.versionUuid, target: tenantTarget(tenantUuid) }), 'v2');
    const v1 = (tenantIdentifier: string) => postBlock(a.key, v1Body({ definitionUuid: a.tenantLevel.uuid, tenantIdentifier }), 'v1');
    const failures = [
      ...oracleDifferences(
        'v2-preview targetRef {kind: meshTenant, uuid}',
        { response: await v2(b.tenant.uuid), probed: b.tenant.uuid },
        { response: await v2(missingUuid), probed: missingUuid },
        hiddenOf(w),
      ),
      ...oracleDifferences(
        'v1 metadata.tenantIdentifier',
        { response: await v1(b.tenant.identifier), probed: b.tenant.identifier },
        { response: await v1(missingName), probed: missingName },
        hiddenOf(w),
      ),
    ];
    assertNone(failures, "block create tells B's tenant from a non-existent one");
    assert.deepEqual(
      await blockUuids(ctx.client, `tenantUuid=${b.tenant.uuid}&definitionUuid=${a.tenantLevel.uuid}`),
      [],
      "no block of A's definition on B's tenant",
    );
  });

  it("2c. block create on B's workspace (targetRef {kind: meshWorkspace, identifier}) is answered as on a non-existent workspace", async () => {
    const w = await world();
    const { a, b } = w;
    const missing = unique('bd-ghost-ws');
    const post = (identifier: string) =>
      postBlock(a.key, v2Body({ versionUuid: a.workspaceLevel.versionUuid, target: workspaceTarget(identifier) }), 'v2');
    assertNone(
      oracleDifferences(
        'v2-preview targetRef {kind: meshWorkspace, identifier}',
        { response: await post(b.workspace), probed: b.workspace },
        { response: await post(missing), probed: missing },
        hiddenOf(w),
      ),
      "block create tells B's workspace from a non-existent one",
    );
    assert.deepEqual(
      await blockUuids(ctx.client, `workspaceIdentifier=${b.workspace}&definitionUuid=${a.workspaceLevel.uuid}`),
      [],
      "no block of A's definition in B's workspace",
    );
  });

  it("2d. block create naming B's DRAFT version is answered as naming a non-existent version", async () => {
    const w = await world();
    const { a, b } = w;
    const missing = randomUUID();
    const post = (versionUuid: string) => postBlock(a.key, v2Body({ versionUuid, target: workspaceTarget(a.workspace) }), 'v2');
    assertNone(
      oracleDifferences(
        'v2-preview buildingBlockDefinitionVersionRef.uuid',
        { response: await post(b.unpublished.draftVersionUuid), probed: b.unpublished.draftVersionUuid },
        { response: await post(missing), probed: missing },
        hiddenOf(w),
      ),
      "block create tells B's draft version from a non-existent one",
    );
  });

  it("2e. managedByDefinitionUuid naming B's unpublished definition answers 200 with an empty page, as for a non-existent definition", async () => {
    const w = await world();
    const { a, b } = w;
    const missing = randomUUID();
    const list = (uuid: string) => a.key.get(`${BLOCKS}?managedByDefinitionUuid=${uuid}`, { headers: { accept: BLOCK_V2 } });
    const existing: Probe = { response: await list(b.unpublished.uuid), probed: b.unpublished.uuid };
    const unknown: Probe = { response: await list(missing), probed: missing };
    const failures = oracleDifferences('GET …/meshbuildingblocks?managedByDefinitionUuid=', existing, unknown, hiddenOf(w), false);
    for (const [label, probe] of [
      ["B's unpublished definition", existing],
      ['a non-existent definition', unknown],
    ] as const) {
      if (probe.response.status !== 200) failures.push(`${label}: expected 200, got ${probe.response.status} ${probe.response.text}`);
      else if (JSON.stringify(probe.response.json._embedded?.meshBuildingBlocks) !== '[]' || probe.response.json.page?.totalElements !== 0)
        failures.push(`${label}: expected an empty page, got ${probe.response.text}`);
    }
    if (
      existing.response.status === 200 &&
      unknown.response.status === 200 &&
      normalized(existing.response.text, existing.probed) !== normalized(unknown.response.text, unknown.probed)
    ) {
      failures.push(`the two pages differ: ${existing.response.text} | ${unknown.response.text}`);
    }
    assertNone(failures, "the managedBy filter tells B's unpublished definition from a non-existent one");
  });

  it("2f. a version of A's definition depending on B's unpublished definition is refused as one depending on a non-existent definition", async () => {
    const w = await world();
    const { a, b } = w;
    const missing = randomUUID();
    /** Version 2 of a fresh definition of A (version 1 released, no draft) depending on `dependency`. */
    const probe = async (dependency: string): Promise<Probe> => {
      const { definition } = await createReleasedDefinition(
        a.key,
        a.workspace,
        'terraform',
        { runnerRef: null },
        { displayName: unique('A-depends'), ...TENANT_LEVEL },
      );
      const uuid = definition.metadata.uuid as string;
      const response = await postVersion(
        a.key,
        versionSpec(uuid, 2, 'terraform', { runnerRef: null, dependencyDefinitionRefs: [{ kind: DEFINITION_REF, uuid: dependency }] }),
      );
      return { response, probed: [dependency, uuid] };
    };
    assertNone(
      oracleDifferences(
        'POST …/meshbuildingblockdefinitionversions with spec.dependencyDefinitionRefs',
        await probe(b.unpublished.uuid),
        await probe(missing),
        hiddenOf(w),
      ),
      "version create tells B's unpublished definition from a non-existent one",
    );
  });

  it('3. GET by an upper-case uuid answers 200 with the same object (block, definition, version, tenant v4, runner); a block create naming its version in upper case is 201', async () => {
    const w = await world();
    const { a } = w;
    const block = (
      await createBlockV2(a.key, { versionUuid: a.tenantLevel.versionUuid, target: tenantTarget(a.tenant), displayName: unique('A-upper') })
    ).metadata.uuid as string;
    const reads: [string, string, (uuid: string) => Promise<Response>][] = [
      ['block (v2-preview)', block, (uuid) => getBlock(a.key, uuid, 'v2')],
      ['definition', a.tenantLevel.uuid, (uuid) => getDefinition(a.key, uuid)],
      ['definition version', a.tenantLevel.versionUuid, (uuid) => getVersion(a.key, uuid)],
      ['tenant (v4)', a.tenant.uuid, (uuid) => a.key.get(`${PATHS.tenants}/${uuid}`, { headers: { accept: TENANT } })],
      ['runner', a.runner, (uuid) => getRunner(a.key, uuid)],
    ];
    const failures: string[] = [];
    for (const [what, uuid, read] of reads) {
      const lower = await read(uuid);
      assert.equal(lower.status, 200, `${what} by its lower-case uuid: ${lower.text}`);
      const upperCase = await read(upper(uuid));
      if (upperCase.status !== 200)
        failures.push(`${what} by ${upper(uuid)}: expected 200, got ${upperCase.status} ${upperCase.text.slice(0, 300)}`);
      else if (upperCase.text !== lower.text)
        failures.push(
          `${what} by ${upper(uuid)}: another body than by ${uuid}: ${upperCase.text.slice(0, 300)} | ${lower.text.slice(0, 300)}`,
        );
    }
    const created = await postBlock(a.key, v2Body({ versionUuid: upper(a.tenantLevel.versionUuid), target: tenantTarget(a.tenant) }), 'v2');
    if (created.status !== 201)
      failures.push(
        `block create naming version ${upper(a.tenantLevel.versionUuid)}: expected 201, got ${created.status} ${created.text.slice(0, 300)}`,
      );
    else if (created.json.spec.buildingBlockDefinitionVersionRef.uuid !== a.tenantLevel.versionUuid) {
      failures.push(
        `the created block names its version as ${created.json.spec.buildingBlockDefinitionVersionRef.uuid}, not ${a.tenantLevel.versionUuid}`,
      );
    }
    assertNone(failures, 'upper-case uuids');
  });

  it('4. a sensitive STRING input whose plaintext is a number or an object is refused (400 naming spec.inputs) or sealed; it is never answered but as {hash}', async () => {
    const w = await world();
    const { a } = w;
    const failures: string[] = [];
    const leaks = (what: string, response: Response) => {
      const paths = pathsOfValue(JSON.parse(response.text), 4242);
      if (paths.length > 0) failures.push(`${what}: 4242 answered at ${paths.join(', ')}`);
      if (response.text.replace(/\s/g, '').includes('{"a":1}')) failures.push(`${what}: {"a":1} answered`);
    };
    /** The `secret` row of a block body must be {hash: "sha256:…"} and nothing else. */
    const sealed = (what: string, body: Json) => {
      const value = row(body.spec?.inputs ?? [], 'secret')?.value;
      if (
        value === null ||
        typeof value !== 'object' ||
        JSON.stringify(Object.keys(value)) !== '["hash"]' ||
        !HASH.test(String(value.hash))
      )
        failures.push(`${what}: the secret is answered as ${JSON.stringify(value)}, not {"hash": "sha256:…"}`);
    };
    for (const plaintext of [4242, { a: 1 }] as const) {
      for (const representation of REPRESENTATIONS) {
        const what = `${representation} create with {"plaintext": ${JSON.stringify(plaintext)}}`;
        const displayName = unique('A-sealed');
        const inputs = [{ key: 'secret', value: { plaintext }, valueType: 'STRING' }];
        const body =
          representation === 'v1'
            ? v1Body({ definitionUuid: a.sensitive.uuid, tenantIdentifier: a.tenant.identifier, displayName, inputs })
            : v2Body({ versionUuid: a.sensitive.versionUuid, target: tenantTarget(a.tenant), displayName, inputs });
        const response = await postBlock(a.key, body, representation);
        leaks(what, response);
        if (response.status === 400) {
          if (!String(response.json.message).includes('spec.inputs'))
            failures.push(`${what}: 400 without naming spec.inputs: ${response.json.message}`);
          if (String(response.json.message).includes('4242'))
            failures.push(`${what}: the refusal echoes the value: ${response.json.message}`);
          const stored = await ctx.client.get(`${BLOCKS}?tenantUuid=${a.tenant.uuid}&name=${encodeURIComponent(displayName)}`, {
            headers: { accept: BLOCK_V2 },
          });
          if (stored.json._embedded?.meshBuildingBlocks?.length !== 0)
            failures.push(`${what}: refused, yet stored: ${stored.text.slice(0, 300)}`);
          continue;
        }
        if (response.status !== 201) {
          failures.push(`${what}: expected 400 (preferred) or 201, got ${response.status} ${response.text.slice(0, 300)}`);
          continue;
        }
        sealed(`${what}, create answer`, response.json);
        const uuid = response.json.metadata.uuid as string;
        for (const view of REPRESENTATIONS) {
          const read = await getBlock(a.key, uuid, view);
          assert.equal(read.status, 200, `GET ${view} of ${uuid}: ${read.text}`);
          leaks(`${what}, GET ${view}`, read);
          sealed(`${what}, GET ${view}`, read.json);
        }
      }
    }
    assertNone(failures, 'a sensitive input with a non-string plaintext');
  });
  it("5. a key of A holding every code of service instances and communications answers about B's instance, communication and definition as about non-existent ones; creating in B's project is refused as in a non-existent workspace", async () => {
    const w = await world();
    const { a, b } = w;
    const admin = ctx.client;
    const INSTANCE = media('meshserviceinstance', 'v2');
    const DEFINITION = media('meshcommunicationdefinition', 'v1-preview');
    const COMMUNICATION = media('meshcommunication', 'v1-preview');
    const instanceBody = (workspace: string, project: string, instanceId: string) => ({
      apiVersion: 'v2',
      kind: 'meshServiceInstance',
      metadata: { ownedByProject: project, ownedByWorkspace: workspace, marketplaceIdentifier: 'm', instanceId },
      spec: { displayName: 'Boundary SI', serviceId: 's', planId: 'p', creator: 'nobody' },
    });
    const instance = unique('bd-si');
    assert.equal(
      (await admin.post('/api/meshobjects/meshserviceinstances', instanceBody(b.workspace, b.project, instance), { headers: io(INSTANCE) }))
        .status,
      200,
    );
    const definition = await admin.post(
      '/api/meshobjects/meshcommunicationdefinitions',
      { spec: { communication: { title: 'Boundary', message: 'for B', type: 'ACTION_REQUIRED', dueDate: '2099-01-01' } } },
      { headers: io(DEFINITION) },
    );
    assert.equal(definition.status, 201, definition.text);
    const definitionUuid = definition.json.metadata.uuid as string;
    const sent = await admin.post(
      '/api/meshobjects/meshcommunications',
      {
        spec: {
          targetMeshObjectRef: { kind: 'meshTenant', name: b.tenant.uuid },
          communicationDefinitionRef: { kind: 'meshCommunicationDefinition', uuid: definitionUuid },
        },
      },
      { headers: io(COMMUNICATION) },
    );
    assert.equal(sent.status, 201, sent.text);
    const communication = sent.json.metadata.uuid as string;

    const { client: key } = await clientWithKey(admin, a.workspace, [
      ...['SERVICEINSTANCE', 'COMMUNICATIONDEFINITION', 'COMMUNICATION'].flatMap((resource) =>
        ['LIST', 'SAVE', 'DELETE'].map((action) => `${resource}_${action}`),
      ),
      'PROJECT_LIST',
      'WORKSPACE_LIST',
    ]);
    const hidden = [...hiddenOf(w), b.tenant.uuid, instance, communication, definitionUuid];
    const missingId = unique('bd-ghost-si');
    const missingUuid = randomUUID();
    const pair = async (what: string, request: (id: string) => Promise<Response>, existing: string, missing: string) =>
      oracleDifferences(
        what,
        { response: await request(existing), probed: existing },
        { response: await request(missing), probed: missing },
        hidden,
      );
    const failures = [
      ...(await pair(
        'GET meshserviceinstances/{id}',
        (id) => key.get(`/api/meshobjects/meshserviceinstances/${id}`, { headers: { accept: INSTANCE } }),
        instance,
        missingId,
      )),
      ...(await pair(
        'PUT meshserviceinstances/{id}',
        (id) => key.put(`/api/meshobjects/meshserviceinstances/${id}`, instanceBody(a.workspace, a.project, id), { headers: io(INSTANCE) }),
        instance,
        missingId,
      )),
      ...(await pair(
        'DELETE meshserviceinstances/{id}',
        (id) => key.delete(`/api/meshobjects/meshserviceinstances/${id}`),
        instance,
        missingId,
      )),
      ...(await pair(
        "POST meshserviceinstances in B's project",
        (workspace) =>
          key.post('/api/meshobjects/meshserviceinstances', instanceBody(workspace, b.project, unique('bd-si')), { headers: io(INSTANCE) }),
        b.workspace,
        unique('bd-ghost-ws'),
      )),
      ...(await pair(
        'GET meshcommunications/{uuid}',
        (id) => key.get(`/api/meshobjects/meshcommunications/${id}`, { headers: { accept: COMMUNICATION } }),
        communication,
        missingUuid,
      )),
      ...(await pair(
        'POST meshcommunications/{uuid}/resolve',
        (id) => key.post(`/api/meshobjects/meshcommunications/${id}/resolve`, undefined, { headers: { accept: COMMUNICATION } }),
        upper(communication),
        missingUuid,
      )),
      ...(await pair(
        'DELETE meshcommunications/{uuid}',
        (id) => key.delete(`/api/meshobjects/meshcommunications/${id}`),
        communication,
        missingUuid,
      )),
      ...(await pair(
        'GET meshcommunicationdefinitions/{uuid}',
        (id) => key.get(`/api/meshobjects/meshcommunicationdefinitions/${id}`, { headers: { accept: DEFINITION } }),
        definitionUuid,
        missingUuid,
      )),
    ];
    for (const [path, type, embedded] of [
      ['meshserviceinstances', INSTANCE, 'meshServiceInstances'],
      ['meshcommunications', COMMUNICATION, 'meshCommunications'],
      ['meshcommunicationdefinitions', DEFINITION, 'meshCommunicationDefinitions'],
    ] as const) {
      const list = await key.get(`/api/meshobjects/${path}?size=350`, { headers: { accept: type } });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.json._embedded[embedded], [], `A's list of ${path} is empty`);
    }
    assertNone(failures, "service instances and communications tell B's objects from non-existent ones");
    assert.equal(
      (await admin.get(`/api/meshobjects/meshserviceinstances/${instance}`, { headers: { accept: INSTANCE } })).json.status.state,
      'ACTIVE',
      "B's instance unchanged",
    );
    const after = (await admin.get(`/api/meshobjects/meshcommunications/${communication}`, { headers: { accept: COMMUNICATION } })).json;
    assert.equal(after.status.resolutionStatus, 'OPEN', "B's communication unchanged");
  });
});
