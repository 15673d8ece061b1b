import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { WalFile, WalSync } from './sqlite-wal-sync.js';

/** A sync the test finishes by hand: each call waits until `finish(i)` (or `fail(i)`). */
function gatedSync() {
  const calls: { resolve(): void; reject(error: Error): void }[] = [];
  const wal = { sync: () => new Promise<void>((resolve, reject) => calls.push({ resolve, reject })), close: () => undefined };
  return { wal, calls };
}

const settledState = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  for (let i = 0; i < 10; i++) await null;
  return state;
};

describe('WalSync', () => {
  it('acknowledges a commit only after a sync that began after it, one sync for all who wait', async () => {
    const { wal, calls } = gatedSync();
    const walSync = new WalSync(wal);
    const first = walSync.synced();
    assert.equal(calls.length, 1);
    // Written while the first sync runs: that sync may have missed them.
    const second = walSync.synced();
    const third = walSync.synced();
    assert.equal(calls.length, 1);
    calls[0]!.resolve();
    assert.equal(await settledState(first), 'resolved');
    assert.equal(await settledState(second), 'pending');
    assert.equal(calls.length, 2, 'the waiting commits share the next sync');
    calls[1]!.resolve();
    assert.equal(await settledState(second), 'resolved');
    assert.equal(await settledState(third), 'resolved');
    // Idle again: the next commit starts a sync at once.
    void walSync.synced();
    assert.equal(calls.length, 3);
    calls[2]!.resolve();
  });

  it('fails the commits a failed sync was to cover, and syncs afresh for the next', async () => {
    const { wal, calls } = gatedSync();
    const walSync = new WalSync(wal);
    const first = walSync.synced();
    const second = walSync.synced();
    calls[0]!.reject(new Error('EIO'));
    await assert.rejects(first, /EIO/);
    assert.equal(calls.length, 2, 'the queued commits get a sync of their own');
    calls[1]!.reject(new Error('EIO again'));
    await assert.rejects(second, /EIO again/);
    const third = walSync.synced();
    calls[2]!.resolve();
    await third;
  });

  it('settles at once when nothing waits, else when the last sync is done', async () => {
    const { wal, calls } = gatedSync();
    const walSync = new WalSync(wal);
    assert.equal(await settledState(walSync.settled()), 'resolved');
    void walSync.synced();
    void walSync.synced();
    const settled = walSync.settled();
    calls[0]!.resolve();
    assert.equal(await settledState(settled), 'pending');
    calls[1]!.reject(new Error('EIO'));
    assert.equal(await settledState(settled), 'resolved', 'settled reports no error: the commits do');
  });

  it('syncs a real file, and fails for one that is gone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-wal-sync-'));
    try {
      const file = path.join(dir, 'db-wal');
      writeFileSync(file, 'frames');
      const wal = new WalFile(file);
      await wal.sync();
      await wal.sync();
      wal.close();
      await assert.rejects(new WalFile(path.join(dir, 'missing')).sync(), /ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
