import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { before, it } from 'node:test';
import type { Page } from 'playwright-core';
import { KEY_PRESETS } from '../src/console/key-presets.js';
import {
  accessibilityProblems,
  APIKEY,
  ARTIFACTS,
  browserForFile,
  consoleWorld,
  type ConsoleWorld,
  createKey,
  newContext,
  signInWithKey,
  watchErrors,
} from './support/console.js';
import {
  createDefinition,
  DEFINITION,
  DEFINITIONS,
  firstVersionUuid,
  putVersion,
  VERSION,
  VERSIONS,
  versionSpec,
} from './support/definitions.js';
import { login } from './support/identity.js';
import { createBlock, tenantTarget } from './support/runs.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import type { ApiClient } from './support/client.js';
import { unique } from './support/structure.js';

const browser = browserForFile();

async function signInAsAdmin(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.getByLabel('an API user').check();
  await page.getByLabel('Username').fill(TEST_ADMIN.username);
  await page.getByLabel('Password').fill(TEST_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Marketplace', level: 1 }).waitFor();
}

/** The whole page as a test artifact (these go into docs/console), and the page checked by axe-core. */
async function capture(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  assert.deepEqual(await accessibilityProblems(page), [], `axe-core on ${name}`);
}

/** A definition of the team whose version 1 the team released: it waits for the publication review. */
async function inReview(
  ctx: { readonly client: ApiClient },
  world: ConsoleWorld,
): Promise<{ uuid: string; name: string; versionUuid: string }> {
  const name = unique('Queue');
  const definition = await createDefinition(ctx.client, world.team, { displayName: name });
  const uuid = definition.metadata.uuid as string;
  const versionUuid = await firstVersionUuid(ctx.client, uuid);
  const team = ctx.client.with({ authorization: `Bearer ${await login(ctx.client, world.key)}` });
  const released = await putVersion(team, versionUuid, versionSpec(uuid, 1, 'manual', { state: 'RELEASED' }));
  assert.equal(released.status, 200, released.text);
  assert.equal(released.json.status.reviewState, 'IN_REVIEW');
  return { uuid, name, versionUuid };
}

/** The error shown beside a field (its `aria-describedby` target with the field-error class). */
const errorBeside = (page: Page, id: string) => page.locator(`#${id}-error.field-error`);

describeEachDatabase('authoring in the console', (ctx) => {
  let world: ConsoleWorld;
  const shot = (name: string) => `${ctx.server.dialect}-${name}`;

  before(async () => {
    world = await consoleWorld(ctx.client);
  });

  it('lets the platform team create a definition, edit its draft with errors beside the fields, and release it', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    const name = unique('Message queue');
    try {
      await signInWithKey(page, ctx.server.url, world.key);
      await page.getByRole('link', { name: 'Platform', exact: true }).click();
      await page.getByRole('link', { name: 'New definition' }).click();
      await page.getByRole('heading', { name: 'New definition', level: 1 }).waitFor();
      assert.equal(await page.getByLabel('Workspace').inputValue(), world.team, 'the key’s workspace is chosen');
      assert.deepEqual(
        await page.getByLabel('Workspace').locator('option').allTextContents(),
        [world.team],
        'a key creates only in its workspace',
      );

      // The server's refusals, each beside the field it names; nothing stored.
      watch.expect(400);
      await page.getByRole('button', { name: 'Create definition' }).click();
      await errorBeside(page, 'definition-displayName')
        .getByText(/^(?!spec)./)
        .waitFor();
      await page.getByLabel('Name (required)').fill(name);
      await page.getByLabel('Built for').selectOption('TENANT_LEVEL');
      watch.expect(400);
      await page.getByRole('button', { name: 'Create definition' }).click();
      await errorBeside(page, 'definition-supportedPlatforms')
        .getByText('a TENANT_LEVEL definition supports at least one platform type', { exact: true })
        .waitFor();
      assert.equal(await errorBeside(page, 'definition-displayName').count(), 0, 'the fixed field’s error is gone');
      await capture(page, shot('definition-new-refused'));
      const before = await ctx.client.get(`${DEFINITIONS}?workspaceIdentifier=${world.team}`, { headers: { accept: DEFINITION } });
      assert.equal(
        before.json._embedded.meshBuildingBlockDefinitions.filter((d: { spec: { displayName: string } }) => d.spec.displayName === name)
          .length,
        0,
        'nothing stored',
      );

      await page.getByLabel('Platform types (required)').fill('CUSTOM');
      await page.getByLabel('Description').fill('A queue for your services’ messages');
      await page.getByRole('button', { name: 'Create definition' }).click();
      await page.getByRole('heading', { name: `Edit ${name} version 1`, level: 1 }).waitFor();
      const uuid = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);

      // The draft: JSON the browser cannot parse, then a rule the server checks.
      await page.getByLabel('Inputs (JSON)').fill('{ "queueName": ');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await errorBeside(page, 'draft-inputs')
        .getByText(/^Inputs is not valid JSON/)
        .waitFor();
      await page
        .getByLabel('Inputs (JSON)')
        .fill(JSON.stringify({ queueName: { displayName: 'Queue name', type: 'STRING', assignmentType: 'STATIC' } }, null, 2));
      watch.expect(400);
      await page.getByRole('button', { name: 'Save draft' }).click();
      await errorBeside(page, 'draft-inputs')
        .getByText('queueName.argument: required for STATIC input "queueName"', { exact: true })
        .waitFor();
      assert.equal(await page.getByLabel('Inputs (JSON)').getAttribute('aria-invalid'), 'true');
      await capture(page, shot('draft-refused'));

      await page
        .getByLabel('Inputs (JSON)')
        .fill(
          JSON.stringify(
            { queueName: { displayName: 'Queue name', type: 'STRING', assignmentType: 'USER_INPUT', valueValidationRegex: '^[a-z]+$' } },
            null,
            2,
          ),
        );
      await page
        .getByLabel('Outputs (JSON)')
        .fill(JSON.stringify({ queueName: { displayName: 'Queue name', type: 'STRING', assignmentType: 'NONE' } }, null, 2));
      await page.getByLabel('Readme of the definition (Markdown)').fill('# Message queue\n\nOne queue per service.');
      await page.getByText('How ordering people will see these inputs').click();
      await page.getByRole('cell', { name: /Queue name/ }).waitFor();
      await capture(page, shot('draft-editor'));
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('heading', { name, level: 1, exact: true }).waitFor();
      const stored = await ctx.client.get(`${VERSIONS}?buildingBlockDefinitionUuid=${uuid}`, { headers: { accept: VERSION } });
      const [draft] = stored.json._embedded.meshBuildingBlockDefinitionVersions;
      assert.equal(draft.spec.state, 'DRAFT');
      assert.equal(draft.spec.inputs.queueName.valueValidationRegex, '^[a-z]+$');
      assert.equal(
        (await ctx.client.get(`${DEFINITIONS}/${uuid}`, { headers: { accept: DEFINITION } })).json.spec.readme,
        '# Message queue\n\nOne queue per service.',
      );

      // Editing again shows what was saved; then the release goes to the review.
      await page.getByRole('link', { name: 'Edit draft' }).click();
      assert.match(await page.getByLabel('Inputs (JSON)').inputValue(), /"valueValidationRegex": "\^\[a-z\]\+\$"/);
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Release version 1' }).click();
      await page.getByRole('button', { name: 'Release', exact: true }).click();
      await page.getByText(/Version 1\s*RELEASED\s*IN REVIEW/).waitFor();
      await capture(page, shot('definition-released'));
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('makes an administrator give a reason and confirm before rejecting; the owner reads the reason', async () => {
    const reason = 'Name the queue’s retention in the readme';
    const authored = await inReview(ctx, world);
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInAsAdmin(page, ctx.server.url);
      await page.getByRole('link', { name: 'Reviews' }).click();
      const entry = page.getByRole('listitem').filter({ hasText: `${authored.name} version 1` });
      await entry.getByRole('button', { name: 'Reject' }).click();
      const dialog = page.getByRole('dialog', { name: `Reject ${authored.name} version 1?` });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Reject version' }).click();
      await errorBeside(page, (await dialog.getByLabel('Reason (required)').getAttribute('id'))!)
        .getByText('Give the reason for the rejection')
        .waitFor();
      await capture(page, shot('review-reject'));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      const untouched = await ctx.client.get(`${VERSIONS}/${authored.versionUuid}`, { headers: { accept: VERSION } });
      assert.equal(untouched.json.status.reviewState, 'IN_REVIEW', 'a click without a reason rejects nothing');

      await entry.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByLabel('Reason (required)').fill(reason);
      await dialog.getByRole('button', { name: 'Reject version' }).click();
      await entry.waitFor({ state: 'detached' });
      const rejected = await ctx.client.get(`${VERSIONS}/${authored.versionUuid}`, { headers: { accept: VERSION } });
      assert.equal(rejected.json.status.reviewState, 'REJECTED');
      assert.equal(rejected.json.status.reviewReason, reason);
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
    const owner = await newContext(browser());
    const teamPage = await owner.newPage();
    try {
      await signInWithKey(teamPage, ctx.server.url, world.key);
      await teamPage.evaluate(`window.location.hash = '#/platform/${authored.uuid}'`);
      // The latest version is open: the reviewer's reason is there to read.
      await teamPage.getByText(/Version 1\s*RELEASED\s*REJECTED/).waitFor();
      await teamPage.getByText(reason).waitFor();
      await capture(teamPage, shot('definition-rejected'));
    } finally {
      await owner.close();
    }
  });

  it('shows an administrator’s key every definition on the Platform page, and the owner the blocks other workspaces ordered', async () => {
    const other = await consoleWorld(ctx.client);
    const foreignBlock = unique('Foreign bucket');
    await createBlock(ctx.client, {
      versionUuid: world.versionUuid,
      target: tenantTarget(other.tenantUuid),
      displayName: foreignBlock,
      inputs: [{ key: 'bucketName', value: 'foreign', valueType: 'STRING' }],
    });
    const adminKey = await createKey(ctx.client, 'admin', [
      'ADM_BUILDINGBLOCKDEFINITION_LIST',
      'ADM_BUILDINGBLOCK_LIST',
      'ADM_APIKEY_LIST',
      'APIKEY_LIST',
    ]);
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, adminKey);
      await page.getByRole('link', { name: 'Platform', exact: true }).click();
      await page.getByText('Every definition of every workspace').waitFor();
      await page.getByRole('link', { name: world.definitionName }).waitFor();
      await page.getByRole('link', { name: other.definitionName }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'New definition' }).count(), 0, 'a key without SAVE is not offered to author');
      await capture(page, shot('platform-admin'));
      await page.getByRole('button', { name: 'Sign out' }).click();

      await signInWithKey(page, ctx.server.url, world.key);
      await page.evaluate(`window.location.hash = '#/platform/${world.definition.metadata.uuid}'`);
      await page.getByRole('link', { name: foreignBlock }).waitFor();
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('creates a key from a role preset with the permissions collapsed, in a picked workspace, and copies its secret', async () => {
    const context = await newContext(browser());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.server.url });
    const page = await context.newPage();
    const watch = watchErrors(page);
    const developer = KEY_PRESETS.find((preset) => preset.id === 'developer')!;
    try {
      await signInAsAdmin(page, ctx.server.url);
      await page.getByRole('link', { name: 'API keys' }).click();
      // An API user may create keys in every workspace: the picker lists them.
      const workspace = page.getByLabel('Workspace', { exact: true });
      await workspace.locator('option', { hasText: world.team }).waitFor({ state: 'attached' });
      assert.ok((await workspace.locator('option').count()) > 2, 'every workspace is offered');
      await workspace.selectOption(world.team);
      await page.getByLabel('Name', { exact: true }).fill('developer laptop');
      await page.getByRole('radio', { name: 'Developer' }).check();
      await page.getByText(`Grants ${developer.permissions.join(', ')}.`).waitFor();
      await page.getByText(`Permissions: ${developer.permissions.length} chosen (the Developer preset)`).waitFor();
      assert.equal(
        await page.getByRole('checkbox', { name: 'BUILDINGBLOCK_SAVE', exact: true }).isVisible(),
        false,
        'the list is collapsed',
      );
      await capture(page, shot('keys-preset'));
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('client-secret').textContent())!;
      await page.getByRole('button', { name: 'Copy secret' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
      const row = page.getByRole('row').filter({ hasText: 'developer laptop' });
      await row.getByText(`${developer.permissions.length} permissions (Developer)`).waitFor();
      assert.equal(await row.getByText('BUILDINGBLOCK_SAVE').isVisible(), false, 'a key’s permissions are collapsed in the list');
      await capture(page, shot('keys-created'));

      const clientId = (await page.getByTestId('secret-notice').locator('code').first().textContent())!;
      const key = await ctx.client.get(`/api/meshobjects/meshapikeys/${clientId}`, { headers: { accept: APIKEY } });
      assert.equal(key.json.metadata.ownedByWorkspace, world.team);
      assert.deepEqual([...key.json.spec.permissions].sort(), [...developer.permissions].sort());
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });
  it('fits the authoring pages on a phone, each passing axe-core', async () => {
    const authored = await inReview(ctx, world);
    const draft = await ctx.client.post(
      VERSIONS,
      { kind: 'meshBuildingBlockDefinitionVersion', spec: versionSpec(authored.uuid, 2, 'manual') },
      { headers: { 'content-type': VERSION, accept: VERSION } },
    );
    assert.equal(draft.status, 201, draft.text);
    const context = await newContext(browser(), { width: 390, height: 844 });
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, world.key);
      for (const [route, heading, name] of [
        ['platform/new', 'New definition', 'new'],
        [`platform/${authored.uuid}/edit`, `Edit ${authored.name} version 2`, 'draft'],
        [`platform/${authored.uuid}`, authored.name, 'definition'],
      ] as const) {
        await page.evaluate(`window.location.hash = ${JSON.stringify(`#/${route}`)}`);
        await page.getByRole('heading', { name: heading, level: 1, exact: true }).waitFor();
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
        assert.ok(overflow <= 1, `${name} is ${overflow} px wider than the phone`);
        await capture(page, shot(`phone-author-${name}`));
      }
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });
});
