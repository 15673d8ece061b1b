/**
 * `blockyard` for people (issue 22, item 5): the CLI runs as a child process against the real
 * server, with a configuration file of its own, as a person would use it. Login, get and the errors
 * here; apply, delete and following in test/cli-follow.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { createKey, type KeyCredentials } from './support/identity.js';
import { exited, lines, login, run } from './support/cli.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createProject, createWorkspace, unique } from './support/structure.js';

describeEachDatabase('the blockyard CLI', (ctx) => {
  let dir: string;
  /** The config of the admin API user (Basic) and of an API key of `workspace`. */
  let adminConfig: string;
  let keyConfig: string;
  let workspace: string;
  let other: string;
  let key: KeyCredentials;
  const ca = () => path.join(ctx.server.dataDir, 'tls', 'cert.pem');

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'blockyard-cli-'));
    adminConfig = path.join(dir, 'admin', 'config.yaml');
    keyConfig = path.join(dir, 'key', 'config.yaml');
    workspace = unique('cli');
    other = unique('cli-other');
    await createWorkspace(ctx.client, workspace);
    await createWorkspace(ctx.client, other);
    await createProject(ctx.client, other, 'secret');
    key = await createKey(ctx.client, workspace, ['WORKSPACE_LIST', 'PROJECT_LIST']);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('login', () => {
    it('stores server, certificate and credentials in a 0600 file after the server accepted them; logs out', async () => {
      const loggedIn = exited(await run(keyConfig, ['login', ctx.server.url, '--client-id', key.clientId, '--client-secret', key.clientSecret, '--ca', ca()]), 0);
      assert.match(loggedIn.stdout, new RegExp(`Logged in to ${ctx.server.url} as API key ${key.clientId}`));
      assert.equal((await stat(keyConfig)).mode & 0o777, 0o600);
      const stored = parse(await readFile(keyConfig, 'utf8'));
      assert.equal(stored.server, ctx.server.url);
      assert.equal(stored.ca, await readFile(ca(), 'utf8'));
      assert.deepEqual(stored.credentials, { clientId: key.clientId, clientSecret: key.clientSecret });
      assert.equal(typeof stored.token.accessToken, 'string');

      await login(adminConfig, ctx.server.url, ca(), ['--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]);
      assert.equal((await stat(adminConfig)).mode & 0o777, 0o600);

      const elsewhere = path.join(dir, 'elsewhere', 'config.yaml');
      exited(await run(elsewhere, ['login', ctx.server.url, '--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password, '--ca', ca()]), 0);
      assert.match(exited(await run(elsewhere, ['logout']), 0).stdout, /Logged out/);
      await assert.rejects(stat(elsewhere), { code: 'ENOENT' });
      const after = exited(await run(elsewhere, ['get', 'workspaces']), 1);
      assert.match(after.stderr, /^blockyard: not logged in .*run `blockyard login/);
    });

    it('stores nothing when the server refuses the credentials or its certificate is not trusted', async () => {
      const refused = path.join(dir, 'refused', 'config.yaml');
      const wrong = exited(await run(refused, ['login', ctx.server.url, '--client-id', key.clientId, '--client-secret', 'not-the-secret', '--ca', ca()]), 1);
      assert.match(wrong.stderr, /^blockyard: login: not authenticated \(401\): /);
      assert.doesNotMatch(wrong.stderr, /\n\s+at /, 'no stack trace');
      const untrusted = exited(await run(refused, ['login', ctx.server.url, '--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]), 1);
      assert.match(untrusted.stderr, /the certificate of https:\/\/.* is not trusted \([A-Z_]+\): log in with the server's certificate or CA/);
      const closed = exited(await run(refused, ['login', 'https://127.0.0.1:1', '--username', 'x', '--password', 'y']), 1);
      assert.match(closed.stderr, /cannot connect to https:\/\/127\.0\.0\.1:1: connection refused/);
      await assert.rejects(stat(refused), { code: 'ENOENT' });
      const both = exited(await run(refused, ['login', ctx.server.url, '--ca', ca(), '--insecure']), 1);
      assert.match(both.stderr, /--ca and --insecure exclude each other/);
    });

    it('refuses a config file others can read, saying how to fix it', async () => {
      await chmod(keyConfig, 0o644);
      try {
        const refused = exited(await run(keyConfig, ['get', 'workspaces']), 1);
        assert.match(refused.stderr, new RegExp(`${keyConfig} is accessible by other users \\(mode 644\\).*chmod 600`));
      } finally {
        await chmod(keyConfig, 0o600);
      }
    });

    it('renews an expired token by itself, and a token the server refuses (401) once, keeping the new one', async () => {
      const stored = parse(await readFile(keyConfig, 'utf8'));
      for (const token of [
        { accessToken: stored.token.accessToken, expiresAt: new Date(Date.now() - 1000).toISOString() },
        { accessToken: 'not-a-token', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      ]) {
        await writeFile(keyConfig, JSON.stringify({ ...stored, token }), { mode: 0o600 });
        const listed = exited(await run(keyConfig, ['get', 'workspace', workspace, '-o', 'json']), 0);
        assert.equal(JSON.parse(listed.stdout).metadata.name, workspace);
        const renewed = parse(await readFile(keyConfig, 'utf8'));
        assert.notEqual(renewed.token.accessToken, token.accessToken);
        assert.ok(Date.parse(renewed.token.expiresAt) > Date.now());
        assert.equal((await stat(keyConfig)).mode & 0o777, 0o600);
      }
    });
  });

  describe('get', () => {
    const projects = ['alpha', 'beta', 'gamma'];
    before(async () => {
      for (const name of projects) await createProject(ctx.client, workspace, name, { spec: { displayName: `Project ${name}` } });
    });

    it('lists every page (filtered) as JSON, YAML, a table and a wide table', async () => {
      const list = ['get', 'projects', '--filter', `workspaceIdentifier=${workspace}`, '--page-size', '2'];
      const json = JSON.parse(exited(await run(adminConfig, [...list, '-o', 'json']), 0).stdout);
      assert.deepEqual(json.map((project: { metadata: { name: string } }) => project.metadata.name).sort(), projects, 'three projects over two pages');
      assert.ok(json.every((project: object) => !('_links' in project)), 'objects without their HAL links');

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
      assert.match(exited(await run(adminConfig, ['get', 'projects', '--filter', 'workspace=x']), 1).stderr, /--filter workspace: projects take only workspaceIdentifier, /);
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
      assert.match(forbidden.stderr, new RegExp(`^blockyard: deleting meshProject ${other}\\.secret: forbidden \\(403\\): .*; these credentials lack the permission\n$`));
      assert.equal((await ctx.client.get(`/api/meshobjects/meshprojects/${other}.secret`, { headers: { accept: 'application/vnd.vendor.api.meshproject.v2.hal+json' } })).status, 200, 'still there');
    });
  });
});

describe('blockyard --help', () => {
  it('lists every command; each has its own --help', async () => {
    const config = path.join(tmpdir(), 'blockyard-cli-help-none.yaml');
    const help = exited(await run(config, ['--help']), 0).stdout;
    for (const command of ['serve', 'admin', 'login', 'logout', 'get', 'apply', 'delete', 'runs', 'events']) assert.match(help, new RegExp(`^  ${command}\\b`, 'm'));
    assert.match(exited(await run(config, ['get', '--help']), 0).stdout, /buildingblocks, buildingblock, bb, blocks, block\n/);
    assert.match(exited(await run(config, ['runs', 'logs', '--help']), 0).stdout, /--follow/);
    assert.match(exited(await run(config, ['admin', '--help']), 0).stdout, /blockyard admin create-key/);
  });
});
