import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { createWorkspace, unique } from '../../support/structure.js';
import {
  Definition,
  definitions,
  expectHash,
  integrations,
  SHARED_RUNNER_REF,
  Version,
  versions,
  type DefinitionInputValue,
  type DefinitionValue,
  type VersionValue,
} from './building-block-structs.js';
import type { ProviderClient } from './provider-client.js';
import { describeProvider } from './provider-client.js';
import { differences, expectImportEqual, expectNoDiff, expectSentComesBack, Findings, planned } from './terraform.js';

/**
 * meshstack_building_block_definition (internal/provider/building_block_definition_resource.go)
 * and meshstack_building_block_definitions, replayed as the resource runs them:
 * create = POST the definition, list its versions (exactly one, the empty hull), PUT that version
 * with the version_spec; read = GET the definition and list its versions (each with a version
 * number and a state, which the provider dereferences); update = PUT the definition, then PUT the
 * draft version, or POST a new version (draft=false → true); delete = DELETE the definition.
 * Every implementation type of examples/resources/meshstack_building_block_definition, with and
 * without runner_ref, sensitive inputs sent as `{plaintext}` and answered as `{hash}`.
 */

type Json = Record<string, unknown>;

/** The definition as MeshBuildingBlockDefinition marshals it (uuid omitempty; tags and supportedPlatforms without). */
const definitionBody = (workspace: string, displayName: string, description: string, uuid?: string) => ({
  metadata: { ...(uuid ? { uuid } : {}), ownedByWorkspace: workspace, tags: null },
  spec: {
    displayName,
    targetType: 'WORKSPACE_LEVEL',
    description,
    readme: '# Example\n\nWith <html> & "quotes".',
    runTransparency: true,
    useInLandingZonesOnly: false,
    supportUrl: 'https://support.example.com/building-blocks',
    supportedPlatforms: null,
  },
});

/** The Terraform plan of a definition: the schema's empty-set default for notification_subscribers. */
const plannedDefinition = (body: Json) => {
  const value = planned<DefinitionValue>(Definition, body);
  value.spec.notificationSubscriberUsernames = [];
  return value;
};

const DEFINITION_RULES = {
  // symbol is optional and computed; tags are kept from the plan by the provider.
  ignore: ['metadata.uuid', 'metadata.tags', 'status', 'spec.symbol'],
  sets: ['spec.notificationSubscriberUsernames', 'spec.supportedPlatforms'],
};

interface Implementation {
  type: string;
  implementation: Json;
  runnerRef?: Json;
  outputs: Json;
  /** The version's secrets: the path under implementation, whose hash must come back. */
  secret?: string;
  /** dependency_refs, sent as dependencyDefinitionRefs (omitempty: absent when empty). */
  dependencies?: Json[];
}

function implementations(integration: Record<string, string>, dependency = ''): Implementation[] {
  const ref = (type: string) => ({ uuid: integration[type]!, kind: 'meshIntegration' });
  const urlOutput = { workflow_run_url: { displayName: 'Run URL', type: 'STRING', assignmentType: 'RESOURCE_URL', displayOrder: 0 } };
  return [
    {
      type: 'terraform',
      runnerRef: SHARED_RUNNER_REF,
      implementation: {
        terraform: {
          terraformVersion: '1.9.0',
          repositoryUrl: 'https://github.com/example/building-block.git',
          async: true,
          repositoryPath: 'terraform/modules/example',
          refName: 'v1.0.0',
          sshKnownHost: { host: 'github.com', keyType: 'ssh-rsa', keyValue: 'AAAAB3NzaC1yc2EAAAABIwAAAQEAq2A7hRGmdnm9tUDbO9IDSwBK6TbQa' },
          useMeshHttpBackendFallback: true,
          sshPrivateKey: { plaintext: `-----BEGIN OPENSSH PRIVATE KEY-----\n${unique('key')}\n-----END OPENSSH PRIVATE KEY-----` },
          preRunScript: 'echo "hello world"',
        },
      },
      outputs: {
        some_output_flag: { displayName: 'If true, it really worked', type: 'BOOLEAN', assignmentType: 'NONE', displayOrder: 1 },
        summary: { displayName: 'Summary of work', type: 'STRING', assignmentType: 'SUMMARY', displayOrder: 2 },
      },
      secret: 'terraform.sshPrivateKey',
      dependencies: [{ uuid: dependency, kind: 'meshBuildingBlockDefinition' }],
    },
    {
      type: 'githubWorkflows',
      implementation: { githubWorkflows: { repository: 'example/building-block', branch: 'main', applyWorkflow: 'apply.yml', destroyWorkflow: null, async: true, omitRunObjectInput: true, integrationRef: ref('github') } },
      outputs: urlOutput,
    },
    {
      type: 'gitlabPipeline',
      implementation: { gitlabPipeline: { projectId: '12345678', refName: 'main', integrationRef: ref('gitlab'), pipelineTriggerToken: { plaintext: `glptt-${unique('token')}-trigger` } } },
      outputs: urlOutput,
      secret: 'gitlabPipeline.pipelineTriggerToken',
    },
    {
      type: 'azureDevOpsPipeline',
      implementation: { azureDevOpsPipeline: { project: 'MyProject', pipelineId: '42', refName: 'refs/heads/main', async: false, integrationRef: ref('azuredevops') } },
      outputs: urlOutput,
    },
    {
      type: 'manual',
      implementation: { manual: {} },
      // The configured override; manualConfiguredOutputs sends it within one output per input.
      outputs: { resource_name: { displayName: 'Provisioned Resource', type: 'STRING', assignmentType: 'RESOURCE_URL', displayOrder: 1 } },
    },
  ];
}

