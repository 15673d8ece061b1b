import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CONSOLE_CSP } from '../src/http/console-routes.js';
import {
  APIKEY,
  browserForFile,
  capture,
  consoleWorld,
  type ConsoleWorld,
  createKey,
  newContext,
  signInWithKey,
  watchErrors,
} from './support/console.js';
import { skipUnless } from './support/databases.js';
import { createReleasedDefinition, DEFINITION, VERSION } from './support/definitions.js';
import { asRun, claimRun, createBlock, getBlock, readBlock, register, report, SHARED_RUNNERS, tenantTarget } from './support/runs.js';
import { describeEachDatabase, startInstanceOf, startTestServer, TEST_ADMIN, type TestServer } from './support/server.js';
import { createWorkspace, unique } from './support/structure.js';
import type { ApiClient } from './support/client.js';

const browser = browserForFile();

/** Plays the shared manual runner through the API: claims the waiting run and reports it done with an output. */
async function runnerCompletes(admin: ApiClient, bucket: string): Promise<void> {
  const run = await claimRun(admin, SHARED_RUNNERS.MANUAL);
  const asRunner = asRun(admin, run);
  const registered = await register(asRunner, run.metadata.uuid, {
    source: { id: 'storage-team' },
    steps: [{ id: 'create', displayName: 'Create the bucket' }],
  });
  assert.equal(registered.status, 200, registered.text);
  await report(asRunner, run.metadata.uuid, 'storage-team', {
    status: 'SUCCEEDED',
    steps: [
      {
        id: 'create',
        status: 'SUCCEEDED',
        userMessage: `bucket ${bucket} is ready`,
        systemMessage: 'created by the storage team',
        outputs: { bucketName: { value: `${bucket}-0042`, type: 'STRING', isSensitive: false } },
      },
    ],
  });
}

/** Marks the document; a reload would lose the mark. */
const markDocument = (page: Page) => page.evaluate('window.consoleMark = 42');
const documentMark = (page: Page) => page.evaluate<number | undefined>('window.consoleMark');

