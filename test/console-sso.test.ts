/**
 * The console with single sign-on, in Chromium against a real OpenID Provider (oidc-provider over
 * HTTPS in this process): the sign-in page offers single sign-on, the provider's own login and consent
 * pages sign the person in, the header names the person, a reload and a second tab stay signed in, the
 * workspace switches, and signing out ends the session on the server (the old cookie is refused).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ApiClient, media } from './support/client.js';
import { capture, ensureConsoleBuilt, launchBrowser, newContext, watchErrors } from './support/console.js';
import { freePort, startOpenIdProvider, type TestOpenIdProvider } from './support/oidc-provider.js';
import { bindPerson } from './support/people.js';
import { describeEachDatabase } from './support/server.js';
import { createReleasedDefinition } from './support/definitions.js';
import { asRun, claimRun, register, report, SHARED_RUNNERS } from './support/runs.js';
import { createWorkspace, io, unique, type Json } from './support/structure.js';

const SESSION = '__Host-blockyard-session';
const env: Record<string, string> = {};
let provider: TestOpenIdProvider;
let browser: Browser;

before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
  const port = await freePort();
  const publicUrl = `https://localhost:${port}`;
  provider = await startOpenIdProvider(publicUrl, []);
  Object.assign(env, provider.env, { BLOCKYARD_PORT: String(port), BLOCKYARD_PUBLIC_URL: publicUrl });
});
after(async () => {
  await browser?.close();
  await provider?.close();
});

/** Signs `person` in through the provider's own login and consent pages (any password). */
async function signInWithSso(page: Page, baseUrl: string, person: string): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByRole('button', { name: /single sign-on/i }).click();
  await page.locator('input[name="login"]').fill(person);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The header's identity once the console shows it. */
const identityOf = async (page: Page) => {
  await page.getByTestId('identity').waitFor();
  return (await page.getByTestId('identity').textContent()) ?? '';
};

