import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipUnless } from './support/databases.js';
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { startTestServer, type TestServer } from './support/server.js';

const WORKSPACES = '/api/meshobjects/meshworkspaces';
const ACCEPT = { accept: 'application/vnd.vendor.api.meshworkspace.v2.hal+json' };

/**
 * Database outage: PostgreSQL stops under load. Requests fail fast with 503 and
 * Retry-After (never a hang, never a 500), /readyz says DOWN, and the service recovers by itself.
 */
describe(
  'PostgreSQL outage',
  {
    skip: !DIALECTS.includes('postgres')
      ? skipUnless('postgres')
      : privatePostgresAvailable
        ? false
        : 'no PostgreSQL binaries to run a private cluster',
  },
  () => {
    let postgres: PrivatePostgres;
    let server: TestServer;

    before(async () => {
      postgres = startPrivatePostgres();
      const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-outage-'));
      server = await startTestServer('postgres', {
        shared: { databaseUrl: postgres.url, dataDir },
        env: { BLOCKYARD_DB_TIMEOUT_MS: '1000', BLOCKYARD_RATE_LIMIT_MAX: '100000' },
      });
    });

    after(async () => {
      await server?.server.close();
      postgres?.destroy();
    });

    it('answers 503 with Retry-After fast while the database is down, reports it on /readyz, and recovers by itself', async () => {
      assert.equal((await server.client.get(WORKSPACES, { headers: ACCEPT })).status, 200);
      postgres.stop();
      const started = Date.now();
      const during = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const sent = Date.now();
          const response = await server.client.post(
            WORKSPACES,
            { metadata: { name: `down-${i}` }, spec: { displayName: 'x' } },
            { headers: { ...ACCEPT, 'content-type': ACCEPT.accept } },
          );
          return { response, took: Date.now() - sent };
        }),
      );
      for (const { response, took } of during) {
        assert.equal(response.status, 503, response.text);
        assert.ok(Number(response.headers['retry-after']) >= 1);
        assert.equal(response.json.errorCode, 'ServiceUnavailable');
        assert.doesNotMatch(response.text, /at \w+ \(|\.ts:\d+|\.js:\d+/);
        assert.ok(took < 5000, `a request took ${took} ms during the outage`);
      }
      const ready = await server.client.get('/readyz', { anonymous: true });
      assert.equal(ready.status, 503);
      assert.equal(ready.json.database, 'DOWN');
      assert.ok(Date.now() - started < 15_000);

      postgres.start();
      let recovered = false;
      for (let attempt = 0; attempt < 60 && !recovered; attempt++) {
        const response = await server.client.get(WORKSPACES, { headers: ACCEPT });
        recovered = response.status === 200 && (await server.client.get('/readyz', { anonymous: true })).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.ok(recovered, 'the service did not recover within 15 s of the database coming back');
      const created = await server.client.post(
        WORKSPACES,
        { metadata: { name: 'after-outage' }, spec: { displayName: 'x' } },
        { headers: { ...ACCEPT, 'content-type': ACCEPT.accept } },
      );
      assert.equal(created.status, 201, created.text);
    });
  },
);
