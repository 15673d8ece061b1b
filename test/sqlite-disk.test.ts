import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { startTestServer, type TestServer } from './support/server.js';

const WORKSPACES = '/api/meshobjects/meshworkspaces';
const MEDIA = 'application/vnd.vendor.api.meshworkspace.v2.hal+json';
const io = { accept: MEDIA, 'content-type': MEDIA };

/** A small filesystem of our own (tmpfs; needs root), so the test can fill it and make it read-only. */
const mountPoint = mkdtempSync(path.join(tmpdir(), 'blockyard-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]).status === 0;
/** Grows the filesystem: the operator freeing space. */
const grow = () => assert.equal(spawnSync('mount', ['-o', 'remount,size=32m', mountPoint]).status, 0);

/**
 * SQLite on a full disk (issue 9, item 3): a clear 503 that names the cause, nothing acknowledged
 * lost, no corruption, and normal service once there is space again. (A read-only remount is refused
 * while the database file is open, so read-only files are covered by the same error mapping only.)
 */
describe('SQLite on a full disk', { skip: mounted ? false : 'needs root to mount a small tmpfs' }, () => {
  let server: TestServer;
  const acknowledged: string[] = [];

  before(async () => {
    server = await startTestServer('sqlite', { shared: { databaseUrl: '', dataDir: mountPoint } });
  });

  after(async () => {
    await server?.server.close();
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  const create = (name: string) => server.client.post(WORKSPACES, { metadata: { name }, spec: { displayName: name, padding: 'x'.repeat(200_000) } }, { headers: io });

  it('answers 503 naming the full disk, loses nothing acknowledged, and stays consistent', async () => {
    let full;
    for (let i = 0; i < 100 && !full; i++) {
      const response = await create(`fill-${i}`);
      if (response.status === 201) acknowledged.push(`fill-${i}`);
      else full = response;
    }
    assert.ok(full, 'the disk never filled');
    assert.equal(full.status, 503, full.text);
    assert.match(full.json.message, /disk is full|cannot be written/);
    assert.ok(Number(full.headers['retry-after']) >= 1);
    assert.ok(acknowledged.length > 0);
    for (const name of acknowledged) assert.equal((await server.client.get(`${WORKSPACES}/${name}`, { headers: { accept: MEDIA } })).status, 200, name);
    assert.equal((await server.client.get('/healthz', { anonymous: true })).status, 200);
  });

  it('serves normally once there is space again, with an intact database file', async () => {
    grow();
    await server.restart();
    const check = new SQLite(path.join(mountPoint, 'blockyard.db'), { readonly: true });
    try {
      assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      check.close();
    }
    for (const name of acknowledged) assert.equal((await server.client.get(`${WORKSPACES}/${name}`, { headers: { accept: MEDIA } })).status, 200, name);
    const created = await server.client.post(WORKSPACES, { metadata: { name: 'after-disk-trouble' }, spec: { displayName: 'ok' } }, { headers: io });
    assert.equal(created.status, 201, created.text);
  });
});
