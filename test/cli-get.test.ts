/**
 * `blockyard get`: every output format, filters, paging, one object; and the
 * errors people meet (401, 403, 404), as child processes against the real server.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { exited, lines, login, run } from './support/cli.js';
import { createKey } from './support/identity.js';
import { describeEachDatabase, startTestServer, TEST_ADMIN } from './support/server.js';
import { createProject, createWorkspace, unique } from './support/structure.js';

describeEachDatabase('the blockyard CLI: get and its errors', (ctx) => {
  let dir: string;
  /** The config of the admin API user (Basic) and of an API key of `workspace`. */
  let adminConfig: string;
  let keyConfig: string;
  let workspace: string;
  /** Another workspace, with a project the key must not see. */
  let other: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'blockyard-cli-'));
    adminConfig = path.join(dir, 'admin.yaml');
    keyConfig = path.join(dir, 'key.yaml');
    workspace = unique('cli');
    other = unique('cli-other');
    await createWorkspace(ctx.client, workspace);
    await createWorkspace(ctx.client, other);
    await createProject(ctx.client, other, 'secret');
    const key = await createKey(ctx.client, workspace, ['WORKSPACE_LIST', 'PROJECT_LIST']);
    const ca = path.join(ctx.server.dataDir, 'tls', 'cert.pem');
    await login(adminConfig, ctx.server.url, ca, ['--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]);
    await login(keyConfig, ctx.server.url, ca, ['--client-id', key.clientId, '--client-secret', key.clientSecret]);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('get', () => {
    const projects = ['alpha', 'beta', 'gamma'];
    before(async () => {
      for (const name of projects) await createProject(ctx.client, workspace, name, { spec: { displayName: `Project ${name}` } });
    });

    it('lists every page (filtered) as JSON, YAML, a table and a wide table', async () => {
      const list = ['get', 'projects', '--filter', `workspaceIdentifier=${workspace}`, '--page-size', '2'];
      const json = JSON.parse(exited(await run(adminConfig, [...list, '-o', 'json']), 0).stdout);
      assert.deepEqual(
        json.map((project: { metadata: { name: string } }) => project.metadata.name).sort(),
        projects,
        'three projects over two pages',
      );
      assert.ok(
        json.every((project: object) => !('_links' in project)),
        'objects without their HAL links',
      );

      const yaml = parseAllDocuments(exited(await run(adminConfig, [...list, '-o', 'yaml']), 0).stdout).map((document) => document.toJS());
      assert.deepEqual(yaml, json);

      const table = lines(exited(await run(adminConfig, list), 0).stdout);
      assert.match(table[0]!, /^ID +DISPLAY NAME +WORKSPACE$/);
      assert.deepEqual(
        table.slice(1).map((line) => line.split(/ {2,}/)),
        projects.map((name) => [`${workspace}.${name}`, `Project ${name}`, workspace]),
      );
      const wide = lines(exited(await run(adminConfig, [...list, '-o', 'wide']), 0).stdout);
      assert.match(wide[0]!, /^ID +DISPLAY NAME +WORKSPACE +CREATED$/);
      assert.equal(wide.length, 4);
    });

    it('shows one object by its id; refuses an unknown kind or filter, and finds nothing as nothing', async () => {
      const one = JSON.parse(exited(await run(adminConfig, ['get', 'project', `${workspace}.beta`, '-o', 'json']), 0).stdout);
      assert.equal(one.spec.displayName, 'Project beta');
      const table = lines(exited(await run(adminConfig, ['get', 'ws', workspace]), 0).stdout);
      assert.equal(table.length, 2);
      assert.match(table[1]!, new RegExp(`^${workspace}\\s`));

      assert.match(exited(await run(adminConfig, ['get', 'gizmos']), 1).stderr, /unknown kind "gizmos"; the kinds: workspaces, projects, /);
      assert.match(
        exited(await run(adminConfig, ['get', 'projects', '--filter', 'workspace=x']), 1).stderr,
        /--filter workspace: projects take only workspaceIdentifier, /,
      );
      assert.match(exited(await run(adminConfig, ['get', 'projects', '-o', 'xml']), 2).stderr, /argument 'xml' is invalid/);
      const none = exited(await run(adminConfig, ['get', 'projects', '--filter', `workspaceIdentifier=${unique('empty')}`]), 0);
      assert.equal(none.stdout, '');
      assert.match(none.stderr, /No projects found/);
    });
  });

  describe('the errors people meet', () => {
    it('401: credentials the server does not take; 404 for another workspace’s object; 403 for a write the key may not do', async () => {
      const unauthenticated = exited(await run(keyConfig, ['get', 'workspaces'], { env: { BLOCKYARD_TOKEN: 'not-a-token' } }), 1);
      assert.match(unauthenticated.stderr, /^blockyard: listing workspaces: not authenticated \(401\): .*; run `blockyard login` again\n$/);

      const hidden = exited(await run(keyConfig, ['get', 'project', `${other}.secret`]), 1);
      assert.match(hidden.stderr, new RegExp(`^blockyard: meshProject ${other}\\.secret: not found \\(404\\): `));

      const forbidden = exited(await run(keyConfig, ['delete', 'project', `${other}.secret`]), 1);
      assert.match(
        forbidden.stderr,
        new RegExp(`^blockyard: deleting meshProject ${other}\\.secret: forbidden \\(403\\): .*; these credentials lack the permission\n$`),
      );
      assert.equal(
        (
          await ctx.client.get(`/api/meshobjects/meshprojects/${other}.secret`, {
            headers: { accept: 'application/vnd.vendor.api.meshproject.v2.hal+json' },
          })
        ).status,
        200,
        'still there',
      );
    });
  });
});

// The message is the CLI's, so one database is enough; the server's rate limit is lowered to meet it.
describe('the blockyard CLI: 429', () => {
  it('says the rate limit was hit and when to try again (Retry-After), with the login from the environment', async () => {
    // Windows are fixed and aligned to the clock: a day's window keeps the three requests in one (a minute's
    // could end between them on a loaded machine); a test started in a day's last minute waits for the next.
    const day = 86_400_000;
    const leftOfWindow = day - (Date.now() % day);
    if (leftOfWindow < 60_000) await new Promise((resolve) => setTimeout(resolve, leftOfWindow + 100));
    const server = await startTestServer('sqlite', {
      env: { BLOCKYARD_RATE_LIMIT_MAX: '2', BLOCKYARD_RATE_LIMIT_WINDOW_SECONDS: '86400' },
    });
    try {
      // The same credential as the CLI's (the bootstrap API user) spends the window's two requests.
      for (let i = 0; i < 2; i++)
        assert.equal(
          (
            await server.client.get('/api/meshobjects/meshworkspaces', {
              headers: { accept: 'application/vnd.vendor.api.meshworkspace.v2.hal+json' },
            })
          ).status,
          200,
        );
      const env = {
        BLOCKYARD_URL: server.url,
        BLOCKYARD_CA_FILE: path.join(server.dataDir, 'tls', 'cert.pem'),
        BLOCKYARD_USERNAME: TEST_ADMIN.username,
        BLOCKYARD_PASSWORD: TEST_ADMIN.password,
      };
      const limited = exited(await run(path.join(tmpdir(), 'blockyard-cli-none.yaml'), ['get', 'workspaces'], { env }), 1);
      assert.match(
        limited.stderr,
        /^blockyard: listing workspaces: too many requests \(429\): rate limit of 2 requests per 86400 s exceeded; .*; try again in \d+ s\n$/,
      );
    } finally {
      await server.stop();
    }
  });
});
