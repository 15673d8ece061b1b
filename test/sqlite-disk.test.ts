import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { startTestServer, type TestServer } from './support/server.js';
import { blockyardArgs } from './support/blockyard-command.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const WORKSPACES = '/api/meshobjects/meshworkspaces';
const MEDIA = 'application/vnd.vendor.api.meshworkspace.v2.hal+json';
const io = { accept: MEDIA, 'content-type': MEDIA };

/** A small filesystem of our own (tmpfs; needs root), so the test can fill it and make it read-only. */
const mountPoint = mkdtempSync(path.join(tmpdir(), 'blockyard-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]).status === 0;
/** Grows the filesystem: the operator freeing space. */
const grow = () => assert.equal(spawnSync('mount', ['-o', 'remount,size=32m', mountPoint]).status, 0);

/**
 * SQLite on a full disk: a clear 503 that names the cause, nothing acknowledged
 * lost, no corruption, and normal service once there is space again. (Read-only files: see below.)
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

  const create = (name: string) =>
    server.client.post(WORKSPACES, { metadata: { name }, spec: { displayName: name, padding: 'x'.repeat(200_000) } }, { headers: io });

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
    for (const name of acknowledged)
      assert.equal((await server.client.get(`${WORKSPACES}/${name}`, { headers: { accept: MEDIA } })).status, 200, name);
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
    for (const name of acknowledged)
      assert.equal((await server.client.get(`${WORKSPACES}/${name}`, { headers: { accept: MEDIA } })).status, 200, name);
    const created = await server.client.post(
      WORKSPACES,
      { metadata: { name: 'after-disk-trouble' }, spec: { displayName: 'ok' } },
      { headers: io },
    );
    assert.equal(created.status, 201, created.text);
  });
});

/** The database file is intact: SQLite's own integrity and foreign-key checks. */
function assertIntact(file: string): void {
  const check = new SQLite(file, { readonly: true });
  try {
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(check.pragma('foreign_key_check'), []);
  } finally {
    check.close();
  }
}

/**
 * Does the immutable flag stop writes through a file that is already open here? (ext4 and xfs: yes;
 * tmpfs: no.) Linux refuses to remount a file system read-only while a file on it is open for writing,
 * so `chattr +i` is how a running server's database file becomes read-only under it.
 */
function immutableStopsOpenWrites(dir: string): boolean {
  const probe = path.join(dir, `blockyard-immutable-probe-${process.pid}`);
  writeFileSync(probe, 'probe');
  const fd = openSync(probe, 'r+');
  try {
    if (spawnSync('chattr', ['+i', probe]).status !== 0) return false;
    try {
      writeSync(fd, 'x');
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    } finally {
      spawnSync('chattr', ['-i', probe]);
    }
  } finally {
    closeSync(fd);
    rmSync(probe, { force: true });
  }
}

const immutable = immutableStopsOpenWrites(tmpdir());
const chattr = (flag: '+i' | '-i', files: string[]) => {
  const result = spawnSync('chattr', [flag, ...files.filter((file) => existsSync(file))], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
};

/**
 * The database file becomes read-only while the server runs: writes answer a clear
 * 503 in the error format and store nothing, reads keep working, and once the file is writable again
 * writes work without a restart and the file is intact. The file and its write-ahead log are made
 * immutable; the shared-memory index stays writable (it is mapped into memory, where a write to an
 * immutable file would kill the process with SIGBUS, which is not what this test is about).
 */
describe(
  'SQLite database file read-only while the server runs',
  { skip: immutable ? false : `needs root and a file system whose immutable flag stops writes (ext4, xfs) at ${tmpdir()}` },
  () => {
    let server: TestServer;
    let files: string[];
    const acknowledged: string[] = [];

    before(async () => {
      server = await startTestServer('sqlite');
      const db = path.join(server.dataDir, 'blockyard.db');
      files = [db, `${db}-wal`];
    });

    after(async () => {
      if (files) spawnSync('chattr', ['-i', ...files]);
      await server?.stop();
    });

    const create = (name: string) => server.client.post(WORKSPACES, { metadata: { name }, spec: { displayName: name } }, { headers: io });
    const read = (name: string) => server.client.get(`${WORKSPACES}/${name}`, { headers: { accept: MEDIA } });

    it('answers writes 503 naming the cause, keeps reads working, and stores nothing', async () => {
      for (const name of ['before-1', 'before-2', 'before-3']) {
        const created = await create(name);
        assert.equal(created.status, 201, created.text);
        acknowledged.push(name);
      }
      chattr('+i', files);
      // Several writes at once (they may share a commit), then one alone.
      const refused = [...(await Promise.all(['ro-1', 'ro-2', 'ro-3'].map(create))), await create('ro-4')];
      for (const response of refused) {
        assert.equal(response.status, 503, response.text);
        assert.match(response.headers['content-type']!, /^application\/json/);
        assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message']);
        assert.equal(response.json.errorCode, 'ServiceUnavailable');
        assert.match(response.json.message, /read-only|cannot be written/);
        assert.match(response.json.message, /nothing was stored/);
        assert.ok(Number(response.headers['retry-after']) >= 1);
      }
      for (const name of acknowledged) assert.equal((await read(name)).status, 200, name);
      const list = await server.client.get(WORKSPACES, { headers: { accept: MEDIA } });
      assert.equal(list.status, 200, list.text);
      assert.equal((await server.client.get('/healthz', { anonymous: true })).status, 200);
    });

    it('refuses to start another server on the read-only file, naming BLOCKYARD_DATA_DIR', async () => {
      await assert.rejects(
        startServer(loadConfig({ ...server.env, BLOCKYARD_PORT: '0' }), {
          logDestination: pino.destination('/dev/null'),
          print: () => undefined,
        }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.variable === 'BLOCKYARD_DATA_DIR' &&
          /must be writable: EPERM/.test(error.message) &&
          !error.message.includes('\n'),
      );
    });

    it('writes again once the file is writable, without a restart, with an intact file', async () => {
      chattr('-i', files);
      const created = await create('after-ro');
      assert.equal(created.status, 201, created.text);
      acknowledged.push('after-ro');
      for (const name of acknowledged) assert.equal((await read(name)).status, 200, name);
      for (const name of ['ro-1', 'ro-2', 'ro-3', 'ro-4']) assert.equal((await read(name)).status, 404, `${name} was refused, yet stored`);
      assertIntact(files[0]!);
    });
  },
);

/** Runs `blockyard serve` as operators do; resolves with its exit code and output. */
async function runCli(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !name.startsWith('BLOCKYARD_')) childEnv[name] = value;
  const child = spawn(process.execPath, blockyardArgs(['serve']), {
    cwd: REPO_ROOT,
    env: { ...childEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A server that started after all must not outlive the test.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * A data directory that is read-only when the server starts (a volume mounted read-only, here a bind
 * mount remounted read-only while the server is stopped): the start fails with one line naming the
 * setting and the cause, not a stack; once the volume is writable again the server starts on the
 * untouched data.
 */
const roSource = mkdtempSync(path.join(tmpdir(), 'blockyard-ro-src-'));
const roMount = mkdtempSync(path.join(tmpdir(), 'blockyard-ro-'));
const bound = spawnSync('mount', ['--bind', roSource, roMount]).status === 0;
if (!bound) for (const dir of [roSource, roMount]) rmSync(dir, { recursive: true, force: true });
const remount = (mode: 'ro' | 'rw') => {
  const result = spawnSync('mount', ['-o', `remount,bind,${mode}`, roMount], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
};

describe('SQLite data directory read-only at start', { skip: bound ? false : 'needs root to bind-mount a directory' }, () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer('sqlite', { shared: { databaseUrl: '', dataDir: roMount } });
  });

  after(async () => {
    await server?.server.close();
    spawnSync('umount', [roMount]);
    rmSync(roMount, { recursive: true, force: true });
    rmSync(roSource, { recursive: true, force: true });
  });

  it('refuses to start with one line naming BLOCKYARD_DATA_DIR, and starts once it is writable', async () => {
    const created = await server.client.post(WORKSPACES, { metadata: { name: 'kept' }, spec: { displayName: 'kept' } }, { headers: io });
    assert.equal(created.status, 201, created.text);
    await server.server.close();
    remount('ro');
    try {
      const { code, stdout, stderr } = await runCli({ ...server.env, BLOCKYARD_PORT: '0' });
      assert.equal(code, 2, `exit code; stderr: ${stderr}`);
      assert.equal(stdout, '');
      const lines = stderr.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, `expected one stderr line, got: ${stderr}`);
      assert.match(lines[0]!, /^blockyard: BLOCKYARD_DATA_DIR: /);
      assert.match(lines[0]!, /read-only/);
      assert.ok(lines[0]!.includes(roMount), lines[0]);
    } finally {
      remount('rw');
    }
    await server.restart();
    assertIntact(path.join(roMount, 'blockyard.db'));
    assert.equal((await server.client.get(`${WORKSPACES}/kept`, { headers: { accept: MEDIA } })).status, 200);
    const again = await server.client.post(
      WORKSPACES,
      { metadata: { name: 'after-ro-start' }, spec: { displayName: 'ok' } },
      { headers: io },
    );
    assert.equal(again.status, 201, again.text);
  });
});
