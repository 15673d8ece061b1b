/**
 * `blockyard` ordering and reading what others wrote: order and apply a building block, follow its
 * logs by the block, every served kind in get, and names planted by another team shown inert, as
 * child processes against the real server.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertInert, exited, lines, login, PLANTED, run } from './support/cli.js';
import {
  asRun,
  claimRun,
  readBlock,
  register,
  registerRunner,
  report,
  runnerDefinition,
  runWorld,
  TENANT_LEVEL,
  type RunWorld,
} from './support/runs.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createProject, createWorkspace, unique } from './support/structure.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describeEachDatabase('the blockyard CLI: ordering, and what others wrote', (ctx) => {
  let dir: string;
  let adminConfig: string;
  let world: RunWorld;
  let runner: string;
  let definition: { uuid: string; versionUuid: string };
  let definitionName: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'blockyard-cli-'));
    adminConfig = path.join(dir, 'admin.yaml');
    const ca = path.join(ctx.server.dataDir, 'tls', 'cert.pem');
    await login(adminConfig, ctx.server.url, ca, ['--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]);
    world = await runWorld(ctx.client);
    runner = (await registerRunner(ctx.client, world.provider)).metadata.uuid as string;
    definitionName = unique('Postgres');
    const inputs = {
      size: { displayName: 'Size', type: 'INTEGER', assignmentType: 'USER_INPUT' },
      tier: { displayName: 'Tier', type: 'STRING', assignmentType: 'USER_INPUT' },
    };
    definition = await runnerDefinition(ctx.client, world.provider, runner, { inputs }, { ...TENANT_LEVEL, displayName: definitionName });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('ordering', () => {
    it('order <definition name> --tenant --input: the latest released version, typed inputs; prints the uuid and status', async () => {
      const ordered = exited(
        await run(adminConfig, [
          'order',
          definitionName,
          '--tenant',
          world.tenantUuid,
          '--input',
          'size=16',
          '--input',
          'tier=gold',
          '--name',
          'Orders DB',
        ]),
        0,
      );
      const table = lines(ordered.stdout);
      assert.match(table[0]!, /^BLOCK +DISPLAY NAME +STATUS$/);
      const match = new RegExp(`^(${UUID}) +Orders DB +(PENDING|IN_PROGRESS|WAITING_FOR_\\w+|SUCCEEDED)$`).exec(table[1]!);
      assert.ok(match, ordered.stdout);
      assert.match(ordered.stderr, new RegExp(`blockyard runs logs ${match[1]} --follow`));
      const block = await readBlock(ctx.client, match[1]!);
      assert.equal(block.spec.buildingBlockDefinitionVersionRef.uuid, definition.versionUuid);
      assert.deepEqual(block.spec.targetRef, { kind: 'meshTenant', uuid: world.tenantUuid });
      const size = block.spec.inputs.find((row: { key: string }) => row.key === 'size');
      assert.equal(size.valueType, 'INTEGER');
      assert.equal(Number(size.value), 16);

      // By uuid, as JSON for scripts; the refusals say what is wrong.
      const json = JSON.parse(
        exited(
          await run(adminConfig, [
            'order',
            definition.uuid,
            '--tenant',
            world.tenantUuid,
            '--input',
            'size=2',
            '--input',
            'tier=x',
            '-o',
            'json',
          ]),
          0,
        ).stdout,
      );
      assert.equal(json.spec.displayName, definitionName);
      assert.match(
        exited(await run(adminConfig, ['order', definitionName, '--input', 'size=1']), 1).stderr,
        /give the target: --tenant <uuid> or --workspace <identifier>/,
      );
      assert.match(
        exited(await run(adminConfig, ['order', unique('Nothing'), '--workspace', world.consumer]), 1).stderr,
        /no building block definition named "Nothing-.*" is offered to you/,
      );
      assert.match(
        exited(await run(adminConfig, ['order', definitionName, '--tenant', world.tenantUuid, '--input', 'size=big']), 1).stderr,
        /^blockyard: ordering ".*" failed \(400\): spec\.inputs\.size/,
      );
    });

    it('apply -f takes a meshBuildingBlock (v2-preview) as the API does, beside objects of the import', async () => {
      const workspace = unique('cli-apply-bb');
      const file = path.join(dir, 'block.yaml');
      await writeFile(
        file,
        [
          `apiVersion: v2\nkind: meshWorkspace\nmetadata:\n  name: ${workspace}\nspec:\n  displayName: With a block\n`,
          [
            'apiVersion: v2-preview',
            'kind: meshBuildingBlock',
            'spec:',
            '  displayName: Applied DB',
            '  buildingBlockDefinitionVersionRef:',
            '    kind: meshBuildingBlockDefinitionVersion',
            `    uuid: ${definition.versionUuid}`,
            '  targetRef:',
            '    kind: meshTenant',
            `    uuid: ${world.tenantUuid}`,
            '  inputs:',
            '    - key: size',
            '      value: "8"',
            '  parentBuildingBlocks: []',
            '',
          ].join('\n'),
        ].join('---\n'),
      );
      const applied = exited(await run(adminConfig, ['apply', '-f', file]), 0);
      const table = lines(applied.stdout);
      assert.match(table[1]!, new RegExp(`^meshWorkspace\\[${workspace}\\] +SUCCESS +created$`));
      const match = new RegExp(`^meshBuildingBlock\\[(${UUID})\\] +SUCCESS +created: [A-Z_]+$`).exec(table[2]!);
      assert.ok(match, applied.stdout);
      assert.equal((await readBlock(ctx.client, match[1]!)).spec.displayName, 'Applied DB');
    });

    it('runs logs <block uuid> shows the block’s latest run; --follow ends at once for an ended run', async () => {
      const ordered = exited(
        await run(adminConfig, [
          'order',
          definitionName,
          '--tenant',
          world.tenantUuid,
          '--input',
          'size=1',
          '--input',
          'tier=t',
          '-o',
          'json',
        ]),
        0,
      );
      const blockUuid = JSON.parse(ordered.stdout).metadata.uuid as string;
      // Earlier blocks' runs first: the runner claims until it has this block's.
      let claimed;
      do claimed = await claimRun(ctx.client, runner);
      while (claimed.spec.buildingBlock.uuid !== blockUuid);
      const runUuid = claimed.metadata.uuid as string;
      const asRunner = asRun(ctx.client, claimed);
      assert.equal((await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 'plan', displayName: 'Plan' }] })).status, 200);
      await report(asRunner, runUuid, 'ci', {
        status: 'SUCCEEDED',
        steps: [{ id: 'plan', status: 'SUCCEEDED', userMessage: `done ${PLANTED.colour} ${PLANTED.title}` }],
      });

      const byBlock = exited(await run(adminConfig, ['runs', 'logs', blockUuid]), 0);
      assert.match(byBlock.stdout, /^\S+ {2}Plan \(ci\/plan\) {2}SUCCEEDED {2}done \\x1b\[32mSUCCEEDED\\x1b\[0m \\x1b\]0;pwned\\x07\n$/);
      assert.equal(exited(await run(adminConfig, ['runs', 'logs', runUuid]), 0).stdout, byBlock.stdout, 'a run uuid keeps working');
      const followed = exited(await run(adminConfig, ['runs', 'logs', blockUuid, '--follow']), 0);
      assert.equal(lines(followed.stdout).at(-1), 'run 1 (APPLY) SUCCEEDED');
      assertInert(byBlock.stdout + followed.stdout);
    });
  });

  describe('get', () => {
    it('covers service instances and communications; suggests the nearest kind for a typo', async () => {
      for (const kind of ['serviceinstances', 'communications', 'communicationdefinitions', 'meshprojects']) {
        exited(await run(adminConfig, ['get', kind, '-o', 'json']), 0);
      }
      assert.match(
        exited(await run(adminConfig, ['get', 'meshprojcts']), 1).stderr,
        /unknown kind "meshprojcts"; did you mean meshprojects\?/,
      );
      assert.match(exited(await run(adminConfig, ['get', 'wokspaces']), 1).stderr, /did you mean workspaces\?/);
      assert.match(exited(await run(adminConfig, ['get', 'gizmos']), 1).stderr, /unknown kind "gizmos"; the kinds: workspaces, /);
    });
  });

  describe('names planted by another team', () => {
    it('reach the terminal inert in tables, events, JSON and errors; wide characters keep the columns', async () => {
      const workspace = unique('cli-planted');
      await createWorkspace(ctx.client, workspace);
      const planted = Object.values(PLANTED);
      for (const [index, name] of planted.entries())
        await createProject(ctx.client, workspace, `p${index}`, { spec: { displayName: name } });
      await createProject(ctx.client, workspace, 'wide', { spec: { displayName: '日本語の名前👨‍👩‍👧' } });

      const table = exited(await run(adminConfig, ['get', 'projects', '--filter', `workspaceIdentifier=${workspace}`]), 0).stdout;
      assertInert(table);
      assert.ok(table.includes('\\x1b[32mSUCCEEDED\\x1b[0m'), table);
      assert.ok(table.includes('\\x1b]8;;http://evil\\x07x\\x1b]8;;\\x07'), table);
      assert.ok(table.includes('ok\\rFAILED') && table.includes('txt.\\u202eexe') && table.includes('\\x9b31m'), table);
      // Every row's WORKSPACE column starts in the same terminal column: a wide character takes two.
      const starts = lines(table).map((line) => {
        const before = line.slice(0, line.lastIndexOf(workspace));
        return [...new Intl.Segmenter().segment(before)].reduce(
          (width, { segment }) => width + (/[\u3000-\u9fff]|\p{Emoji_Presentation}/u.test(segment) ? 2 : 1),
          0,
        );
      });
      assert.equal(new Set(starts.slice(1)).size, 1, table);

      const json = exited(
        await run(adminConfig, ['get', 'projects', '--filter', `workspaceIdentifier=${workspace}`, '-o', 'json']),
        0,
      ).stdout;
      assertInert(json);
      assert.deepEqual(
        JSON.parse(json)
          .map((project: { spec: { displayName: string } }) => project.spec.displayName)
          .sort(),
        [...planted, '日本語の名前👨‍👩‍👧'].sort(),
      );
      assertInert(
        exited(await run(adminConfig, ['get', 'projects', '--filter', `workspaceIdentifier=${workspace}`, '-o', 'yaml']), 0).stdout,
      );

      const events = exited(await run(adminConfig, ['events', '--workspace', workspace, '--title', 'Project', '--size', '20']), 0).stdout;
      assertInert(events);
      assert.ok(events.includes('"\\x1b]0;pwned\\x07"'), events);

      const error = exited(await run(adminConfig, ['get', 'project', `${workspace}.${PLANTED.title}`]), 1).stderr;
      assertInert(error);
    });

    it('events name the block and definition beside their uuids', async () => {
      const events = exited(
        await run(adminConfig, [
          'events',
          '--workspace',
          world.consumer,
          '--title',
          'Building Block',
          '--event-type',
          'Created',
          '--size',
          '5',
        ]),
        0,
      ).stdout;
      assert.match(events, new RegExp(`meshBuildingBlock "Orders DB" \\(${UUID}\\) (was )?created`), events);
    });
  });
});
