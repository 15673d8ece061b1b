import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { WalCheckpointer } from './sqlite-checkpointer.js';
import { groupCommitDialect } from './sqlite-group-commit.js';

interface Db {
  items: { id: string; note: string };
}

/** Real SQLite files: the writer never checkpoints; the worker thread does, and the WAL stays bounded. */
describe('SQLite WAL checkpoints on a worker thread', () => {
  let dir: string;
  let file: string;
  let db: Kysely<Db>;
  const errors: unknown[] = [];
  const walBytes = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
  const RESTART_FRAMES = 200;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'blockyard-checkpoints-'));
    file = path.join(dir, 'test.db');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = FULL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table items (id text primary key, note text not null)');
    const checkpoints = {
      checkpointer: new WalCheckpointer(file, 5000),
      intervalMs: 20,
      restartFrames: RESTART_FRAMES,
      onError: (error: unknown) => errors.push(error),
    };
    db = new Kysely<Db>({ dialect: groupCommitDialect(writer, new SQLite(file, { readonly: true }), { checkpoints }) });
  });

  after(async () => {
    await db.destroy().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the WAL bounded under sustained writes, and every acknowledged write readable', async () => {
    const note = 'x'.repeat(3000);
    let written = 0;
    let largest = 0;
    const pageSize = 4096;
    // Without checkpoints the WAL would hold every page written: ten times the bound and more.
    const volume = 10 * RESTART_FRAMES * pageSize;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (written * note.length < volume) {
          const id = `i${written++}`;
          await db.transaction().execute((trx) => trx.insertInto('items').values({ id, note }).execute());
          largest = Math.max(largest, walBytes());
        }
      }),
    );
    assert.ok(largest < 4 * RESTART_FRAMES * (pageSize + 24), `the WAL grew to ${largest} bytes`);
    assert.deepEqual(errors, []);
    const other = new SQLite(file, { readonly: true });
    try {
      assert.equal((other.prepare('select count(*) as n from items').get() as { n: number }).n, written);
    } finally {
      other.close();
    }
  });

  it('checkpoints the whole WAL into the database file on close', async () => {
    await db.insertInto('items').values({ id: 'last', note: 'n' }).execute();
    await db.destroy();
    assert.equal(walBytes(), 0);
    const other = new SQLite(file, { readonly: true });
    try {
      assert.equal((other.prepare("select note from items where id = 'last'").get() as { note: string }).note, 'n');
    } finally {
      other.close();
    }
    assert.deepEqual(errors, []);
  });
});
