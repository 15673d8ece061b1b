/**
 * `blockyard admin` as an operator meets it, as a child process: each command's `--help` (or `-h`)
 * says what it does, its options and an example, exits 0, and neither loads the configuration nor
 * touches the data directory; what the commands print holds no placeholder left to fill in.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exited, run } from './support/cli.js';

const COMMANDS = ['create-key', 'list-keys', 'delete-key', 'create-user', 'scim-token', 'rotate-signing-key', 'rotate-master-key'];
const MASTER_KEY = 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=';
/** `<public URL>`, `<your host>`: text in angle brackets standing for a value the reader must find. */
const PLACEHOLDER = /<[^<>\n]+>/;

describe('blockyard admin', () => {
  let scratch: string;
  let configFile: string;
  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'blockyard-admin-'));
    configFile = path.join(scratch, 'cli-config.yaml');
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  it("prints each command's usage for --help and -h, exit 0, without the configuration or the database", async () => {
    const dataDir = path.join(scratch, 'never-created');
    // A configuration that does not load: help must not read it.
    const env = { BLOCKYARD_DATA_DIR: dataDir, BLOCKYARD_PORT: 'not a port' };
    const results = await Promise.all(
      COMMANDS.map((command, index) =>
        run(configFile, ['admin', command, ...(command === 'scim-token' ? ['create'] : []), index % 2 === 0 ? '--help' : '-h'], { env }),
      ),
    );
    results.forEach((result, index) => {
      const command = COMMANDS[index]!;
      const { stdout, stderr } = exited(result, 0);
      assert.equal(stderr, '', command);
      assert.match(stdout, new RegExp(`^usage:\\n  blockyard admin ${command}`), command);
      assert.match(stdout, /\n\n[A-Z][^\n]+\.\n/, `${command}: what it does`);
      assert.match(stdout, new RegExp(`\\nexample:\\n  .*blockyard admin ${command}`), `${command}: an example`);
    });
    assert.match(results[0]!.stdout, /--workspace <id> +the workspace that owns the key/, 'the options, each explained');
    assert.equal(existsSync(dataDir), false, 'no data directory was created');
  });

  it('lists the commands for admin --help, and refuses --help of a command that does not exist', async () => {
    const env = { BLOCKYARD_DATA_DIR: path.join(scratch, 'never-created') };
    const [list, unknown] = await Promise.all([
      run(configFile, ['admin', '--help'], { env }),
      run(configFile, ['admin', 'create-keys', '--help'], { env }),
    ]);
    const { stdout } = exited(list, 0);
    for (const command of COMMANDS) assert.match(stdout, new RegExp(`\\n  blockyard admin ${command}`), command);
    assert.match(stdout, /blockyard admin <command> --help/);
    assert.match(exited(unknown, 2).stderr, /^blockyard: unknown admin command "create-keys"\nusage:/);
    assert.equal(existsSync(path.join(scratch, 'never-created')), false);
  });

  it('prints the SCIM base URL of scim-token create, never a placeholder', async () => {
    const env = { BLOCKYARD_DATA_DIR: path.join(scratch, 'data'), BLOCKYARD_MASTER_KEY: MASTER_KEY };
    // The first alone: it creates the database.
    const unset = exited(await run(configFile, ['admin', 'scim-token', 'create', '--name', 'entra-id'], { env }), 0).stdout;
    const [withPublicUrl, withPort] = await Promise.all([
      run(configFile, ['admin', 'scim-token', 'create'], { env: { ...env, BLOCKYARD_PUBLIC_URL: 'https://blocks.example.com/' } }),
      run(configFile, ['admin', 'scim-token', 'create'], { env: { ...env, BLOCKYARD_PORT: '9443' } }),
    ]);
    const set = exited(withPublicUrl, 0).stdout;
    const port = exited(withPort, 0).stdout;
    for (const printed of [unset, set, port]) assert.doesNotMatch(printed, PLACEHOLDER, printed);
    assert.match(set, /\nSCIM base URL: https:\/\/blocks\.example\.com\/scim\/v2\n/);
    // Without a public URL: the server's own address for itself, and what to set instead.
    assert.match(
      unset,
      /\nSCIM base URL: https:\/\/localhost:8443\/scim\/v2 \(set BLOCKYARD_PUBLIC_URL to the address the identity system reaches the server at\)\n/,
    );
    assert.match(port, /\nSCIM base URL: https:\/\/localhost:9443\/scim\/v2 /);
  });
});