/** MeshBuildingBlockDefinitionInput as marshalled: the Variant writes X (a secret), Y, or null. */
function inputs(sensitivePlaintext: string, renamed = false): Json {
  const input = (fields: Json) => ({ isEnvironment: false, isSensitive: false, argument: null, defaultValue: null, updateableByConsumer: false, ...fields });
  return {
    environment: input({ displayName: renamed ? 'Target environment' : 'Environment', description: 'The target environment', type: 'SINGLE_SELECT', assignmentType: 'USER_INPUT', selectableValues: ['dev', 'prod', 'staging'], displayOrder: 1 }),
    resource_name: input({
      displayName: 'Resource Name',
      type: 'STRING',
      assignmentType: 'USER_INPUT',
      defaultValue: 'some-resource-name',
      updateableByConsumer: true,
      valueValidationRegex: '^[a-z0-9-]+$',
      validationRegexErrorMessage: 'Resource name must contain only lowercase letters, numbers, and hyphens',
      displayOrder: 2,
    }),
    replicas: input({ displayName: 'Replicas', type: 'INTEGER', assignmentType: 'STATIC', argument: 16, displayOrder: 3 }),
    SOMETHING_VERY_SECRET: input({ displayName: 'Top Secret', description: 'Really secret', type: 'STRING', assignmentType: 'STATIC', isEnvironment: true, isSensitive: true, argument: { plaintext: sensitivePlaintext }, displayOrder: 4 }),
  };
}