describeEachDatabase(
  'the console with single sign-on',
  (ctx) => {
    const team = unique('sso-team');
    const second = unique('sso-second');
    let person: string;
    const shot = (name: string) => `${ctx.server.dialect}-sso-${name}`;

    before(async () => {
      for (const name of [team, second]) await createWorkspace(ctx.client, name);
      person = await bindPerson(ctx.client, team, 'Workspace Member');
      const binding = {
        apiVersion: 'v2',
        kind: 'meshWorkspaceUserBinding',
        metadata: { name: unique('b') },
        targetRef: { name: second },
        roleRef: { name: 'Workspace Member' },
        subject: { name: person },
      };
      const bound = await ctx.client.post('/api/meshobjects/meshworkspacebindings/userbindings', binding, {
        headers: io(media('meshworkspaceuserbinding', 'v2')),
      });
      assert.equal(bound.status, 201, bound.text);
    });

    it('signs a person in through the provider, keeps the session across a reload and a second tab, and signs out for good', async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      const watch = watchErrors(page);
      try {
        await page.goto(`${ctx.server.url}/console/`);
        const button = page.getByRole('button', { name: /single sign-on/i });
        await button.waitFor();
        await capture(page, shot('sign-in'));

        // The provider's own pages: its login form (any password), then its consent.
        await button.click();
        await page.locator('input[name="login"]').waitFor();
        assert.equal(new URL(page.url()).origin, provider.issuer);
        await page.locator('input[name="login"]').fill(person);
        await page.locator('input[name="password"]').fill('any-password');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();

        assert.match(await identityOf(page), new RegExp(person));
        assert.equal(new URL(page.url()).origin, new URL(ctx.server.url).origin);
        const cookie = (await context.cookies(ctx.server.url)).find((candidate) => candidate.name === SESSION);
        assert.ok(cookie, 'the session cookie is set');
        assert.equal(cookie.httpOnly, true);
        assert.equal(cookie.secure, true);
        assert.equal(cookie.sameSite, 'Lax');
        assert.equal(await page.evaluate('document.cookie'), '', 'scripts cannot read the session cookie');
        await capture(page, shot('signed-in'));

        await page.reload();
        assert.match(await identityOf(page), new RegExp(person), 'a reload stays signed in');
        const tab = await context.newPage();
        await tab.goto(`${ctx.server.url}/console/#/marketplace`);
        assert.match(await identityOf(tab), new RegExp(person), 'a second tab is signed in');
        await tab.close();

        // Two workspaces: the header switches between them (the page reloads acting in the other).
        const workspace = page.getByRole('combobox', { name: 'Workspace' });
        assert.equal(await workspace.inputValue(), [team, second].sort()[0]);
        const other = [team, second].sort()[1]!;
        await Promise.all([page.waitForEvent('load'), workspace.selectOption(other)]);
        await identityOf(page);
        assert.equal(
          await page.getByRole('combobox', { name: 'Workspace' }).inputValue(),
          other,
          'the reloaded console acts in the chosen workspace',
        );

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('button', { name: /single sign-on/i }).waitFor();
        const ca = await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8');
        const replay = new ApiClient(ctx.server.url, ca, { cookie: `${SESSION}=${cookie.value}` });
        replay.openapi = ctx.client.openapi;
        try {
          assert.deepEqual((await replay.get('/auth/session')).json, { oidc: true, session: null }, 'the session ended on the server');
          assert.equal(
            (await replay.get('/api/meshobjects/meshworkspaces', { headers: { accept: media('meshworkspace', 'v2') } })).status,
            401,
            'the old cookie is refused',
          );
        } finally {
          await replay.close();
        }
        await page.reload();
        await page.getByRole('button', { name: /single sign-on/i }).waitFor();
        assert.equal(await page.getByTestId('identity').count(), 0, 'still signed out after a reload');
        const ours = watch.errors.filter((error) => error.includes(new URL(ctx.server.url).origin));
        assert.deepEqual(ours, [], 'no browser console errors from the console');
      } finally {
        await context.close();
      }
    });

    it('a Workspace Member signed in with single sign-on orders a definition offered to its workspace, follows it live to SUCCEEDED, and sees nothing of another workspace', async () => {
      const [platformTeam, appTeam, elsewhere] = [unique('sso-prov'), unique('sso-apps'), unique('sso-else')];
      for (const name of [platformTeam, appTeam, elsewhere]) await createWorkspace(ctx.client, name);
      const definitionName = unique('Queue');
      // Released by an admin: published at once, offered to every workspace.
      await createReleasedDefinition(
        ctx.client,
        platformTeam,
        'manual',
        {
          inputs: {
            queueName: {
              displayName: 'Queue name',
              type: 'STRING',
              assignmentType: 'USER_INPUT',
              valueValidationRegex: '^[a-z-]+$',
              validationRegexErrorMessage: 'lower-case letters and dashes',
            },
          },
        },
        { displayName: definitionName, description: 'A message queue', targetType: 'WORKSPACE_LEVEL' },
      );
      const member = await bindPerson(ctx.client, appTeam, 'Workspace Member');
      const context = await newContext(browser);
      const page = await context.newPage();
      const watch = watchErrors(page);
      try {
        await signInWithSso(page, ctx.server.url, member);
        assert.match(await identityOf(page), new RegExp(member));
        await page.evaluate(`window.location.hash = '#/marketplace'`);
        await page.getByRole('link', { name: definitionName }).click();
        await page.getByRole('link', { name: 'Order', exact: true }).click();
        await page.getByLabel('Name (required)', { exact: true }).fill('Orders queue');
        await page.getByLabel('Queue name').fill('orders');
        await capture(page, shot('order'));
        await page.getByRole('button', { name: 'Order building block' }).click();
        await page.getByRole('heading', { name: 'Orders queue', level: 1 }).waitFor();
        await page.getByText(`by ${member}`).waitFor();
        await page.getByText('Live: changes appear as they happen').waitFor();

        // The platform team's runner does the work; the page follows it live.
        const run = await claimRun(ctx.client, SHARED_RUNNERS.MANUAL);
        const asRunner = asRun(ctx.client, run);
        assert.equal(
          (
            await register(asRunner, run.metadata.uuid, {
              source: { id: 'ops' },
              steps: [{ id: 'create', displayName: 'Create the queue' }],
            })
          ).status,
          200,
        );
        await report(asRunner, run.metadata.uuid, 'ops', { status: 'SUCCEEDED', steps: [{ id: 'create', status: 'SUCCEEDED' }] });
        await page.getByTestId('block-status').getByText('SUCCEEDED').waitFor();
        await capture(page, shot('block-succeeded'));
        await page.evaluate(`window.location.hash = '#/blocks'`);
        await page.getByRole('row', { name: /Orders queue.*SUCCEEDED/ }).waitFor();

        // Nothing of another workspace: its answers are "not found" to this person.
        const cookie = (await context.cookies(ctx.server.url)).find((candidate) => candidate.name === SESSION)!;
        const ca = await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8');
        const asMember = new ApiClient(ctx.server.url, ca, { cookie: `${SESSION}=${cookie.value}` });
        asMember.openapi = ctx.client.openapi;
        try {
          assert.equal(
            (await asMember.get(`/api/meshobjects/meshworkspaces/${elsewhere}`, { headers: { accept: media('meshworkspace', 'v2') } }))
              .status,
            404,
          );
          const blocks = (
            await asMember.get('/api/meshobjects/meshbuildingblocks', { headers: { accept: media('meshbuildingblock', 'v2-preview') } })
          ).json as Json;
          const names = (blocks._embedded?.meshBuildingBlocks ?? []).map(
            (block: Json) => block.spec.workspaceIdentifier ?? block.metadata.ownedByWorkspace,
          );
          assert.ok(
            names.every((workspace: string) => workspace === appTeam),
            `blocks of other workspaces: ${names.join(', ')}`,
          );
        } finally {
          await asMember.close();
        }
        const ours = watch.errors.filter((error) => error.includes(new URL(ctx.server.url).origin));
        assert.deepEqual(ours, [], 'no browser console errors from the console');
      } finally {
        await context.close();
      }
    });
  },
  env,
);
