/**
 * `blockyard` for people: the CLI runs as a child process against the real
 * server, with a configuration file of its own, as a person would use it. Login and help here; get
 * and the errors in test/cli-get.test.ts; apply, delete and following in test/cli-follow.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createKey, type KeyCredentials } from './support/identity.js';
import { exited, lines, login, run } from './support/cli.js';
import { describeEachDatabase, TEST_ADMIN } from './support/server.js';
import { createWorkspace, unique } from './support/structure.js';

describeEachDatabase('the blockyard CLI', (ctx) => {
  let dir: string;
  /** The config of the admin API user (Basic) and of an API key of `workspace` (WORKSPACE_LIST only). */
  let adminConfig: string;
  let keyConfig: string;
  let workspace: string;
  let key: KeyCredentials;
  const ca = () => path.join(ctx.server.dataDir, 'tls', 'cert.pem');

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'blockyard-cli-'));
    adminConfig = path.join(dir, 'admin', 'config.yaml');
    keyConfig = path.join(dir, 'key', 'config.yaml');
    workspace = unique('cli');
    await createWorkspace(ctx.client, workspace);
    key = await createKey(ctx.client, workspace, ['WORKSPACE_LIST']);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('login', () => {
    it('stores server, certificate and credentials in a 0600 file after the server accepted them; logs out', async () => {
      const loggedIn = exited(
        await run(keyConfig, ['login', ctx.server.url, '--client-id', key.clientId, '--client-secret', key.clientSecret, '--ca', ca()]),
        0,
      );
      assert.match(loggedIn.stdout, new RegExp(`Logged in to ${ctx.server.url} as API key ${key.clientId}`));
      assert.equal((await stat(keyConfig)).mode & 0o777, 0o600);
      const stored = parse(await readFile(keyConfig, 'utf8'));
      assert.equal(stored.server, ctx.server.url);
      assert.equal(stored.ca, await readFile(ca(), 'utf8'));
      assert.deepEqual(stored.credentials, { clientId: key.clientId, clientSecret: key.clientSecret });
      assert.equal(typeof stored.token.accessToken, 'string');

      // An API user: checked against the index, stored the same way; logging out removes the file.
      assert.match(
        (await login(adminConfig, ctx.server.url, ca(), ['--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password])).stdout,
        /as API user /,
      );
      assert.equal((await stat(adminConfig)).mode & 0o777, 0o600);
      assert.match(exited(await run(adminConfig, ['logout']), 0).stdout, /Logged out/);
      await assert.rejects(stat(adminConfig), { code: 'ENOENT' });
      const after = exited(await run(adminConfig, ['get', 'workspaces']), 1);
      assert.match(after.stderr, /^blockyard: not logged in .*run `blockyard login/);
    });

    it('stores nothing when the server refuses the credentials or its certificate is not trusted', async () => {
      const refused = path.join(dir, 'refused', 'config.yaml');
      const wrong = exited(
        await run(refused, ['login', ctx.server.url, '--client-id', key.clientId, '--client-secret', 'not-the-secret', '--ca', ca()]),
        1,
      );
      assert.match(wrong.stderr, /^blockyard: login: not authenticated \(401\): /);
      assert.doesNotMatch(wrong.stderr, /\n\s+at /, 'no stack trace');
      const untrusted = exited(
        await run(refused, ['login', ctx.server.url, '--username', TEST_ADMIN.username, '--password', TEST_ADMIN.password]),
        1,
      );
      assert.match(
        untrusted.stderr,
        /the certificate of https:\/\/.* is not trusted \([A-Z_]+\): log in with the server's certificate or CA/,
      );
      const closed = exited(await run(refused, ['login', 'https://127.0.0.1:1', '--username', 'x', '--password', 'y']), 1);
      assert.match(closed.stderr, /cannot connect to https:\/\/127\.0\.0\.1:1: connection refused/);
      await assert.rejects(stat(refused), { code: 'ENOENT' });
      const both = exited(await run(refused, ['login', ctx.server.url, '--ca', ca(), '--insecure']), 1);
      assert.match(both.stderr, /--ca and --insecure exclude each other/);
    });

    it('refuses a config file others can read, saying how to fix it; sends its credentials to no other server', async () => {
      await chmod(keyConfig, 0o644);
      try {
        const refused = exited(await run(keyConfig, ['get', 'workspaces']), 1);
        assert.match(refused.stderr, new RegExp(`${keyConfig} is accessible by other users \\(mode 644\\).*chmod 600`));
      } finally {
        await chmod(keyConfig, 0o600);
      }
      const elsewhere = exited(await run(keyConfig, ['get', 'workspaces'], { env: { BLOCKYARD_URL: 'https://127.0.0.1:1' } }), 1);
      assert.match(
        elsewhere.stderr,
        new RegExp(`^blockyard: no credentials: the login in ${keyConfig} is for ${ctx.server.url}, not https://127\\.0\\.0\\.1:1`),
      );
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
});

describe('blockyard --help', () => {
  it('lists every command; each has its own --help', async () => {
    const config = path.join(tmpdir(), 'blockyard-cli-help-none.yaml');
    const help = exited(await run(config, ['--help']), 0).stdout;
    for (const command of ['serve', 'admin', 'login', 'logout', 'get', 'kinds', 'apply', 'delete', 'runs', 'events'])
      assert.match(help, new RegExp(`^  ${command}\\b`, 'm'));
    assert.match(exited(await run(config, ['get', '--help']), 0).stdout, /-o, --output <format>/);
    // The kinds as the server's code has them: the newest version that is not deprecated, the index's filters.
    const kinds = lines(exited(await run(config, ['kinds']), 0).stdout);
    assert.match(kinds[0]!, /^NAMES +KIND +MEDIA TYPE +FILTERS$/);
    assert.ok(
      kinds.some((line) =>
        /^buildingblocks,buildingblock,bb,blocks,block +meshBuildingBlock +application\/vnd\.vendor\.api\.meshbuildingblock\.v2-preview\.hal\+json +workspaceIdentifier,/.test(
          line,
        ),
      ),
      kinds.join('\n'),
    );
    for (const kind of [
      'meshWorkspace',
      'meshProject',
      'meshTenant',
      'meshBuildingBlockRun',
      'meshEventLog',
      'meshApiKey',
      'apiUser',
      'meshProjectUserBinding',
    ]) {
      assert.ok(
        kinds.some((line) => line.split(/ +/)[1] === kind),
        `${kind} in\n${kinds.join('\n')}`,
      );
    }
    assert.match(exited(await run(config, ['runs', 'logs', '--help']), 0).stdout, /--follow/);
    assert.match(exited(await run(config, ['admin', '--help']), 0).stdout, /blockyard admin create-key/);
  });
});