describeEachDatabase('the console in a real browser', (ctx) => {
  let world: ConsoleWorld;
  let blockUuid: string;
  const shot = (name: string) => `${ctx.server.dialect}-${name}`;

  before(async () => {
    world = await consoleWorld(ctx.client);
  });

  it('is served at /console with a strict Content-Security-Policy and no credentials', async () => {
    const page = await ctx.client.get('/console/', { anonymous: true, headers: { accept: 'text/html' } });
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers['content-type']!, /^text\/html/);
    assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /script-src 'self';/);
    assert.doesNotMatch(CONSOLE_CSP, /unsafe/);
    assert.doesNotMatch(page.text, /<script>|<style>|style=/, 'no inline script or style');
    const script = await ctx.client.get('/console/app.js', { anonymous: true });
    assert.equal(script.status, 200);
    assert.match(script.headers['content-type']!, /^text\/javascript/);
    const redirect = await ctx.client.get('/console', { anonymous: true });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.location, '/console/');
    const missing = await ctx.client.get('/console/../api/meshobjects', { anonymous: true });
    assert.notEqual(missing.status, 200, 'no path reaches outside the bundle');
    const unknown = await ctx.client.get('/console/secrets.txt', { anonymous: true });
    assert.equal(unknown.status, 404);
  });

  it('takes an application team from sign-in through the marketplace to an order that turns SUCCEEDED live', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await page.goto(`${ctx.server.url}/console/`);
      await page.getByRole('heading', { name: 'Sign in to Blockyard' }).waitFor();
      await capture(page, shot('sign-in'));

      // A wrong secret: the server's words, no sign-in.
      watch.expect(401);
      await page.getByLabel('Client id').fill(world.key.clientId);
      await page.getByLabel('Client secret').fill('not-the-secret');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('invalid client credentials').waitFor();

      await signInWithKey(page, ctx.server.url, world.key);
      assert.doesNotMatch(page.url(), new RegExp(world.key.clientSecret), 'no secret in the URL');
      await page.getByTestId('identity').getByText(world.team).waitFor();
      await page.getByLabel('Search').fill(world.definitionName.slice(0, 12));
      await page.getByRole('link', { name: world.definitionName }).waitFor();
      await capture(page, shot('marketplace'));

      // The definition: its readme rendered from Markdown and sanitised, its version's inputs.
      await page.getByRole('link', { name: world.definitionName }).click();
      await page.locator('.readme h1', { hasText: 'Object storage' }).waitFor();
      assert.equal(await page.locator('.readme strong', { hasText: 'private' }).count(), 1);
      assert.equal(await page.locator('.readme script').count(), 0);
      assert.equal(await page.locator('.readme a[href^="javascript"]').count(), 0);
      await page.getByRole('cell', { name: /Bucket name/ }).waitFor();
      await capture(page, shot('definition'));

      // The order form, generated from the inputs; a required input left empty: its field says so.
      await page.getByRole('link', { name: 'Order', exact: true }).click();
      await page.getByLabel('Bucket name').waitFor();
      assert.equal(await page.getByLabel('Region').inputValue(), 'eu-west', 'the default is preselected');
      assert.equal(await page.getByLabel('Size in GB').inputValue(), '10');
      assert.equal(await page.getByLabel('Tenant').inputValue(), world.tenantUuid, 'the one tenant the team sees is chosen');
      await page.getByLabel('Name (required)', { exact: true }).fill('Orders bucket');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.locator('#input-bucketName-error', { hasText: 'Bucket name is required' }).waitFor();
      await capture(page, shot('order-required'));

      // A value the server refuses: its 400 message appears next to the field it names.
      watch.expect(400);
      await page.getByLabel('Bucket name').fill('Orders_Bucket');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.locator('#input-bucketName-error', { hasText: 'lower-case letters, digits and dashes' }).waitFor();
      assert.equal(
        (
          await ctx.client.get(`/api/meshobjects/meshbuildingblocks?definitionUuid=${world.definition.metadata.uuid}`, {
            headers: { accept: 'application/vnd.vendor.api.meshbuildingblock.v2-preview.hal+json' },
          })
        ).json.page.totalElements,
        0,
        'nothing stored',
      );
      await capture(page, shot('order-refused'));

      await page.getByLabel('Bucket name').fill('orders');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.getByRole('heading', { name: 'Orders bucket', level: 1 }).waitFor();
      blockUuid = decodeURIComponent(new URL(page.url()).hash.split('/').at(-1)!);
      await page.getByTestId('block-status').getByText('PENDING').waitFor();
      await page.getByText('Live: changes appear as they happen').waitFor();
      await capture(page, shot('block-pending'));

      // A runner claims and reports through the API; the page follows without a reload.
      await markDocument(page);
      await runnerCompletes(ctx.client, 'orders');
      await page.getByTestId('block-status').getByText('SUCCEEDED').waitFor();
      await page.getByTestId('outputs').getByText('orders-0042').waitFor();
      await page.getByText('bucket orders is ready').waitFor();
      assert.equal(await documentMark(page), 42, 'the page was not reloaded');
      assert.equal((await readBlock(ctx.client, blockUuid)).status.status, 'SUCCEEDED');
      await capture(page, shot('block-succeeded'));

      // The list, filtered by status.
      await page.getByRole('link', { name: 'Blocks', exact: true }).click();
      await page.getByLabel('Status').selectOption('SUCCEEDED');
      await page.getByRole('link', { name: 'Orders bucket' }).waitFor();
      await capture(page, shot('blocks'));

      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('lets the platform team make a draft, release it and see the blocks of its definition', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, world.key);
      await page.getByRole('link', { name: 'Platform', exact: true }).click();
      await page.getByRole('link', { name: world.definitionName }).click();
      await page.getByRole('heading', { name: world.definitionName, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New draft' }).click();
      await page.getByRole('button', { name: 'Create draft' }).click();
      await page.getByText(/Version 2\s*DRAFT/).waitFor();
      await capture(page, shot('platform-draft'));
      await page.getByRole('button', { name: 'Release version 2' }).click();
      await page.getByRole('button', { name: 'Release', exact: true }).click();
      await page.getByText(/Version 2\s*RELEASED\s*IN REVIEW/).waitFor();
      await page.getByRole('link', { name: 'Orders bucket' }).waitFor();
      const versions = await ctx.client.get(
        `/api/meshobjects/meshbuildingblockdefinitionversions?buildingBlockDefinitionUuid=${world.definition.metadata.uuid}`,
        { headers: { accept: VERSION } },
      );
      assert.deepEqual(
        versions.json._embedded.meshBuildingBlockDefinitionVersions.map(
          (v: { spec: { versionNumber: number; state: string } }) => `${v.spec.versionNumber} ${v.spec.state}`,
        ),
        ['1 RELEASED', '2 RELEASED'],
      );
      await capture(page, shot('platform-definition'));

      // Operators see the run with its system message.
      await page.getByRole('link', { name: 'Orders bucket' }).click();
      await page.getByText('System message (operators only)').click();
      await page.getByText('created by the storage team').waitFor();

      await page.getByRole('link', { name: 'Runners' }).click();
      await page.getByRole('cell', { name: 'MANUAL' }).first().waitFor();
      await capture(page, shot('runners'));
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('orders a block that builds on a parent block, and shows the relation on both pages', async () => {
    const storage = world.definition.metadata.uuid as string;
    const databaseName = unique('App database');
    await createReleasedDefinition(
      ctx.client,
      world.team,
      'manual',
      {
        dependencyDefinitionRefs: [{ uuid: storage, kind: 'meshBuildingBlockDefinition' }],
        inputs: {
          bucket: {
            displayName: 'Backup bucket',
            type: 'STRING',
            assignmentType: 'BUILDING_BLOCK_OUTPUT',
            argument: `${storage}.bucketName`,
          },
        },
      },
      {
        displayName: databaseName,
        description: 'A database backed up into a bucket',
        targetType: 'TENANT_LEVEL',
        supportedPlatforms: ['CUSTOM'],
      },
    );
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, world.key);
      await page.getByRole('link', { name: databaseName }).click();
      await page.getByRole('link', { name: 'Order', exact: true }).click();
      await page.getByLabel('Name (required)', { exact: true }).fill('Orders database');
      await page.getByRole('button', { name: 'Order building block' }).click();
      const parent = page.getByLabel(`Builds on a ${world.definitionName} block`);
      await page.getByText(`Choose the ${world.definitionName} block this one builds on`).waitFor();
      await parent.selectOption({ label: `Orders bucket (${world.team})` });
      await capture(page, shot('order-parent'));
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.getByRole('heading', { name: 'Orders database', level: 1 }).waitFor();
      // The parent is named, not shown as its uuid.
      await page.getByRole('listitem').filter({ hasText: 'Parent:' }).getByRole('link', { name: 'Orders bucket' }).click();
      await page.getByRole('heading', { name: 'Orders bucket', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Orders database' }).waitFor();
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('creates an API key with the permission picker, shows its secret once, lists events and signs out', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, ctx.server.url, world.key);
      // Keyboard: the first Tab reaches the skip link, which moves the focus to the content.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate('document.activeElement.id'), 'main');
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name', { exact: true }).fill('ci pipeline');
      await page.getByLabel('BUILDINGBLOCK_LIST', { exact: true }).check();
      assert.equal(await page.getByLabel('ADM_BUILDINGBLOCK_LIST').count(), 0, 'only what the key holds is offered');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('client-secret').textContent())!;
      assert.match(secret, /^[A-Za-z0-9]{40}$/);
      await page.getByRole('cell', { name: /ci pipeline/ }).waitFor();
      await capture(page, shot('keys'));
      const clientId = (await page.getByTestId('secret-notice').locator('code').first().textContent())!;
      const login = await ctx.client.post(
        '/api/login',
        { clientId, clientSecret: secret },
        { anonymous: true, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(login.status, 200, login.text);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      assert.equal(await page.getByTestId('client-secret').count(), 0, 'the secret is shown once');

      // Rotation: a new secret, shown once; the old one stops working. Deletion: the key is gone.
      const row = page.getByRole('row').filter({ hasText: 'ci pipeline' });
      await row.getByRole('button', { name: 'Rotate' }).click();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.getByTestId('client-secret').textContent())!;
      assert.notEqual(rotated, secret);
      assert.equal(
        (
          await ctx.client.post(
            '/api/login',
            { clientId, clientSecret: secret },
            { anonymous: true, headers: { 'content-type': 'application/json' } },
          )
        ).status,
        401,
      );
      assert.equal(
        (
          await ctx.client.post(
            '/api/login',
            { clientId, clientSecret: rotated },
            { anonymous: true, headers: { 'content-type': 'application/json' } },
          )
        ).status,
        200,
      );
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Delete key' }).click();
      await row.waitFor({ state: 'detached' });
      assert.equal((await ctx.client.get(`/api/meshobjects/meshapikeys/${clientId}`, { headers: { accept: APIKEY } })).status, 404);

      await page.getByRole('link', { name: 'Event log' }).click();
      await page
        .getByRole('cell', { name: /API Key Created/ })
        .first()
        .waitFor();
      await page.getByLabel('Title contains').fill('Building Block Created');
      await page.getByLabel('Title contains').press('Tab');
      // The filtered page replaces the whole list: the key's event goes, the block's stays.
      await page
        .getByRole('cell', { name: /API Key Created/ })
        .first()
        .waitFor({ state: 'detached' });
      await page
        .getByRole('cell', { name: /Building Block Created/ })
        .first()
        .waitFor();
      await capture(page, shot('events'));

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Blockyard' }).waitFor();
      assert.deepEqual(
        await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]'),
        [0, 0, ''],
        'nothing kept in the browser',
      );
      await page.goto(`${ctx.server.url}/console/#/keys`);
      await page.getByRole('heading', { name: 'Sign in to Blockyard' }).waitFor();
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('lets an administrator (API user) approve the released version in the publication review', async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await page.goto(`${ctx.server.url}/console/`);
      await page.getByLabel('an API user').check();
      await page.getByLabel('Username').fill(TEST_ADMIN.username);
      await page.getByLabel('Password').fill(TEST_ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Reviews' }).click();
      const entry = page.getByRole('listitem').filter({ hasText: `${world.definitionName} version 2` });
      await entry.waitFor();
      await capture(page, shot('reviews'));
      await entry.getByRole('button', { name: 'Approve' }).click();
      await entry.waitFor({ state: 'detached' });
      const definition = await ctx.client.get(`/api/meshobjects/meshbuildingblockdefinitions/${world.definition.metadata.uuid}`, {
        headers: { accept: DEFINITION },
      });
      assert.deepEqual(
        definition.json.status.versions.map((v: { reviewState?: string }) => v.reviewState),
        ['APPROVED', 'APPROVED'],
      );
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('purges a block for an administrator after asking', async () => {
    const doomed = await createBlock(ctx.client, {
      versionUuid: world.versionUuid,
      target: tenantTarget(world.tenantUuid),
      displayName: 'Scratch bucket',
      inputs: [{ key: 'bucketName', value: 'scratch', valueType: 'STRING' }],
    });
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await page.goto(`${ctx.server.url}/console/`);
      await page.getByLabel('an API user').check();
      await page.getByLabel('Username').fill(TEST_ADMIN.username);
      await page.getByLabel('Password').fill(TEST_ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Marketplace', level: 1 }).waitFor();
      await page.evaluate(`window.location.hash = '#/blocks/${doomed.metadata.uuid}'`);
      await page.getByRole('button', { name: 'Purge' }).click();
      await page.getByRole('dialog').getByText('nothing it provisioned is cleaned up').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await getBlock(ctx.client, doomed.metadata.uuid)).status, 200, 'cancelled: nothing happened');
      await page.getByRole('button', { name: 'Purge' }).click();
      await page.getByRole('button', { name: 'Purge block' }).click();
      await page.getByRole('heading', { name: 'Building blocks', level: 1 }).waitFor();
      assert.equal((await getBlock(ctx.client, doomed.metadata.uuid)).status, 404);
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('shows a key of another workspace nothing of the team’s, and user-supplied text only as text', async () => {
    const hostile = '<img src=x onerror="window.pwned=1">Bucket';
    await createBlock(ctx.client, {
      versionUuid: world.versionUuid,
      target: tenantTarget(world.tenantUuid),
      displayName: hostile,
      inputs: [{ key: 'bucketName', value: 'hostile', valueType: 'STRING' }],
    });
    const stranger = unique('stranger');
    await createWorkspace(ctx.client, stranger);
    const strangerKey = await createKey(ctx.client, stranger, [
      'BUILDINGBLOCK_LIST',
      'BUILDINGBLOCKDEFINITION_LIST',
      'TENANT_LIST',
      'WORKSPACE_LIST',
      'EVENTLOG_LIST',
      'APIKEY_LIST',
    ]);
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      // The team sees the hostile name as text; no script ran.
      await signInWithKey(page, ctx.server.url, world.key);
      await page.getByRole('link', { name: 'Blocks', exact: true }).click();
      await page.getByRole('link', { name: hostile }).waitFor();
      assert.equal(await page.evaluate('window.pwned'), undefined);
      assert.equal(await page.locator('main img[src="x"]').count(), 0);
      await page.getByRole('button', { name: 'Sign out' }).click();

      // Another workspace's key: the team's block is not found, its list and event log are empty of it.
      await signInWithKey(page, ctx.server.url, strangerKey);
      watch.expect(404);
      await page.evaluate(`window.location.hash = '#/blocks/${blockUuid}'`);
      await page
        .getByRole('alert')
        .getByText(/^Not found:/)
        .waitFor();
      await page.getByRole('link', { name: 'Blocks', exact: true }).click();
      await page.getByText('No building blocks.').waitFor();
      await page.getByRole('link', { name: 'Event log' }).click();
      await page
        .getByRole('cell', { name: /API Key Created/ })
        .first()
        .waitFor();
      assert.equal(await page.getByRole('main').getByText(world.team).count(), 0, 'none of the team’s events');
      await page.getByRole('link', { name: 'Platform' }).click();
      await page.getByText('No definitions yet.').waitFor();
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });

  it('is usable at phone width: every page fits, passes axe-core and is captured', async () => {
    const context = await newContext(browser(), { width: 390, height: 844 });
    const page = await context.newPage();
    const watch = watchErrors(page);
    const fits = async (name: string) => {
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(overflow <= 1, `${name} is ${overflow} px wider than the phone`);
      await capture(page, shot(`phone-${name}`));
    };
    try {
      await page.goto(`${ctx.server.url}/console/`);
      await page.getByRole('heading', { name: 'Sign in to Blockyard' }).waitFor();
      await fits('sign-in');
      await signInWithKey(page, ctx.server.url, world.key);
      await page.getByRole('link', { name: world.definitionName }).waitFor();
      await fits('marketplace');
      for (const [route, heading, name] of [
        [`marketplace/${world.definition.metadata.uuid}`, world.definitionName, 'definition'],
        [`order/${world.definition.metadata.uuid}`, `Order ${world.definitionName}`, 'order'],
        [`blocks/${blockUuid}`, 'Orders bucket', 'block'],
        ['blocks', 'Building blocks', 'blocks'],
        ['platform', 'Platform: your definitions', 'platform'],
        ['keys', 'API keys', 'keys'],
        ['events', 'Event log', 'events'],
      ] as const) {
        await page.evaluate(`window.location.hash = ${JSON.stringify(`#/${route}`)}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.locator('.loading').first().waitFor({ state: 'detached' });
        await fits(name);
      }
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });
});

describe('the console across instances [postgres]', { skip: skipUnless('postgres') }, () => {
  let first: TestServer;
  let second: TestServer;
  before(async () => {
    first = await startTestServer('postgres');
    second = await startInstanceOf(first);
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('shows a change made through instance B live on a page served by instance A', async () => {
    const world = await consoleWorld(first.client);
    const context = await newContext(browser());
    const page = await context.newPage();
    const watch = watchErrors(page);
    try {
      await signInWithKey(page, first.url, world.key);
      await page.getByRole('link', { name: world.definitionName }).click();
      await page.getByRole('link', { name: 'Order', exact: true }).click();
      await page.getByLabel('Name (required)', { exact: true }).fill('Shared bucket');
      await page.getByLabel('Bucket name').fill('shared');
      await page.getByRole('button', { name: 'Order building block' }).click();
      await page.getByTestId('block-status').getByText('PENDING').waitFor();
      await page.getByText('Live: changes appear as they happen').waitFor();
      await markDocument(page);
      await runnerCompletes(second.client, 'shared');
      await page.getByTestId('block-status').getByText('SUCCEEDED').waitFor();
      await page.getByTestId('outputs').getByText('shared-0042').waitFor();
      assert.equal(await documentMark(page), 42, 'the page was not reloaded');
      assert.deepEqual(watch.errors, [], 'no browser console errors');
    } finally {
      await context.close();
    }
  });
});
