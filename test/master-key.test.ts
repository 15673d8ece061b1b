import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from './support/client.js';
import { skipUnless } from './support/databases.js';
import { getVersion } from './support/definitions.js';
import { API_KEY, clientWithKey, login, type KeyCredentials } from './support/identity.js';
import {
  forgeToken,
  keyIdOf,
  openSealed,
  publishedKids,
  runAdmin,
  sealedValuesAtRest,
  storedSigningKeys,
  TEST_MASTER_KEY,
  type StoredSigningKey,
} from './support/keys.js';
import {
  asRun,
  claimRun,
  createBlock,
  decryptForRunner,
  readBlock,
  registerRunner,
  report,
  runnerCertificate,
  runnerDefinition,
  runWorld,
  tenantTarget,
  type Definition,
  type RunWorld,
} from './support/runs.js';
import { describeEachDatabase, startTestServer, startInstanceOf, type TestServer } from './support/server.js';
import { createPlatform, PATHS, PLATFORM, unique, type Json } from './support/structure.js';

const KEYS = '/api/meshobjects/meshapikeys';
const CLAIM = 'MANAGED_BUILDINGBLOCKRUN_SAVE';
const newKey = () => randomBytes(32).toString('base64');

const user = (type: string, extra: Json = {}) => ({
  displayName: `A ${type}`,
  type,
  assignmentType: 'USER_INPUT',
  updateableByConsumer: true,
  ...extra,
});
const listKeys = (client: ApiClient, token: string) => client.get(KEYS, { headers: { accept: API_KEY, authorization: `Bearer ${token}` } });

