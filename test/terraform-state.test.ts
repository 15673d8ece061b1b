/**
 * The Terraform state backend: the protocol of Terraform's HTTP backend as the original's Terraform
 * runner uses it (`backend "http"` at `/api/terraform/state/workspace/<ws>/buildingBlock/<block>`,
 * Basic `x:<run token>`), who may read it, and the real `terraform` CLI storing, locking and reading
 * a block's state (built-in `terraform_data` only: no provider is downloaded).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ApiClient } from './support/client.js';
import { createKey, login } from './support/identity.js';
import {
  asRun,
  claimRun,
  createBlock,
  registerRunner,
  report,
  register,
  runnerDefinition,
  runWorld,
  tenantTarget,
  type RunWorld,
} from './support/runs.js';
import { basic, describeEachDatabase } from './support/server.js';

const TERRAFORM = process.env.BLOCKYARD_TERRAFORM ?? '/usr/local/bin/terraform';
const run = promisify(execFile);
const stateUrl = (base: string, workspace: string, block: string) =>
  `${base}/api/terraform/state/workspace/${workspace}/buildingBlock/${block}`;
const SECRET_OUTPUT = 'tfstate-secret-value-0123456789';

interface Claimed {
  blockUuid: string;
  runUuid: string;
  runToken: string;
  runner: ApiClient;
}

describeEachDatabase('the Terraform state backend', (ctx) => {
  let world: RunWorld;
  let runnerUuid: string;
  let definition: { uuid: string; versionUuid: string };

  /** A block of a definition with the HTTP backend fallback, its run claimed: the run token Terraform gets. */
  async function claimedBlock(): Promise<Claimed> {
    const block = await createBlock(ctx.client, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
    const claimed = await claimRun(ctx.client, runnerUuid);
    assert.equal(claimed.spec.buildingBlock.uuid, block.metadata.uuid);
    return {
      blockUuid: block.metadata.uuid,
      runUuid: claimed.metadata.uuid,
      runToken: claimed.spec.runToken,
      runner: asRun(ctx.client, claimed),
    };
  }
  const asState = (client: ApiClient, token: string) => client.with({ authorization: basic('x', token) });

  before(async () => {
    world = await runWorld(ctx.client);
    runnerUuid = (await registerRunner(ctx.client, world.provider, { implementationType: 'TERRAFORM' })).metadata.uuid;
    definition = await runnerDefinition(ctx.client, world.provider, runnerUuid, {
      implementation: {
        type: 'terraform',
        terraform: {
          terraformVersion: '1.11.0',
          repositoryUrl: 'https://github.com/example/blocks.git',
          async: false,
          useMeshHttpBackendFallback: true,
        },
      },
    });
  });

  describe('the protocol', () => {
    let block: Claimed;
    let address: string;
    before(async () => {
      block = await claimedBlock();
      address = `/api/terraform/state/workspace/${world.consumer}/buildingBlock/${block.blockUuid}`;
    });

    it('no state: 204; POST stores it, GET answers it byte for byte (with the run token as the Basic password)', async () => {
      const client = asState(ctx.client, block.runToken);
      assert.equal((await client.get(address)).status, 204);
      const state = `{\n  "version": 4,\n  "serial": 1,\n  "lineage": "abc",\n  "outputs": {"secret": {"value": "${SECRET_OUTPUT}", "type": "string"}}\n}\n`;
      const stored = await client.request('POST', address, { body: state, headers: { 'content-type': 'application/json' } });
      assert.equal(stored.status, 200, stored.text);
      const read = await client.get(address);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.text, state);
      assert.match(read.headers['content-type'] ?? '', /^application\/json/);
      // Bearer works as well (the runner's other calls).
      assert.equal((await ctx.client.with({ authorization: `Bearer ${block.runToken}` }).get(address)).text, state);
    });

    it('LOCK: 200, then 423 with the holder’s lock info; a write without the lock id is 423, with it 200; UNLOCK with another id is 423, with its own 200', async () => {
      const client = asState(ctx.client, block.runToken);
      const info = {
        ID: 'lock-1',
        Operation: 'OperationTypeApply',
        Info: '',
        Who: 'runner@node',
        Version: '1.11.0',
        Created: new Date().toISOString(),
        Path: '',
      };
      assert.equal(
        (await client.request('LOCK', address, { body: JSON.stringify(info), headers: { 'content-type': 'application/json' } })).status,
        200,
      );
      const second = await client.request('LOCK', address, {
        body: JSON.stringify({ ...info, ID: 'lock-2', Who: 'someone@else' }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(second.status, 423, second.text);
      assert.deepEqual(JSON.parse(second.text), info, 'the holder’s lock info');
      const state = '{"version":4,"serial":2,"lineage":"abc","outputs":{}}';
      assert.equal((await client.request('POST', address, { body: state, headers: { 'content-type': 'application/json' } })).status, 423);
      assert.equal(
        (await client.request('POST', `${address}?ID=lock-2`, { body: state, headers: { 'content-type': 'application/json' } })).status,
        423,
      );
      assert.equal(
        (await client.request('POST', `${address}?ID=lock-1`, { body: state, headers: { 'content-type': 'application/json' } })).status,
        200,
      );
      assert.equal(
        (
          await client.request('UNLOCK', address, {
            body: JSON.stringify({ ...info, ID: 'lock-2' }),
            headers: { 'content-type': 'application/json' },
          })
        ).status,
        423,
      );
      assert.equal(
        (await client.request('UNLOCK', address, { body: JSON.stringify(info), headers: { 'content-type': 'application/json' } })).status,
        200,
      );
      assert.equal(
        (await client.request('UNLOCK', address, { body: JSON.stringify(info), headers: { 'content-type': 'application/json' } })).status,
        200,
        'unlocked already',
      );
      assert.equal((await client.get(address)).text, state);
    });

    it('refuses bodies that are no JSON (400), and answers 404 for another workspace’s address', async () => {
      const client = asState(ctx.client, block.runToken);
      assert.equal(
        (await client.request('POST', address, { body: 'not json', headers: { 'content-type': 'application/json' } })).status,
        400,
      );
      assert.equal((await client.request('LOCK', address, { body: '[1]', headers: { 'content-type': 'application/json' } })).status, 400);
      assert.equal((await client.get(`/api/terraform/state/workspace/${world.stranger}/buildingBlock/${block.blockUuid}`)).status, 404);
    });

    it('who may read: another block’s run token 403; the consumer’s and a stranger’s keys 404; the platform team (MANAGED_TFSTATE_LIST) and admins 200', async () => {
      const other = await claimedBlock();
      assert.equal((await asState(ctx.client, other.runToken).get(address)).status, 403);
      for (const [workspace, permissions] of [
        [world.consumer, ['BUILDINGBLOCK_LIST', 'TFSTATE_LIST']],
        [world.stranger, ['ADM_BUILDINGBLOCK_LIST']],
        [world.provider, ['MANAGED_BUILDINGBLOCK_LIST']],
      ] as const) {
        const token = await login(ctx.client, await createKey(ctx.client, workspace, [...permissions]));
        assert.equal(
          (await ctx.client.with({ authorization: `Bearer ${token}` }).get(address)).status,
          404,
          `${workspace} ${permissions.join(',')}`,
        );
      }
      const manager = await login(ctx.client, await createKey(ctx.client, world.provider, ['MANAGED_TFSTATE_LIST']));
      assert.equal((await ctx.client.with({ authorization: `Bearer ${manager}` }).get(address)).status, 200);
      const admin = await login(ctx.client, await createKey(ctx.client, world.stranger, ['ADM_TFSTATE_LIST']));
      assert.equal((await ctx.client.with({ authorization: `Bearer ${admin}` }).get(address)).status, 200);
      assert.equal((await ctx.client.get(address)).status, 200, 'the API user');
      assert.equal((await ctx.client.with({ authorization: basic('x', 'not-a-token') }).get(address)).status, 401);
    });

    it('is sealed at rest: the state’s secret is nowhere in the database', async () => {
      if (ctx.server.dialect === 'sqlite') {
        const files = ['blockyard.db', 'blockyard.db-wal']
          .map((name) => path.join(ctx.server.dataDir, name))
          .filter((file) => existsSync(file));
        assert.ok(files.length > 0, 'the database files');
        for (const file of files) assert.ok(!(await readFile(file)).includes(SECRET_OUTPUT), file);
      } else {
        const pool = new pg.Client({ connectionString: ctx.server.env.BLOCKYARD_DATABASE_URL });
        await pool.connect();
        try {
          const { rows } = await pool.query<{ state: string }>('select state from terraform_states');
          assert.ok(rows.length > 0);
          for (const row of rows) assert.ok(!row.state.includes(SECRET_OUTPUT) && !row.state.includes('lineage'));
        } finally {
          await pool.end();
        }
      }
    });

    it('is kept through a rerun and goes with the block when it is purged', async () => {
      const stored = (await ctx.client.get(address)).text;
      assert.ok(stored.length > 0);
      await register(block.runner, block.runUuid, { source: { id: 'tf' }, steps: [{ id: 'apply', displayName: 'Apply' }] });
      await report(block.runner, block.runUuid, 'tf', { status: 'SUCCEEDED', steps: [{ id: 'apply', status: 'SUCCEEDED' }] });
      const rerun = await ctx.client.post(`/api/meshobjects/meshbuildingblocks/${block.blockUuid}/trigger-run`, undefined);
      assert.equal(rerun.status, 202, rerun.text);
      const again = await claimRun(ctx.client, runnerUuid);
      assert.equal(again.spec.buildingBlock.uuid, block.blockUuid);
      assert.equal((await asState(ctx.client, again.spec.runToken).get(address)).text, stored, 'the next run reads the same state');
      const purged = await ctx.client.delete(`/api/meshobjects/meshbuildingblocks/${block.blockUuid}/purge`);
      assert.equal(purged.status, 202, purged.text);
      assert.equal((await ctx.client.get(address)).status, 404);
    });
  });

  describe('with the real terraform', { skip: existsSync(TERRAFORM) ? false : `no terraform at ${TERRAFORM}` }, () => {
    let dir: string;
    let block: Claimed;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      block = await claimedBlock();
      dir = await mkdtemp(path.join(tmpdir(), 'blockyard-tf-'));
      const address = stateUrl(ctx.server.url, world.consumer, block.blockUuid);
      await writeFile(path.join(dir, 'none.tfrc'), '');
      await writeFile(path.join(dir, 'ca.pem'), await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem')));
      await writeFile(
        path.join(dir, 'main.tf'),
        [
          'terraform {',
          '  backend "http" {',
          `    address        = "${address}"`,
          `    lock_address   = "${address}"`,
          `    unlock_address = "${address}"`,
          '  }',
          '}',
          'variable "size" {',
          '  type    = number',
          '  default = 1',
          '}',
          'resource "terraform_data" "bucket" {',
          '  input = "bucket-${var.size}"',
          '}',
          // Holds an apply (and so the lock) until the test lets it go: the concurrent apply meets the lock for sure.
          'variable "hold" {',
          '  type    = bool',
          '  default = false',
          '}',
          'resource "terraform_data" "held" {',
          '  count            = var.hold ? 1 : 0',
          '  triggers_replace = [var.size]',
          '  provisioner "local-exec" {',
          '    command = "while [ ! -f release ]; do sleep 0.1; done; rm -f release"',
          '  }',
          '}',
          'output "name" {',
          '  value = terraform_data.bucket.output',
          '}',
          '',
        ].join('\n'),
      );
      // As the runner sets them: the run token as the Basic password (tfcmd.go buildTfEnv).
      env = {
        PATH: process.env.PATH,
        HOME: dir,
        TF_IN_AUTOMATION: '1',
        TF_HTTP_USERNAME: 'x',
        TF_HTTP_PASSWORD: block.runToken,
        SSL_CERT_FILE: path.join(dir, 'ca.pem'),
        TF_CLI_CONFIG_FILE: path.join(dir, 'none.tfrc'),
      };
      await run(TERRAFORM, ['init', '-input=false', '-no-color'], { cwd: dir, env });
    });
    after(() => rm(dir, { recursive: true, force: true }));

    const terraform = (...args: string[]) => run(TERRAFORM, [...args, '-no-color'], { cwd: dir, env, maxBuffer: 1 << 22 });

    it('apply stores the state, apply again changes nothing, state pull reads what the server keeps', async () => {
      const first = await terraform('apply', '-auto-approve', '-input=false');
      assert.match(first.stdout, /1 added, 0 changed, 0 destroyed/);
      const second = await terraform('apply', '-auto-approve', '-input=false');
      assert.match(second.stdout, /No changes\./);
      const pulled = JSON.parse((await terraform('state', 'pull')).stdout) as { outputs: { name: { value: string } }; serial: number };
      assert.equal(pulled.outputs.name.value, 'bucket-1');
      const stored = await ctx.client.get(`/api/terraform/state/workspace/${world.consumer}/buildingBlock/${block.blockUuid}`);
      assert.equal(stored.status, 200);
      assert.deepEqual(JSON.parse(stored.text), pulled);
      const unlocked = await ctx.client.get(`/api/terraform/state/workspace/${world.consumer}/buildingBlock/${block.blockUuid}`);
      assert.equal(unlocked.status, 200);
    });

    it('while the state is locked, applies fail naming the lock; of two concurrent applies the second fails on the first one’s lock', async () => {
      const apply = (size: number) =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(TERRAFORM, ['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=0s', `-var=size=${size}`], {
            cwd: dir,
            env,
          });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('close', (code) => resolve({ code, output }));
        });
      // The first apply holds the lock until it is done; a second started meanwhile finds it.
      const state = `/api/terraform/state/workspace/${world.consumer}/buildingBlock/${block.blockUuid}`;
      const holder = {
        ID: 'held-by-test',
        Operation: 'OperationTypeApply',
        Who: 'test@blockyard',
        Version: '1.11.0',
        Created: new Date().toISOString(),
        Path: '',
        Info: '',
      };
      const locked = await asState(ctx.client, block.runToken).request('LOCK', state, {
        body: JSON.stringify(holder),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(locked.status, 200, locked.text);
      const [a, b] = await Promise.all([apply(2), apply(3)]);
      for (const result of [a, b]) {
        assert.notEqual(result.code, 0, result.output);
        assert.match(result.output, /Error acquiring the state lock/);
        assert.match(result.output, /already locked:\s*ID=held-by-test/, 'Terraform names the lock the server answered');
      }
      assert.equal(
        (
          await asState(ctx.client, block.runToken).request('UNLOCK', state, {
            body: JSON.stringify(holder),
            headers: { 'content-type': 'application/json' },
          })
        ).status,
        200,
      );
      // Two applies at once: the first holds the lock while its provisioner waits; the second, started
      // then, is refused naming the first one's lock; released, the first completes.
      const first = spawn(TERRAFORM, ['apply', '-auto-approve', '-input=false', '-no-color', '-var=size=4', '-var=hold=true'], {
        cwd: dir,
        env,
      });
      let firstOutput = '';
      const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          firstOutput += chunk.toString();
          if (firstOutput.includes("Provisioning with 'local-exec'")) resolve();
        };
        first.stdout.on('data', seen);
        first.stderr.on('data', seen);
        first.on('close', () => reject(new Error(`the first apply ended before holding: ${firstOutput}`)));
      });
      const second = await apply(5);
      assert.notEqual(second.code, 0, second.output);
      assert.match(second.output, /Error acquiring the state lock/);
      assert.match(second.output, /already locked:\s*ID=[0-9a-f-]{36}/, second.output);
      await writeFile(path.join(dir, 'release'), '');
      assert.equal(await firstDone, 0, firstOutput);
      const pulled = JSON.parse((await terraform('state', 'pull')).stdout) as { outputs: { name: { value: string } } };
      assert.equal(pulled.outputs.name.value, 'bucket-4');
    });
  });
});
