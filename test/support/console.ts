import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { media, type ApiClient } from './client.js';
import { createReleasedDefinition } from './definitions.js';
import { createLocation, createPlatform, createProject, createTenant, createWorkspace, io, unique, type Json } from './structure.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Debian's Chromium (`.ci/run` installs it); never a browser download of Playwright's. */
export const CHROMIUM = process.env.BLOCKYARD_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'console');

/** Builds the console bundle when it is missing (a clone where `npm ci` ran without scripts). */
export function ensureConsoleBuilt(): void {
  if (existsSync(path.join(ROOT, 'dist', 'console', 'app.js'))) return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-console.mjs')], { stdio: 'inherit' });
  assert.equal(result.status, 0, 'building the console failed');
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });

/**
 * One browser for the whole test file (the machine is shared; every test opens its own context): the
 * console built and the browser launched before the file's tests, closed after them. Answers the browser.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    ensureConsoleBuilt();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/** The test server's certificate is self-signed for localhost: the browser is told to accept it. */
export const newContext = (browser: Browser, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> =>
  browser.newContext({ ignoreHTTPSErrors: true, viewport });

/**
 * Every error the page logs or throws. Chromium logs each answer ≥ 400 to a fetch as an error; the
 * statuses a step provokes on purpose (`expect(400)`) are taken once each, everything else counts.
 */
export function watchErrors(page: Page) {
  const errors: string[] = [];
  const expected: number[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    const index = status ? expected.indexOf(Number(status)) : -1;
    if (index >= 0) expected.splice(index, 1);
    else errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return {
    errors,
    expect: (status: number) => expected.push(status),
  };
}

let axeSource: Promise<string> | undefined;

/** axe-core on the page as it is: the serious and critical violations, described. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  axeSource ??= readFile(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Evaluated through the debugging protocol, which the page's CSP does not govern (an injected
  // <script> would be refused, as it should be).
  await page.evaluate(await axeSource);
  const violations = await page.evaluate<{ id: string; impact: string; help: string; targets: string[] }[]>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))
  `);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.slice(0, 3).join(', ')}`);
}

/** A screenshot of the page as a test artifact, and the page checked by axe-core. */
export async function capture(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  assert.deepEqual(await accessibilityProblems(page), [], `axe-core on ${name}`);
}

export const APIKEY = media('meshapikey', 'v1-preview');

/** Creates an API key (asserting 201); returns its client id and secret. */
export async function createKey(
  client: ApiClient,
  workspace: string,
  permissions: string[],
  displayName = unique('console'),
): Promise<{ clientId: string; clientSecret: string }> {
  const response = await client.post(
    '/api/meshobjects/meshapikeys',
    { metadata: { ownedByWorkspace: workspace }, spec: { displayName, permissions } },
    { headers: io(APIKEY) },
  );
  assert.equal(response.status, 201, response.text);
  return { clientId: response.json.status.clientId, clientSecret: response.json.status.clientSecret };
}

/** What a platform team that also orders its own blocks holds. */
export const TEAM_PERMISSIONS = [
  'WORKSPACE_LIST',
  'PROJECT_LIST',
  'TENANT_LIST',
  'BUILDINGBLOCKDEFINITION_LIST',
  'BUILDINGBLOCKDEFINITION_SAVE',
  'BUILDINGBLOCK_LIST',
  'BUILDINGBLOCK_SAVE',
  'BUILDINGBLOCK_DELETE',
  'MANAGED_BUILDINGBLOCK_LIST',
  'MANAGED_BUILDINGBLOCKRUN_LIST',
  'BUILDINGBLOCKRUNNER_LIST',
  'APIKEY_LIST',
  'APIKEY_SAVE',
  'APIKEY_DELETE',
  'EVENTLOG_LIST',
];

export interface ConsoleWorld {
  team: string;
  tenantUuid: string;
  tenantName: string;
  definition: Json;
  /** Its released version 1. */
  versionUuid: string;
  definitionName: string;
  key: { clientId: string; clientSecret: string };
}

/**
 * A team with a project and a tenant, and a released manual definition of its own (released by an
 * admin, so it is in the marketplace) whose version asks for a checked bucket name, a region and a size.
 */
export async function consoleWorld(admin: ApiClient): Promise<ConsoleWorld> {
  const team = unique('team');
  const location = unique('loc');
  const project = unique('web');
  await Promise.all([createWorkspace(admin, team), createLocation(admin, location)]);
  const platformUuid = await createPlatform(admin, team, unique('plf'), location);
  await createProject(admin, team, project);
  const tenant = await createTenant(admin, team, project, platformUuid);
  const definitionName = unique('Object storage');
  const { definition, version } = await createReleasedDefinition(
    admin,
    team,
    'manual',
    {
      inputs: {
        bucketName: {
          displayName: 'Bucket name',
          type: 'STRING',
          assignmentType: 'USER_INPUT',
          valueValidationRegex: '^[a-z][a-z0-9-]*$',
          validationRegexErrorMessage: 'lower-case letters, digits and dashes, starting with a letter',
          displayOrder: 1,
        },
        region: {
          displayName: 'Region',
          type: 'SINGLE_SELECT',
          assignmentType: 'USER_INPUT',
          selectableValues: ['eu-west', 'us-east'],
          defaultValue: 'eu-west',
          displayOrder: 2,
        },
        size: {
          displayName: 'Size in GB',
          type: 'INTEGER',
          assignmentType: 'USER_INPUT',
          defaultValue: 10,
          description: 'Grows later if needed',
          displayOrder: 3,
        },
      },
    },
    {
      displayName: definitionName,
      description: 'A private bucket for your application’s files',
      targetType: 'TENANT_LEVEL',
      supportedPlatforms: ['CUSTOM'],
      readme:
        '# Object storage\n\nA **private** bucket, encrypted at rest.\n\n<script>window.pwned = true</script><a href="javascript:window.pwned=true">click</a>\n\n- versioned\n- backed up nightly',
    },
  );
  const key = await createKey(admin, team, TEAM_PERMISSIONS);
  return {
    team,
    tenantUuid: tenant.metadata.uuid,
    tenantName: tenant.status.tenantName,
    definition,
    versionUuid: version.metadata.uuid,
    definitionName,
    key,
  };
}

/** Signs in through the form with an API key. */
export async function signInWithKey(page: Page, baseUrl: string, key: { clientId: string; clientSecret: string }): Promise<void> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('Client id').fill(key.clientId);
  await page.getByLabel('Client secret').fill(key.clientSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Marketplace', level: 1 }).waitFor();
}