/** Every `sha256:` hash in a response: what clients see of secrets. */
function hashesIn(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('sha256:') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(hashesIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(hashesIn);
  return [];
}

/** Restarts the server with these master keys (the data and everything else kept). */
async function restartWith(server: TestServer, masterKey: string, previous: string[] = []): Promise<void> {
  server.env.BLOCKYARD_MASTER_KEY = masterKey;
  server.env.BLOCKYARD_PREVIOUS_MASTER_KEYS = previous.join(',');
  await server.restart();
}

/** `blockyard admin rotate-master-key` as a child process (asserting success); answers how many values it re-encrypted. */
function rotateMasterKey(server: TestServer, batchSize = 2): number {
  const result = runAdmin(server, ['rotate-master-key', '--batch-size', String(batchSize)]);
  assert.equal(result.status, 0, `rotate-master-key: ${result.stdout}${result.stderr}`);
  const count = /re-encrypted (\d+) sealed values/.exec(result.stdout)?.[1];
  assert.ok(count !== undefined, result.stdout);
  return Number(count);
}

/** Secrets of every kind, sealed under the master key the server has now. */
interface Secrets {
  w: RunWorld;
  runner: string;
  claimer: ApiClient;
  /** An API key and a token it got before any rotation. */
  key: KeyCredentials;
  token: string;
  definition: Definition;
  platformUuid: string;
  /** A block whose run waits with a sensitive input (claimed after the rotation). */
  waitingBlock: string;
  /** A block whose run finished with a sensitive output. */
  finishedBlock: string;
  plaintexts: { input: string; staticInput: string; sshKey: string };
}

async function sealEverything(admin: ApiClient): Promise<Secrets> {
  const w = await runWorld(admin);
  const runner = (await registerRunner(admin, w.provider)).metadata.uuid as string;
  const { client: claimer, key, token } = await clientWithKey(admin, w.provider, [CLAIM, 'APIKEY_LIST']);
  const plaintexts = {
    input: `input-${randomBytes(6).toString('hex')}`,
    staticInput: `static-${randomBytes(6).toString('hex')}`,
    sshKey: `ssh-${randomBytes(6).toString('hex')}`,
  };
  const platformUuid = await createPlatform(admin, w.provider, unique('plf'), w.location, {
    spec: {
      config: {
        type: 'azure',
        azure: {
          entraTenant: 'contoso.example',
          servicePrincipal: { clientId: 'c', credential: { plaintext: `platform-${randomBytes(6).toString('hex')}` } },
        },
      },
    },
  });
  const definition = await runnerDefinition(admin, w.provider, runner, {
    implementation: {
      type: 'terraform',
      terraform: {
        terraformVersion: '1.9.8',
        repositoryUrl: 'git@example.com:blocks.git',
        async: false,
        useMeshHttpBackendFallback: false,
        sshPrivateKey: { plaintext: plaintexts.sshKey },
      },
    },
    inputs: {
      secret: user('STRING', { isSensitive: true }),
      static_secret: {
        displayName: 'Static secret',
        type: 'STRING',
        assignmentType: 'STATIC',
        argument: { plaintext: plaintexts.staticInput },
        isSensitive: true,
      },
    },
    outputs: { db_password: { displayName: 'DB password', type: 'STRING', assignmentType: 'NONE' } },
  });
  const row = (value: string) => [{ key: 'secret', value: { plaintext: value }, valueType: 'STRING' }];
  const finished = await createBlock(admin, {
    versionUuid: definition.versionUuid,
    target: tenantTarget(w.tenantUuid),
    inputs: row(`first-${randomBytes(6).toString('hex')}`),
  });
  const run = await claimRun(claimer, runner);
  assert.equal(run.spec.buildingBlock.uuid, finished.metadata.uuid);
  const outputs = { db_password: { value: `output-${randomBytes(6).toString('hex')}`, type: 'STRING', isSensitive: true } };
  // The block's Terraform state (sealed), written with the run's token.
  const stateOf = (block: string) => `/api/terraform/state/workspace/${w.consumer}/buildingBlock/${block}`;
  const stored = await asRun(admin, run).request('POST', stateOf(finished.metadata.uuid), {
    body: `{"version":4,"serial":1,"outputs":{"s":{"value":"state-${randomBytes(6).toString('hex')}"}}}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(stored.status, 200, stored.text);
  await report(asRun(admin, run), run.metadata.uuid, 'ci', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED', outputs }] });
  const waiting = await createBlock(admin, {
    versionUuid: definition.versionUuid,
    target: tenantTarget(w.tenantUuid),
    inputs: row(plaintexts.input),
  });
  // A state row that holds only a lock (no sealed value): the rotation passes it by.
  const locked = await admin.request('LOCK', stateOf(waiting.metadata.uuid), {
    body: '{"ID":"rotation-test"}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(locked.status, 200, locked.text);
  return {
    w,
    runner,
    claimer,
    key,
    token,
    definition,
    platformUuid,
    waitingBlock: waiting.metadata.uuid,
    finishedBlock: finished.metadata.uuid,
    plaintexts,
  };
}

/** Every hash clients are shown of the secrets: the platform's config, the version, both blocks (inputs and outputs). */
async function shownHashes(admin: ApiClient, secrets: Secrets): Promise<string[]> {
  const platform = await admin.get(`${PATHS.platforms}/${secrets.platformUuid}`, { headers: { accept: PLATFORM } });
  assert.equal(platform.status, 200, platform.text);
  const version = await getVersion(admin, secrets.definition.versionUuid);
  assert.equal(version.status, 200, version.text);
  const hashes = [
    ...hashesIn(platform.json),
    ...hashesIn(version.json),
    ...hashesIn(await readBlock(admin, secrets.waitingBlock)),
    ...hashesIn(await readBlock(admin, secrets.finishedBlock)),
  ];
  assert.equal(hashes.length, 6, `platform credential, static input, ssh key, two inputs and an output: ${hashes.join(' ')}`);
  return hashes;
}

/** Claims the waiting block's run as its runner and opens its secrets with the runner's private key. */
async function claimAndDecrypt(
  secrets: Secrets,
  claimer: ApiClient = secrets.claimer,
): Promise<{ input: string; staticInput: string; sshKey: string }> {
  const { privateKey } = await runnerCertificate();
  const run = await claimRun(claimer, secrets.runner);
  assert.equal(run.spec.buildingBlock.uuid, secrets.waitingBlock);
  const inputs: Json[] = run.spec.buildingBlock.spec.inputs;
  const open = (value: unknown) => decryptForRunner(privateKey, value as string).plaintext.toString('utf8');
  return {
    input: open(inputs.find((i) => i.key === 'secret')!.value),
    staticInput: open(inputs.find((i) => i.key === 'static_secret')!.value),
    sshKey: open(run.spec.buildingBlockDefinition.spec.implementation.sshPrivateKey),
  };
}

describeEachDatabase('master-key rotation', (ctx) => {
  const first = TEST_MASTER_KEY;
  const second = newKey();
  let secrets: Secrets;
  let hashes: string[];
  let kids: string[];
  let signingKeys: StoredSigningKey[];

  before(async () => {
    secrets = await sealEverything(ctx.client);
    hashes = await shownHashes(ctx.client, secrets);
    kids = await publishedKids(ctx.client);
  });

  it('serves everything as before once restarted with a new master key and the old one as previous', async () => {
    await restartWith(ctx.server, second, [first]);
    assert.equal((await listKeys(ctx.client, secrets.token)).status, 200, 'a token from before');
    assert.equal((await listKeys(ctx.client, await login(ctx.client, secrets.key))).status, 200, 'the API key logs in');
    assert.deepEqual(await shownHashes(ctx.client, secrets), hashes);
    assert.deepEqual(await publishedKids(ctx.client), kids);
  });

  it('rotate-master-key re-encrypts every sealed value in the database under the new key, in batches, and a second run finds nothing to do', async () => {
    const before = await sealedValuesAtRest(ctx.server);
    assert.ok(
      before.some((value) => value.keyId === keyIdOf(first)),
      'values sealed under the first key',
    );
    assert.ok(rotateMasterKey(ctx.server) > 0);
    const after = await sealedValuesAtRest(ctx.server);
    assert.ok(after.length >= before.length, `${after.length} sealed values after, ${before.length} before`);
    const left = after.filter((value) => value.keyId !== keyIdOf(second));
    assert.deepEqual(left, [], 'no value under another master key is left anywhere in the database');
    assert.equal(rotateMasterKey(ctx.server, 200), 0, 'a second run');
    signingKeys = await storedSigningKeys(ctx.server);
  });

  it('after a restart with only the new master key: API keys log in, tokens from before work, the hashes shown are unchanged, and a runner decrypts secrets sealed before the rotation', async () => {
    await restartWith(ctx.server, second);
    assert.equal((await listKeys(ctx.client, secrets.token)).status, 200, 'a token from before the rotation');
    assert.equal((await listKeys(ctx.client, await login(ctx.client, secrets.key))).status, 200, 'the API key logs in');
    assert.deepEqual(await shownHashes(ctx.client, secrets), hashes);
    assert.deepEqual(await publishedKids(ctx.client), kids);
    assert.deepEqual(await claimAndDecrypt(secrets), secrets.plaintexts);
  });

  it('refuses to start with a wrong master key; abandoning what was sealed, publishes and trusts none of the signing keys from before, not even with a token forged from a copy of the database', async () => {
    const forged = await forgeToken(
      signingKeys.find((key) => key.kid === kids[0])!,
      second,
      secrets.token,
    );
    assert.equal(
      openSealed(second, signingKeys[0]!.sealedPrivateJwk).includes('"d"'),
      true,
      'the copy opens with the key it was sealed under',
    );
    const wrong = newKey();
    await assert.rejects(
      restartWith(ctx.server, wrong),
      (error: Error & { exitCode?: number }) => error.exitCode === 4 && /opens none of the keys this database holds/.test(error.message),
    );
    ctx.server.env.BLOCKYARD_ABANDON_SEALED_SECRETS = 'true';
    await restartWith(ctx.server, wrong);
    delete ctx.server.env.BLOCKYARD_ABANDON_SEALED_SECRETS;
    assert.equal((await ctx.client.get('/readyz', { anonymous: true })).json.keyring, 'ABANDONED');
    const published = await publishedKids(ctx.client);
    assert.deepEqual(
      published.filter((kid) => kids.includes(kid)),
      [],
      'no signing key from before is published',
    );
    assert.equal((await listKeys(ctx.client, secrets.token)).status, 401, 'a token from before');
    assert.equal((await listKeys(ctx.client, forged)).status, 401, 'a token forged with a key from before');
    assert.match(
      await readFile(ctx.server.logFile, 'utf8'),
      /BLOCKYARD_ABANDON_SEALED_SECRETS: the master key opens none of the keys stored in this database/,
    );
  });
});

/**
 * The online procedure of the README with several instances: restart each with the new key and the old
 * one as previous, run the command, restart each with the new key only. Nothing stops working.
 */
describe('master-key rotation with several instances on PostgreSQL', { skip: skipUnless('postgres') }, () => {
  const first = TEST_MASTER_KEY;
  const second = newKey();
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    a = await startTestServer('postgres');
    b = await startInstanceOf(a);
  });

  after(async () => {
    await b?.server.close();
    await a?.stop();
  });

  it('rotates online: tokens, logins and secrets keep working on every instance at every step', async () => {
    const secrets = await sealEverything(a.client);
    const hashes = await shownHashes(b.client, secrets);
    const works = async (step: string) => {
      for (const server of [a, b]) {
        assert.equal((await listKeys(server.client, secrets.token)).status, 200, `${step}: a token from before`);
        assert.equal((await listKeys(server.client, await login(server.client, secrets.key))).status, 200, `${step}: the API key logs in`);
      }
      assert.deepEqual(await shownHashes(a.client, secrets), hashes, step);
    };
    await restartWith(a, second, [first]);
    await restartWith(b, second, [first]);
    await works('both restarted with the new key and the old one as previous');
    assert.ok(rotateMasterKey(a) > 0);
    await works('after rotate-master-key');
    await restartWith(a, second);
    await restartWith(b, second);
    await works('both restarted with the new key only');
    assert.deepEqual(
      (await sealedValuesAtRest(a)).filter((value) => value.keyId !== keyIdOf(second)),
      [],
    );
    const claimer = b.client.with({ authorization: `Bearer ${await login(b.client, secrets.key)}` });
    assert.deepEqual(await claimAndDecrypt(secrets, claimer), secrets.plaintexts);
  });
});