/** manualConfiguredOutputs: one output per input, derived (type translated, positional order) under the overrides. */
function manualOutputs(inputs: Json, overrides: Json): Json {
  const translate = (type: string) => (type === 'SINGLE_SELECT' ? 'STRING' : type === 'MULTI_SELECT' || type === 'LIST' ? 'CODE' : type);
  const keys = Object.keys(inputs).sort((a, b) => ((inputs[a] as Json).displayOrder as number) - ((inputs[b] as Json).displayOrder as number) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(
    keys.map((key, index) => {
      const input = inputs[key] as Json;
      return [key, { displayName: input.displayName, type: translate(input.type as string), assignmentType: 'NONE', displayOrder: index, ...(overrides[key] as Json | undefined) }];
    }),
  );
}

/** buildingBlockDefinitionVersionSpec.ToClientDto, marshalled inside a MeshBuildingBlockDefinitionVersion. */
function versionBody(workspace: string, definitionUuid: string, versionUuid: string, impl: Implementation, options: { draft: boolean; versionNumber?: number; inputs: Json }) {
  return {
    metadata: { uuid: versionUuid, ownedByWorkspace: workspace, createdOn: '' },
    spec: {
      buildingBlockDefinitionRef: { uuid: definitionUuid, kind: 'meshBuildingBlockDefinition' },
      onlyApplyOncePerTenant: false,
      deletionMode: 'DELETE',
      permissions: ['TENANT_LIST', 'TENANT_SAVE'],
      outputs: impl.type === 'manual' ? manualOutputs(options.inputs, impl.outputs) : impl.outputs,
      versionNumber: options.versionNumber ?? 1,
      state: options.draft ? 'DRAFT' : 'RELEASED',
      runnerRef: impl.runnerRef ?? SHARED_RUNNER_REF,
      ...(impl.dependencies ? { dependencyDefinitionRefs: impl.dependencies } : {}),
      implementation: { type: impl.type, ...impl.implementation },
      inputs: options.inputs,
    },
  };
}

/** The plan of a version_spec: dependency_refs' empty-set default, a manual version's tracked outputs only. */
function plannedVersion(body: ReturnType<typeof versionBody>, impl: Implementation): VersionValue {
  const value = planned<VersionValue>(Version, body);
  value.spec.dependencyDefinitionRefs ??= [];
  if (impl.type === 'manual') value.spec.outputs = planned<VersionValue>(Version, { spec: { outputs: impl.outputs } }).spec.outputs;
  return value;
}

/** What Terraform compares of a version_spec; the rest is computed or not in the schema. */
function versionRules(impl: Implementation) {
  return {
    ignore: [
      'metadata',
      'status',
      'spec.buildingBlockDefinitionRef',
      'spec.implementation.type',
      'spec.versionNumber',
      'spec.state',
      'spec.inputs.*.isSensitive',
      'spec.inputs.SOMETHING_VERY_SECRET.argument.X',
      ...(impl.runnerRef ? [] : ['spec.runnerRef']),
      ...(impl.secret ? [`spec.implementation.${impl.secret}`] : []),
    ],
    sets: ['spec.permissions', 'spec.dependencyDefinitionRefs', 'spec.inputs.*.selectableValues'],
  };
}

/** manualTrackedOutputs: a manual version's state keeps only the outputs that override the derived ones. */
function tracked(version: VersionValue): VersionValue {
  if (version.spec.implementation.manual === null) return version;
  const outputs = Object.fromEntries(
    Object.entries((version.spec.outputs ?? {}) as Record<string, { assignmentType: string; displayName: string }>).filter(([key, output]) => {
      const input = version.spec.inputs?.[key];
      return output.assignmentType !== 'NONE' || input === undefined || output.displayName !== input?.displayName;
    }),
  );
  return { ...version, spec: { ...version.spec, outputs } };
}

/** The provider's read of all versions: each must carry versionNumber and state (dereferenced), sorted by number. */
async function listVersions(provider: ProviderClient, definitionUuid: string): Promise<VersionValue[]> {
  const all = await versions(provider).list({ buildingBlockDefinitionUuid: definitionUuid });
  for (const version of all) {
    assert.notEqual(version.spec.versionNumber, null, `version ${version.metadata.uuid}: versionNumber is nil (the provider dereferences it)`);
    assert.notEqual(version.spec.state, null, `version ${version.metadata.uuid}: state is nil (the provider dereferences it)`);
  }
  return all.sort((a, b) => a.spec.versionNumber! - b.spec.versionNumber!);
}

function expectSecretHashes(version: VersionValue, impl: Implementation, where: string): string[] {
  const hashes = [expectHash((version.spec.inputs?.SOMETHING_VERY_SECRET as DefinitionInputValue).argument.X, `${where}: inputs.SOMETHING_VERY_SECRET.argument`)];
  assert.equal((version.spec.inputs?.SOMETHING_VERY_SECRET as DefinitionInputValue).isSensitive, true);
  if (impl.secret) {
    const [type, field] = impl.secret.split('.');
    hashes.push(expectHash((version.spec.implementation[type!] as Record<string, never>)[field!], `${where}: implementation.${impl.secret}`));
  }
  return hashes;
}

describeProvider('meshstack_building_block_definition', (ctx) => {
  let workspace: string;
  const integration: Record<string, string> = {};
  let dependencyUuid: string;
  before(async () => {
    workspace = unique('tfp-bbd');
    await createWorkspace(ctx.server.client, workspace);
    // The examples' test-support integrations, created as meshstack_integration creates them.
    for (const [type, config] of [
      ['github', { owner: 'my-org', baseUrl: 'https://github.com', appId: '123456', appPrivateKey: { plaintext: `gh-${unique('k')}-private-key` }, runnerRef: SHARED_RUNNER_REF }],
      ['gitlab', { baseUrl: 'https://gitlab.com', runnerRef: SHARED_RUNNER_REF }],
      ['azuredevops', { baseUrl: 'https://dev.azure.com', organization: 'my-organization', personalAccessToken: { plaintext: `pat-${unique('k')}-token` }, runnerRef: SHARED_RUNNER_REF }],
    ] as const) {
      const created = await integrations(ctx.provider).post({ metadata: { ownedByWorkspace: workspace }, spec: { displayName: `Integration ${type}`, config: { type, [type]: config } }, status: null });
      integration[type] = created.metadata.uuid!;
    }
    // The definition the terraform example depends on: released, with an output, made as the resource makes one.
    const dependency = await definitions(ctx.provider).post(definitionBody(workspace, 'A dependency', 'Depended on'));
    dependencyUuid = dependency.metadata.uuid!;
    const [hull] = await listVersions(ctx.provider, dependencyUuid);
    const manual = { type: 'manual', implementation: { manual: {} }, outputs: {} };
    await versions(ctx.provider).put(hull!.metadata.uuid, versionBody(workspace, dependencyUuid, hull!.metadata.uuid, manual, { draft: false, inputs: { vpc: { displayName: 'VPC', type: 'STRING', assignmentType: 'USER_INPUT', isEnvironment: false, isSensitive: false, argument: null, defaultValue: null, updateableByConsumer: false, displayOrder: 0 } } }));
  });

  for (const name of ['terraform', 'githubWorkflows', 'gitlabPipeline', 'azureDevOpsPipeline', 'manual']) {
    it(`${name}: create, read, plan again, update the draft, release, new draft, import, destroy`, async () => {
      const impl = implementations(integration, dependencyUuid).find((i) => i.type === name)!;
      const client = definitions(ctx.provider);
      const resource = `meshstack_building_block_definition (${name})`;
      const rules = versionRules(impl);
      const findings = new Findings();

      // Create: the definition, its one empty version, that version updated with the version_spec.
      const sentDefinition = definitionBody(workspace, `Definition ${name}`, 'An example building block definition');
      const created = await client.post(sentDefinition);
      findings.check(() => expectSentComesBack(plannedDefinition(sentDefinition), created, DEFINITION_RULES, resource));
      const uuid = created.metadata.uuid!;
      const hull = await listVersions(ctx.provider, uuid);
      assert.equal(hull.length, 1, `Expected 1 version (empty hull), but got ${hull.length}`);
      const plaintext = `top-secret-${unique('v')}-value`;
      const sentVersion = versionBody(workspace, uuid, hull[0]!.metadata.uuid, impl, { draft: true, inputs: inputs(plaintext) });
      const applied = await versions(ctx.provider).put(hull[0]!.metadata.uuid, sentVersion);
      findings.check(() => expectSentComesBack(plannedVersion(sentVersion, impl), tracked(applied), rules, resource));
      assert.equal(applied.spec.state, 'DRAFT');
      const hashes = expectSecretHashes(applied, impl, 'create');

      // Read, plan again: the definition and the latest version as the resource's Read builds them.
      const definitionState = await client.get(uuid);
      assert.ok(definitionState, 'read after create found nothing');
      findings.check(() => expectSentComesBack(plannedDefinition(sentDefinition), definitionState, DEFINITION_RULES, resource));
      findings.check(() => expectNoDiff(created, definitionState, DEFINITION_RULES, resource));
      const [read] = await listVersions(ctx.provider, uuid);
      findings.check(() => expectNoDiff(tracked(applied), tracked(read!), rules, resource));
      assert.deepEqual(expectSecretHashes(read!, impl, 'read'), hashes, 'a read answers the same hashes');
      assert.deepEqual(differences(applied.spec, read!.spec, {}), [], 'Inconsistent content hash of version_spec after update');

      // Update the definition and the draft; the sensitive input is kept (its hash sent back).
      const sentRenamed = definitionBody(workspace, `Definition ${name}`, 'Described anew', uuid);
      const renamed = await client.put(uuid, sentRenamed);
      findings.check(() => expectSentComesBack(plannedDefinition(sentRenamed), renamed, DEFINITION_RULES, resource));
      const keptInputs = inputs(plaintext, true);
      (keptInputs.SOMETHING_VERY_SECRET as Json).argument = { hash: hashes[0] };
      const keptImplementation = impl.secret ? structuredClone(impl) : impl;
      if (impl.secret) {
        const [type, field] = impl.secret.split('.');
        (keptImplementation.implementation[type!] as Json)[field!] = { hash: hashes[1] };
      }
      const sentDraft = versionBody(workspace, uuid, read!.metadata.uuid, keptImplementation, { draft: true, inputs: keptInputs });
      const draft = await versions(ctx.provider).put(read!.metadata.uuid, sentDraft);
      findings.check(() => expectSentComesBack(plannedVersion(sentDraft, impl), tracked(draft), rules, resource));
      assert.deepEqual(expectSecretHashes(draft, impl, 'update'), hashes, 'kept secrets keep their hashes');

      // Release (draft = false): the same version PUT with state RELEASED.
      const sentRelease = versionBody(workspace, uuid, read!.metadata.uuid, keptImplementation, { draft: false, inputs: keptInputs });
      const released = await versions(ctx.provider).put(read!.metadata.uuid, sentRelease);
      findings.check(() => expectSentComesBack(plannedVersion(sentRelease, impl), tracked(released), rules, resource));
      assert.equal(released.spec.state, 'RELEASED', 'draft=false: the version is released');

      // draft = true again: a new version POSTed with the next number.
      const sentNext = versionBody(workspace, uuid, '', keptImplementation, { draft: true, versionNumber: 2, inputs: keptInputs });
      const next = await versions(ctx.provider).post(sentNext);
      findings.check(() => expectSentComesBack(plannedVersion(sentNext, impl), tracked(next), rules, resource));
      const all = await listVersions(ctx.provider, uuid);
      assert.deepEqual(
        all.map((v) => [v.spec.versionNumber, v.spec.state]),
        [
          [1, 'RELEASED'],
          [2, 'DRAFT'],
        ],
      );
      assert.deepEqual(differences(next.spec, all[1]!.spec, {}), [], 'Inconsistent content hash of version_spec after update');

      // Import by uuid: the same definition and versions.
      const imported = await client.get(uuid);
      const [refreshed, importedVersions] = [await client.get(uuid), await listVersions(ctx.provider, uuid)];
      findings.check(() => expectImportEqual(refreshed, imported, [], resource));
      findings.check(() => expectImportEqual(all, importedVersions, [], resource));

      // The data source lists it (includeAllPublished, ownedByWorkspace).
      const listed = await client.list({ includeAllPublished: true, ownedByWorkspace: workspace });
      assert.ok(listed.some((d) => d.metadata.uuid === uuid), 'meshstack_building_block_definitions lists it');

      await client.delete(uuid);
      assert.equal(await client.get(uuid), null, 'a deleted definition reads 404');
      findings.done();
    });
  }

  it("the example's tenant-level definition: supported platforms, subscribers, symbol, URLs come back as sent", async () => {
    const client = definitions(ctx.provider);
    const symbol = `data:image/png;base64,${Buffer.from('not really a png, but a data URI').toString('base64')}`;
    const sent = {
      metadata: { ownedByWorkspace: workspace, tags: null },
      spec: {
        displayName: 'Example Building Block',
        targetType: 'TENANT_LEVEL',
        description: 'An example building block definition',
        readme: '# Example Building Block\n\nThis is a comprehensive example showcasing all available attributes.',
        runTransparency: true,
        useInLandingZonesOnly: true,
        supportUrl: 'https://support.example.com/building-blocks',
        documentationUrl: 'https://docs.example.com/building-blocks',
        notificationSubscriberUsernames: ['user:some-username', 'email:ops@example.com'],
        symbol,
        supportedPlatforms: [
          { name: 'AZURE', kind: 'meshPlatformType' },
          { name: 'AWS', kind: 'meshPlatformType' },
        ],
      },
    };
    const rules = { ...DEFINITION_RULES, ignore: DEFINITION_RULES.ignore.filter((path) => path !== 'spec.symbol') };
    const created = await client.post(sent);
    const findings = new Findings();
    findings.check(() => expectSentComesBack(planned(Definition, sent), created, rules, 'meshstack_building_block_definition (tenant level)'));
    const read = await client.get(created.metadata.uuid!);
    findings.check(() => expectSentComesBack(planned(Definition, sent), read, rules, 'meshstack_building_block_definition (tenant level, refresh)'));
    await client.delete(created.metadata.uuid!);
    findings.done();
  });

  it('with no runner_ref the provider sends the shared runner for every implementation type', async () => {
    for (const impl of implementations(integration).filter((i) => i.type !== 'terraform')) {
      const created = await definitions(ctx.provider).post(definitionBody(workspace, `Runnerless ${impl.type}`, 'd'));
      const [hull] = await listVersions(ctx.provider, created.metadata.uuid!);
      const version = await versions(ctx.provider).put(hull!.metadata.uuid, versionBody(workspace, created.metadata.uuid!, hull!.metadata.uuid, impl, { draft: true, inputs: inputs(`secret-${unique('r')}-value`) }));
      assert.ok(version.spec.runnerRef, `${impl.type}: runnerRef`);
    }
  });

});
