import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { createPostgresDatabase, skipUnless } from '../../test/support/databases.js';
import { loadConfig } from '../config.js';
import { idleInTransactionTimeoutMs, openDatabase, type Database } from './database.js';

/** SQLite's temporary files (it names them `etilqs_…` and unlinks them at once) this process holds open. */
function openTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ''; // closed since the listing
      }
    })
    .filter((target) => target.includes('etilqs_'));
}

describe('the SQLite writer', () => {
  let dataDir: string;
  let database: Database;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-database-'));
    database = await openDatabase(loadConfig({ BLOCKYARD_DATA_DIR: dataDir }), pino({ level: 'silent' }));
  });

  after(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // A request's savepoint keeps the original of every page it changes; SQLite spills that journal to a
  // temporary file past 64 KiB — a file per request, and a block insert three times slower.
  it('keeps a large request savepoint journal in memory, not in a temporary file', async () => {
    // Only pages that existed before the savepoint are journaled: fill some (a page per row), then change them all.
    const document = (name: string, padding: string) => JSON.stringify({ metadata: { name }, spec: { padding } });
    const names = Array.from({ length: 60 }, (_, i) => `ws-${i}`);
    await database.db
      .insertInto('workspaces')
      .values(names.map((name) => ({ name, document: document(name, 'x'.repeat(3000)), created_on: new Date().toISOString() })))
      .execute();
    let seen: string[] = [];
    await database.db.transaction().execute(async (trx) => {
      for (const name of names)
        await trx
          .updateTable('workspaces')
          .set({ document: document(name, 'y'.repeat(3000)) })
          .where('name', '=', name)
          .execute();
      seen = openTemporaryFiles();
    });
    assert.deepEqual(seen, []);
    const stored = await database.db.selectFrom('workspaces').select('document').where('name', 'like', 'ws-%').execute();
    assert.equal(stored.filter((row) => row.document.includes('yyy')).length, 60);
  });
});

describe('the PostgreSQL connections', { skip: skipUnless('postgres') }, () => {
  // A transaction left idle would hold its locks and, once it appended events, every event stream
  // behind its numbers: the server ends it after a while.
  it('end a transaction left idle: idle_in_transaction_session_timeout is set on every connection', async () => {
    const postgres = await createPostgresDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'blockyard-database-'));
    const config = loadConfig({
      BLOCKYARD_DATA_DIR: dataDir,
      BLOCKYARD_DATABASE_URL: postgres.url,
      BLOCKYARD_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    const database = await openDatabase(config, pino({ level: 'silent' }));
    try {
      const shown = await database.db.transaction().execute((trx) =>
        sql<{
          setting: string;
          unit: string;
        }>`select setting, unit from pg_settings where name = 'idle_in_transaction_session_timeout'`.execute(trx),
      );
      assert.deepEqual(shown.rows[0], { setting: String(idleInTransactionTimeoutMs(config)), unit: 'ms' });
    } finally {
      await database.close();
      await postgres.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
