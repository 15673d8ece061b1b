import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ApiClient, media } from './support/client.js';
import { createPostgresDatabase, DIALECTS, skipUnless } from './support/databases.js';
import { basic, TEST_ADMIN } from './support/server.js';
import { blockyardArgs } from './support/blockyard-command.js';

for (const dialect of DIALECTS) {
  describe(`process lifecycle [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    it('prints its URL, serves, and exits 0 on SIGTERM', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-proc-'));
      const pg = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      const child = spawn(process.execPath, blockyardArgs(['serve']), {
        env: {
          ...process.env,
          BLOCKYARD_PORT: '0',
          BLOCKYARD_HOST: '127.0.0.1',
          BLOCKYARD_DATA_DIR: dataDir,
          BLOCKYARD_LOG_LEVEL: 'warn',
          BLOCKYARD_ADMIN_USERNAME: TEST_ADMIN.username,
          BLOCKYARD_ADMIN_PASSWORD: TEST_ADMIN.password,
          BLOCKYARD_MASTER_KEY: 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmctISE=',
          ...(pg ? { BLOCKYARD_DATABASE_URL: pg.url } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (chunk) => {
            out += chunk;
            const match = /listening on (https:\/\/localhost:\d+)/.exec(out);
            if (match) resolve(match[1]!);
          });
          child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
          setTimeout(() => reject(new Error(`no listen line: ${out}`)), 30_000);
        });
        const client = new ApiClient(url, await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8'), {
          authorization: basic(TEST_ADMIN.username, TEST_ADMIN.password),
        });
        assert.equal((await client.get('/api', { headers: { accept: media('', 'v1') } })).status, 200);
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
        await client.close();
      } finally {
        child.kill('SIGKILL');
        await pg?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
