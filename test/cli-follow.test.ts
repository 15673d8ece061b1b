/**
 * `blockyard` for people, its writing and following commands: apply, delete,
 * runs logs --follow, events --follow, as child processes against the real server (test/cli.test.ts
 * has login, get and the errors).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exited, lines, login, run, start } from './support/cli.js';
import { createKey } from './support/identity.js';
import {
  asRun,
  claimRun,
  createBlock,
  register,
  registerRunner,
  report,
  runnerDefinition,
  runWorld,
  tenantTarget,
  waitFor,
} from './support/runs.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createProject, createWorkspace, unique } from './support/structure.js';

describeEachDatabase('the blockyard CLI: apply, delete, following', (ctx) => {
  let dir: string;
  let adminConfig: string;
  let keyConfig: string;
  let workspace: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'blockyard-cli-'));
    adminConfig = path.join(dir, 'admin.yaml');
    keyConfig = path.join(dir, 'key.yaml');
    workspace = unique('cli');
    await createWorkspace(ctx.client, workspace);
    const key = await createKey(ctx.client, workspace, ['EVENTLOG_LIST']);
    const ca = path.join(ctx.server.dataDir, 'tls', 'cert.pem');
    await login(adminConfig, ctx.server.url, ca, ['--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]);
    await login(keyConfig, ctx.server.url, ca, ['--client-id', key.clientId, '--client-secret', key.clientSecret]);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('apply and delete', () => {
    it('applies a multi-document YAML file: a table of results, exit 1 when one object failed', async () => {
      const applied = unique('cli-apply');
      const file = path.join(dir, 'objects.yaml');
      await writeFile(
        file,
        [
          `apiVersion: v2\nkind: meshWorkspace\nmetadata:\n  name: ${applied}\nspec:\n  displayName: Applied\n`,
          `apiVersion: v2\nkind: meshProject\nmetadata:\n  name: web\n  ownedByWorkspace: ${applied}\nspec:\n  displayName: Web\n`,
          `apiVersion: v2\nkind: meshProject\nmetadata:\n  name: orphan\n  ownedByWorkspace: ${unique('missing')}\nspec:\n  displayName: Orphan\n`,
        ].join('---\n'),
      );
      const result = exited(await run(adminConfig, ['apply', '-f', file]), 1);
      const table = lines(result.stdout);
      assert.match(table[0]!, /^OBJECT +STATUS +RESULT CODE +MESSAGE$/);
      assert.match(table[1]!, new RegExp(`^meshWorkspace\\[${applied}\\] +SUCCESS +created$`));
      assert.match(table[2]!, /^meshProject\[web\] +SUCCESS +created$/);
      assert.match(table[3]!, /^meshProject\[orphan\] +FAILED +WORKSPACE_NOT_FOUND +\S/);
      assert.match(result.stderr, /1 of 3 objects failed/);

      // JSON on stdin; everything succeeds (updated): exit 0.
      const json = JSON.stringify({
        apiVersion: 'v2',
        kind: 'meshWorkspace',
        metadata: { name: applied },
        spec: { displayName: 'Applied again' },
      });
      const again = exited(await run(adminConfig, ['apply', '-f', '-'], { input: json }), 0);
      assert.match(lines(again.stdout)[1]!, new RegExp(`^meshWorkspace\\[${applied}\\] +SUCCESS +updated$`));
    });

    it('deletes an object; then it is not found', async () => {
      const doomed = unique('cli-del');
      await createWorkspace(ctx.client, doomed);
      assert.equal(exited(await run(adminConfig, ['delete', 'workspace', doomed]), 0).stdout, `meshWorkspace ${doomed} deleted\n`);
      assert.match(exited(await run(adminConfig, ['get', 'workspace', doomed]), 1).stderr, /not found \(404\)/);
      assert.match(
        exited(await run(adminConfig, ['delete', 'workspace', doomed]), 1).stderr,
        /^blockyard: deleting meshWorkspace .*: not found \(404\)/,
      );
    });
  });

  describe('following', () => {
    it('runs logs --follow prints the steps as they change and ends when the run ends', async () => {
      const w = await runWorld(ctx.client);
      const runner = (await registerRunner(ctx.client, w.provider)).metadata.uuid as string;
      const definition = await runnerDefinition(ctx.client, w.provider, runner);
      await createBlock(ctx.client, { versionUuid: definition.versionUuid, target: tenantTarget(w.tenantUuid) });
      const claimed = await claimRun(ctx.client, runner);
      const runUuid = claimed.metadata.uuid as string;
      const asRunner = asRun(ctx.client, claimed);
      assert.equal((await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 'plan', displayName: 'Plan' }] })).status, 200);

      const follow = start(adminConfig, ['runs', 'logs', runUuid, '--follow']);
      try {
        // The first look happens once the event stream is open: nothing reported after it is missed.
        await waitFor('the registered step', async () => (follow.output.stdout.includes('Plan (ci/plan)') ? true : undefined), 30_000);
        assert.equal(
          await report(asRunner, runUuid, 'ci', { steps: [{ id: 'plan', status: 'IN_PROGRESS', userMessage: 'planning' }] }),
          false,
        );
        await waitFor('the step in progress', async () => (follow.output.stdout.includes('planning') ? true : undefined), 30_000);
        assert.equal(
          await report(asRunner, runUuid, 'ci', {
            status: 'SUCCEEDED',
            steps: [{ id: 'plan', status: 'SUCCEEDED', userMessage: 'Plan: 1 to add' }],
          }),
          false,
        );
        const ended = exited(await follow.done, 0);
        const printed = lines(ended.stdout);
        assert.match(printed[0]!, /^\S+ {2}Plan \(ci\/plan\) {2}PENDING$/);
        assert.match(printed.at(-2)!, /^\S+ {2}Plan \(ci\/plan\) {2}SUCCEEDED {2}Plan: 1 to add$/);
        assert.equal(printed.at(-1), 'run 1 (APPLY) SUCCEEDED');
        assert.ok(
          printed.some((line) => /IN_PROGRESS {2}planning$/.test(line)),
          ended.stdout,
        );
      } finally {
        follow.child.kill();
      }
      // Without --follow: the steps as they are.
      assert.match(
        exited(await run(adminConfig, ['runs', 'logs', runUuid]), 0).stdout,
        /^\S+ {2}Plan \(ci\/plan\) {2}SUCCEEDED {2}Plan: 1 to add\n$/,
      );
    });

    it('events lists the latest and --follow prints new events as they happen (an API key, filtered)', async () => {
      const listed = exited(await run(keyConfig, ['events', '--workspace', workspace, '--title', 'Workspace']), 0);
      assert.match(
        listed.stdout,
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[^ ]+Z  Workspace Created  by ApiUser ${TEST_ADMIN.username}  in ${workspace}  .*\n$`),
      );

      const follow = start(keyConfig, ['events', '--follow', '--workspace', workspace, '--event-type', 'Created', '--size', '1']);
      try {
        await waitFor('the latest event', async () => (lines(follow.output.stdout).length >= 1 ? true : undefined), 30_000);
        const project = unique('followed');
        await createProject(ctx.client, workspace, project);
        await waitFor(
          'the new event',
          async () =>
            follow.output.stdout.includes(`Project Created  by ApiUser ${TEST_ADMIN.username}  in ${workspace}`) &&
            follow.output.stdout.includes(project)
              ? true
              : undefined,
          30_000,
        );
        assert.equal(lines(follow.output.stdout).length, 2, follow.output.stdout);
      } finally {
        follow.child.kill();
      }
    });
  });
});
