/**
 * The console's ordering side, in Chromium, as a consumer of another workspace: the order form built
 * from the version offered to it (types, defaults, validation) while a newer version waits for
 * review, a waiting block given its inputs on its page, a failed block run again, the block page
 * naming definition, version and who ordered it with run durations, the Blocks list newest first,
 * searchable and live, and the event log naming and linking what its events are about.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { ApiClient } from './support/client.js';
import { browserForFile, capture, createKey, newContext, signInWithKey, watchErrors } from './support/console.js';
import { createReleasedDefinition, postVersion, putVersion, versionSpec } from './support/definitions.js';
import { clientWithKey, login } from './support/identity.js';
import { asRun, claimRun, createBlock, readBlock, register, report, SHARED_RUNNERS, workspaceTarget } from './support/runs.js';
import { describeEachDatabase } from './support/server.js';
import { createWorkspace, unique, type Json } from './support/structure.js';

const browser = browserForFile();

const INPUTS: Json = {
  appName: {
    displayName: 'App name',
    type: 'STRING',
    assignmentType: 'USER_INPUT',
    valueValidationRegex: '^[a-z]+$',
    validationRegexErrorMessage: 'lower-case letters only',
    displayOrder: 1,
  },
  replicas: {
    displayName: 'Replicas',
    type: 'INTEGER',
    assignmentType: 'USER_INPUT',
    defaultValue: 2,
    description: 'Pods to run',
    displayOrder: 2,
  },
  tier: {
    displayName: 'Tier',
    type: 'SINGLE_SELECT',
    assignmentType: 'USER_INPUT',
    selectableValues: ['small', 'large'],
    defaultValue: 'small',
    displayOrder: 3,
  },
};

/** The shared manual runner claims the waiting run and reports it with the status. */
async function runnerReports(admin: ApiClient, status: 'SUCCEEDED' | 'FAILED'): Promise<Json> {
  const run = await claimRun(admin, SHARED_RUNNERS.MANUAL);
  const asRunner = asRun(admin, run);
  const registered = await register(asRunner, run.metadata.uuid, {
    source: { id: 'app-team' },
    steps: [{ id: 'deploy', displayName: 'Deploy the app' }],
  });
  assert.equal(registered.status, 200, registered.text);
  await report(asRunner, run.metadata.uuid, 'app-team', {
    status,
    steps: [{ id: 'deploy', status, userMessage: status === 'FAILED' ? 'the cluster was full' : 'deployed' }],
  });
  return run;
}

const markDocument = (page: Page) => page.evaluate('window.consoleMark = 42');
const documentMark = (page: Page) => page.evaluate<number | undefined>('window.consoleMark');

