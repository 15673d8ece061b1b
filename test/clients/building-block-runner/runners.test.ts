/**
 * The original's runners replayed against a real server (both databases): the Terraform runner and
 * the run controller as they use go-meshapi-client at the pinned commit (pin.ts), every answer
 * decoded as their Go structs decode it (dtos.ts).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { createKey } from '../../support/identity.js';
import { createBlock, decryptForRunner, readBlock, registerRunner, runnerCertificate, runnerDefinition, runWorld, tenantTarget, type RunWorld } from '../../support/runs.js';
import { describeEachDatabase, TEST_ADMIN } from '../../support/server.js';
import { decodeGo } from '../terraform-provider/go-json.js';
import { AUTHOR_TYPES, GithubImplementation, ImplementationTypeOnly, RunUpdateResponse, TerraformImplementation, type TerraformImplementationValue } from './dtos.js';
import { apiKeyAuth, basicAuth, registerController, RUN_MEDIA_TYPE, RunnerClient, RunnerTransport, runApiAuth, StatusError } from './runner-client.js';

const CLAIM = 'MANAGED_BUILDINGBLOCKRUN_SAVE';
const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nrunner-replay-key\n-----END OPENSSH PRIVATE KEY-----\n';
const SECRET_INPUT = 'runner-replay-secret-input';
const SECRET_OUTPUT = 'runner-replay-secret-output';
const user = (type: string, extra: Record<string, unknown> = {}) => ({ displayName: `A ${type}`, type, assignmentType: 'USER_INPUT', updateableByConsumer: true, ...extra });

describeEachDatabase('the building-block-runner replayed (go-meshapi-client)', (ctx) => {
  let transport: RunnerTransport;
  let world: RunWorld;

  before(async () => {
    transport = new RunnerTransport(ctx.server.url, await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8'));
    world = await runWorld(ctx.client);
  });
  after(() => transport.close());

  it('the Terraform runner: claims with its API key, decodes the run and its implementation, reports with the run token until SUCCEEDED', async () => {
    const runner = await registerRunner(ctx.client, world.provider, { implementationType: 'TERRAFORM' });
    const runnerUuid = runner.metadata.uuid as string;
    const definition = await runnerDefinition(ctx.client, world.provider, runnerUuid, {
      implementation: {
        type: 'terraform',
        terraform: { terraformVersion: '1.9.8', repositoryUrl: 'git@github.com:example/blocks.git', refName: 'main', async: false, useMeshHttpBackendFallback: true, sshPrivateKey: { plaintext: SSH_KEY } },
      },
      inputs: { secret: user('STRING', { isSensitive: true }), size: user('INTEGER', { defaultValue: 16 }), region: { displayName: 'Region', type: 'STRING', assignmentType: 'STATIC', argument: 'eu-west-1', isEnvironment: true } },
      outputs: { vpc_id: { displayName: 'VPC id', type: 'STRING', assignmentType: 'NONE' }, db_password: { displayName: 'DB password', type: 'STRING', assignmentType: 'NONE', isSensitive: true } },
    });
    const block = await createBlock(ctx.client, {
      versionUuid: definition.versionUuid,
      target: tenantTarget(world.tenantUuid),
      inputs: [{ key: 'secret', value: { plaintext: SECRET_INPUT }, valueType: 'STRING' }],
    });
    const key = await createKey(ctx.client, world.provider, [CLAIM]);
    const auth = runApiAuth(apiKeyAuth(transport, key.clientId, key.clientSecret));
    // FetchRunDetails: a client of its own whose node id is `<rid>-<postfix>`.
    const fetcher = new RunnerClient(transport, `tf-runner-1-${runnerUuid}`, auth);
    const { dto } = await fetcher.fetchRun(runnerUuid);

    assert.equal(dto.spec.buildingBlock.uuid, block.metadata.uuid);
    assert.equal(dto.spec.runNumber, 1);
    assert.equal(dto.spec.behavior, 'APPLY');
    assert.notEqual(dto.spec.runToken, '', 'useMeshHttpBackendFallback needs the run token (tfcmd.go fails fast without it)');
    assert.equal(dto.spec.buildingBlock.spec.workspaceIdentifier, world.consumer);
    assert.equal(dto.spec.buildingBlockDefinition.spec.workspaceIdentifier, world.provider);
    assert.equal(dto.spec.buildingBlockDefinition.spec.version, 1);
    assert.ok(dto.spec.trigger, 'a run says why it runs');
    assert.ok(AUTHOR_TYPES.includes(dto.spec.trigger.author.type), `author type ${dto.spec.trigger.author.type}`);
    assert.ok(dto._links.meshstackBaseUrl.href.startsWith(ctx.server.url));
    assert.equal(decodeGo<{ type: string }>(ImplementationTypeOnly, dto.spec.buildingBlockDefinition.spec.implementation).type, 'TERRAFORM');
    const implementation = decodeGo<TerraformImplementationValue>(TerraformImplementation, dto.spec.buildingBlockDefinition.spec.implementation);
    assert.equal(implementation.useMeshHttpBackendFallback, true);
    assert.equal(implementation.terraformVersion, '1.9.8');
    assert.equal(implementation.refName, 'main');
    const { certificate, privateKey } = await runnerCertificate();
    assert.ok(certificate, 'the runner registered with its certificate');
    assert.equal(decryptForRunner(privateKey, implementation.sshPrivateKey!).plaintext.toString(), SSH_KEY, 'the SSH key reaches the runner encrypted for it, as a string');
    const inputs = new Map((dto.spec.buildingBlock.spec.inputs ?? []).map((input) => [input.key, input]));
    assert.equal(inputs.get('size')?.value, 16);
    assert.equal(inputs.get('size')?.type, 'INTEGER');
    assert.equal(inputs.get('region')?.isEnvironment, true);
    assert.equal(inputs.get('secret')?.isSensitive, true);
    assert.equal(decryptForRunner(privateKey, inputs.get('secret')!.value as string).plaintext.toString(), SECRET_INPUT);

    // SetRunToken: every further call of the run with it.
    auth.setRunToken(dto.spec.runToken);
    const api = new RunnerClient(transport, runnerUuid, auth);
    const runId = dto.metadata.uuid;
    const registration = { source: { id: runnerUuid }, steps: [{ id: 'init', displayName: 'Init', status: null }, { id: 'apply', displayName: 'Apply', status: null }] };
    await api.registerSource(runId, registration);
    await api.registerSource(runId, registration); // a second registration: 409 or 2xx, both fine
    // RunStatus.toExternal: every step on each update, outputs only when a step has some (omitempty),
    // changesDetected only from DETECT runs (this is an APPLY run).
    const update = (status: string, steps: unknown[]) => ({ blockRunId: runId, source: runnerUuid, type: 'TERRAFORM', status, createdOn: new Date().toISOString(), summary: null, steps });
    const step = (id: string, displayName: string, status: string, outputs?: Record<string, unknown>) => ({ id, displayName, status, systemMessage: `${id}: ${status}`, ...(outputs ? { outputs } : {}) });
    const first = decodeGo<{ runAborted: boolean }>(RunUpdateResponse, await api.patchStatus(runId, runnerUuid, update('IN_PROGRESS', [step('init', 'Init', 'SUCCEEDED'), step('apply', 'Apply', 'IN_PROGRESS')])));
    assert.equal(first.runAborted, false);
    // Terraform's outputs as the runner reads them: sensitive ones in plain text, flagged.
    const outputsOfApply = { vpc_id: { value: 'vpc-0a1b', type: 'STRING', isSensitive: false }, db_password: { value: SECRET_OUTPUT, type: 'STRING', isSensitive: true } };
    const done = update('SUCCEEDED', [step('init', 'Init', 'SUCCEEDED'), step('apply', 'Apply', 'SUCCEEDED', outputsOfApply)]);
    assert.equal(decodeGo<{ runAborted: boolean }>(RunUpdateResponse, await api.patchStatus(runId, runnerUuid, done)).runAborted, false);

    const settled = await readBlock(ctx.client, block.metadata.uuid as string);
    assert.equal(settled.status.status, 'SUCCEEDED', JSON.stringify(settled.status));
    const outputs = Array.isArray(settled.status.outputs) ? settled.status.outputs : Object.entries(settled.status.outputs).map(([k, v]) => ({ key: k, ...(v as object) }));
    assert.deepEqual(outputs.find((o: { key: string }) => o.key === 'vpc_id')?.value, 'vpc-0a1b');
    assert.ok(!JSON.stringify(settled).includes(SECRET_OUTPUT), 'a sensitive output is not answered in plain text');

    // The headers every request carried, as setHeaders sets them.
    const claims = transport.exchanges.filter((e) => e.url.includes('/create?forRunnerUuid='));
    assert.equal(claims.length, 1);
    assert.equal(claims[0]!.requestHeaders['content-type'], RUN_MEDIA_TYPE);
    assert.equal(claims[0]!.requestBody, undefined);
    assert.equal(claims[0]!.status, 201);
    // Nothing waits any more: the next poll is a 404, which the run controller counts as "no run".
    auth.clearRunToken();
    await assert.rejects(fetcher.fetchRun(runnerUuid), (error: unknown) => error instanceof StatusError && error.status === 404);
  });

  it('the run controller: updates its registration, claims for an ALL runner with Basic credentials, decodes a GitHub run, registers its validation step and reports FAILED with its own auth', async () => {
    const runner = await registerRunner(ctx.client, world.provider, { implementationType: 'ALL' });
    const runnerUuid = runner.metadata.uuid as string;
    const controllerAuth = basicAuth(TEST_ADMIN.username, TEST_ADMIN.password);
    // At start it updates the registration made beforehand (BuildRunnerRegistrationDTO; the workload
    // identity block only when it discovered an OIDC issuer).
    const { certificate } = await runnerCertificate();
    const wif = (cloud: string) => ({ audience: `${cloud}-workload-identity-provider:blocks`, tokenPath: `/var/run/secrets/workload-identity/${cloud}/token` });
    await registerController(transport, controllerAuth, {
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockRunner',
      metadata: { uuid: runnerUuid, ownedByWorkspace: world.provider },
      spec: {
        displayName: 'Run controller',
        publicKey: certificate,
        implementationType: 'ALL',
        workloadIdentityFederation: {
          issuer: 'https://oidc.example.com',
          subject: 'system:serviceaccount:blocks:workspace.<bbd-workspace>.buildingblockdefinition.<bbd-uuid>',
          gcp: wif('gcp'),
          aws: wif('aws'),
          azure: { audience: 'api://AzureADTokenExchange', tokenPath: '/var/run/secrets/workload-identity/azure/token' },
        },
      },
    });
    const definition = await runnerDefinition(ctx.client, world.provider, runnerUuid, {
      implementation: { type: 'githubWorkflows', githubWorkflows: { repository: 'example/blocks', branch: 'main', applyWorkflow: 'apply.yml', async: true, omitRunObjectInput: false } },
    });
    const block = await createBlock(ctx.client, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
    // The controller's configured auth for every call (it never switches to the run token).
    const controller = new RunnerClient(transport, `run-controller-${runnerUuid}`, controllerAuth, { name: 'run-controller', version: '1.0.0' });
    const { dto, raw } = await controller.fetchRun(runnerUuid);
    assert.equal(dto.spec.buildingBlock.uuid, block.metadata.uuid);
    assert.ok(Buffer.from(raw).toString('base64').length > 0);
    assert.equal(decodeGo<{ type: string }>(ImplementationTypeOnly, dto.spec.buildingBlockDefinition.spec.implementation).type, 'GITHUB_WORKFLOW');
    const github = decodeGo<{ repository: string; branch: string; applyWorkflow: string; async: boolean }>(GithubImplementation, dto.spec.buildingBlockDefinition.spec.implementation);
    assert.deepEqual([github.repository, github.branch, github.applyWorkflow, github.async], ['example/blocks', 'main', 'apply.yml', true]);

    const runId = dto.metadata.uuid;
    await controller.registerSource(runId, { source: { id: runnerUuid }, steps: [{ id: 'validation', displayName: 'Validation', status: null }] });
    const message = 'workflow apply.yml is missing';
    await controller.patchStatus(runId, runnerUuid, {
      status: 'FAILED',
      summary: 'validation failed',
      steps: [{ id: 'validation', displayName: 'Validation', status: 'FAILED', userMessage: message, systemMessage: message }],
    });
    const settled = await readBlock(ctx.client, block.metadata.uuid as string);
    assert.equal(settled.status.status, 'FAILED', JSON.stringify(settled.status));
  });

  it('a wrong API key secret: the login fails, the claim goes out without credentials and is refused', async () => {
    const runner = await registerRunner(ctx.client, world.provider, { implementationType: 'TERRAFORM' });
    const key = await createKey(ctx.client, world.provider, [CLAIM]);
    const auth = apiKeyAuth(transport, key.clientId, 'not-the-secret-0123456789');
    await assert.rejects(new RunnerClient(transport, 'tf-runner-x', auth).fetchRun(runner.metadata.uuid as string), (error: unknown) => error instanceof StatusError && error.status === 401);
    assert.match(auth.failures[0] ?? '', /^login returned HTTP 401/);
  });
});