describeEachDatabase('the console for a consumer ordering from another workspace', (ctx) => {
  const shot = (name: string) => `${ctx.server.dialect}-${name}`;
  let provider: string;
  let consumer: string;
  let definitionName: string;
  let versionUuid: string;
  let consumerKey: { clientId: string; clientSecret: string };
  const consumerKeyName = unique('app team key');
  let orderedUuid: string;

  before(async () => {
    provider = unique('prov');
    consumer = unique('apps');
    await Promise.all([createWorkspace(ctx.client, provider), createWorkspace(ctx.client, consumer)]);
    definitionName = unique('App runtime');
    // Released by an admin: published at once.
    const { definition, version } = await createReleasedDefinition(
      ctx.client,
      provider,
      'manual',
      { inputs: INPUTS, runTransparency: true },
      { displayName: definitionName, description: 'Runs your app', targetType: 'WORKSPACE_LEVEL' },
    );
    versionUuid = version.metadata.uuid;
    // The provider's own key releases version 2: it waits for an admin's review, and is not offered.
    const owner = (await clientWithKey(ctx.client, provider, ['BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCKDEFINITION_SAVE'])).client;
    const v2 = {
      ...versionSpec(definition.metadata.uuid, 2, 'manual', {
        inputs: { ...INPUTS, extra: { displayName: 'Only in version 2', type: 'STRING', assignmentType: 'USER_INPUT' } },
      }),
    };
    const draft = await postVersion(owner, v2);
    assert.equal(draft.status, 201, draft.text);
    const released = await putVersion(owner, draft.json.metadata.uuid, { ...v2, state: 'RELEASED' });
    assert.equal(released.status, 200, released.text);
    assert.equal(released.json.status.reviewState, 'IN_REVIEW');
    consumerKey = await createKey(
      ctx.client,
      consumer,
      ['WORKSPACE_LIST', 'BUILDINGBLOCKDEFINITION_LIST', 'BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE', 'EVENTLOG_LIST', 'APIKEY_LIST'],
      consumerKeyName,
    );
  });

  it('orders the approved version with its inputs while a newer one is in review, and the block page names where it came from', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, consumerKey);
      await page.getByRole('link', { name: definitionName }).click();
      await page.getByRole('link', { name: 'Order', exact: true }).click();
      await page.getByText('Version 1. Fields marked required').waitFor();
      assert.equal(await page.getByLabel('Only in version 2').count(), 0, 'the version in review is not offered');
      // Types, defaults and the validation rule in words beside each field.
      await page.locator('#input-appName-help', { hasText: 'text · lower-case letters only' }).waitFor();
      await page.locator('#input-replicas-help', { hasText: 'whole number · default 2 · Pods to run' }).waitFor();
      assert.equal(await page.getByLabel('Replicas').inputValue(), '2');
      assert.equal(await page.getByLabel('Workspace').inputValue(), consumer, 'the one workspace the key sees is chosen');
      await page.getByLabel('Name (required)', { exact: true }).fill('Shop frontend');
      await page.getByLabel('Replicas').fill('2.5');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.locator('#input-appName-error', { hasText: 'App name is required' }).waitFor();
      await page.locator('#input-replicas-error', { hasText: 'Replicas must be a whole number' }).waitFor();
      await capture(page, shot('order-consumer'));
      await page.getByLabel('App name').fill('shop');
      await page.getByLabel('Replicas').fill('3');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.getByRole('heading', { name: 'Shop frontend', level: 1 }).waitFor();
      orderedUuid = decodeURIComponent(new URL(page.url()).hash.split('/').at(-1)!);
      const block = await readBlock(ctx.client, orderedUuid);
      assert.deepEqual(block.spec.inputs.map((row: Json) => [row.key, row.value]).sort(), [
        ['appName', 'shop'],
        ['replicas', 3],
        ['tier', 'small'],
      ]);
      await page.getByRole('link', { name: definitionName }).waitFor();
      await page.getByText('version 1', { exact: true }).waitFor();
      await page.getByText(`by API key ${consumerKeyName}`).waitFor();
      await capture(page, shot('block-ordered'));
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('gives a block waiting for user input its inputs on its page, and runs a failed block again', async () => {
    const pipelineKey = await createKey(
      ctx.client,
      consumer,
      ['BUILDINGBLOCK_LIST', 'BUILDINGBLOCK_SAVE', 'BUILDINGBLOCKDEFINITION_LIST'],
      'deploy pipeline',
    );
    const consumerClient = ctx.client.with({ authorization: `Bearer ${await login(ctx.client, pipelineKey)}` });
    // The shop block ordered above is still pending: its runner finishes it first.
    await runnerReports(ctx.client, 'SUCCEEDED');
    const waiting = await createBlock(consumerClient, { versionUuid, target: workspaceTarget(consumer), displayName: 'Waiting app' });
    assert.equal((await readBlock(ctx.client, waiting.metadata.uuid)).status.status, 'WAITING_FOR_USER_INPUT');
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, consumerKey);
      await page.evaluate(`window.location.hash = '#/blocks/${waiting.metadata.uuid}'`);
      await page.getByRole('heading', { name: 'This block waits for your inputs' }).waitFor();
      await page.getByText('by API key deploy pipeline').waitFor();
      assert.equal(await page.getByLabel('Replicas').count(), 0, 'an input with a default, not changeable by consumers, is not offered');
      await page.getByRole('button', { name: 'Save inputs and run' }).click();
      await page.locator('#input-appName-error', { hasText: 'App name is required' }).waitFor();
      // The server's regex refusal appears beside the field; nothing is stored.
      watch.expect(400);
      await page.getByLabel('App name').fill('Not Valid');
      await page.getByRole('button', { name: 'Save inputs and run' }).click();
      await page.locator('#input-appName-error', { hasText: /^the value of "appName" is invalid: lower-case letters only$/ }).waitFor();
      assert.equal((await readBlock(ctx.client, waiting.metadata.uuid)).status.status, 'WAITING_FOR_USER_INPUT');
      await capture(page, shot('block-waiting'));
      await page.getByLabel('App name').fill('waiting');
      await page.getByRole('button', { name: 'Save inputs and run' }).click();
      await page.getByTestId('block-status').getByText('PENDING').waitFor();
      await page.getByRole('heading', { name: 'This block waits for your inputs' }).waitFor({ state: 'detached' });

      // The run fails; the page follows live and offers to run it again.
      await page.getByText('Live: changes appear as they happen').waitFor();
      await markDocument(page);
      await runnerReports(ctx.client, 'FAILED');
      await page.getByTestId('block-status').getByText('FAILED').waitFor();
      await page
        .getByText(/waited \d+ s for a runner, ran \d+ s/)
        .first()
        .waitFor();
      await capture(page, shot('block-failed'));
      await page.getByRole('button', { name: 'Run again' }).click();
      await page.getByTestId('block-status').getByText('PENDING').waitFor();
      await page.getByText('Run 2 (APPLY)').waitFor();
      assert.equal(await documentMark(page), 42, 'the page was not reloaded');
      assert.equal((await readBlock(ctx.client, waiting.metadata.uuid)).status.status, 'PENDING');
      await runnerReports(ctx.client, 'SUCCEEDED');
      await page.getByTestId('block-status').getByText('SUCCEEDED').waitFor();
      await page.getByRole('button', { name: 'Run again' }).waitFor({ state: 'detached' });
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('lists blocks newest first, finds them by part of the name, and shows a new one live', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, consumerKey);
      await page.getByRole('link', { name: 'Blocks', exact: true }).click();
      await page.getByText('Live: changes appear as they happen').waitFor();
      const names = () => page.locator('tbody tr td:first-child').allTextContents();
      await page.getByRole('link', { name: 'Waiting app' }).waitFor();
      assert.deepEqual(await names(), ['Waiting app', 'Shop frontend']);
      await markDocument(page);
      await createBlock(ctx.client, {
        versionUuid,
        target: workspaceTarget(consumer),
        displayName: 'Newest app',
        inputs: [{ key: 'appName', value: 'newest', valueType: 'STRING' }],
      });
      await page.getByRole('link', { name: 'Newest app' }).waitFor();
      assert.deepEqual(await names(), ['Newest app', 'Waiting app', 'Shop frontend']);
      assert.equal(await documentMark(page), 42, 'the page was not reloaded');
      await page.getByLabel('Name contains').fill('SHOP');
      await page.getByRole('link', { name: 'Waiting app' }).waitFor({ state: 'detached' });
      assert.deepEqual(await names(), ['Shop frontend']);
      await page.getByLabel('Name contains').fill('app');
      await page.getByRole('link', { name: 'Newest app' }).waitFor();
      await capture(page, shot('blocks-newest'));
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('names and links in the event log what each event is about, and names the key that did it', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, consumerKey);
      await page.getByRole('link', { name: 'Event log' }).click();
      // Filled once the list and the stream are up (a re-render in between would reset the field).
      await page.getByText('Live: changes appear as they happen').waitFor();
      await page
        .getByRole('cell', { name: /Status Changed/ })
        .first()
        .waitFor();
      await page.getByLabel('Title contains').fill('Building Block Created');
      await page.getByLabel('Title contains').press('Tab');
      await page
        .getByRole('cell', { name: /Status Changed/ })
        .first()
        .waitFor({ state: 'detached' });
      const created = page.getByRole('row').filter({ hasText: 'Shop frontend' });
      await created.getByRole('link', { name: 'Shop frontend' }).waitFor();
      await created.getByText(`API key ${consumerKeyName}`).waitFor();
      await created.getByText('building block Shop frontend was created').waitFor();
      assert.equal(await page.getByRole('main').getByText(orderedUuid).count(), 0, 'no uuid where a name is known');
      await page.getByLabel('Title contains').fill('Run');
      await page.getByLabel('Title contains').press('Tab');
      await page.getByRole('row').filter({ hasText: 'Building Block Run' }).getByRole('link', { name: 'Waiting app' }).first().waitFor();
      await capture(page, shot('events-named'));
      await page.getByRole('row').filter({ hasText: 'Building Block Run' }).getByRole('link', { name: 'Waiting app' }).first().click();
      await page.getByRole('heading', { name: 'Waiting app', level: 1 }).waitFor();
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });
});
