import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../store/database.js';
import { inTransaction } from '../../store/transaction.js';
import type { WorkspaceService } from '../workspace/service.js';
import { EventLogService } from './service.js';
import { EventStore } from './store.js';

/** The event log over a real (SQLite) events table, with a hand-released `durable`. */
describe('EventLogService', () => {
  let dir: string;
  let database: Database;
  const gate: { release?: () => void } = {};
  let service: EventLogService;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'blockyard-event-log-'));
    database = await openDatabase(loadConfig({ BLOCKYARD_DATA_DIR: dir }), pino({ level: 'silent' }));
    service = new EventLogService(database.db, {} as WorkspaceService, () => new Promise<void>((resolve) => (gate.release = resolve)));
  });
  after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows an event, listed or alone, only once it is on disk', async () => {
    const [event] = await inTransaction(database.db, (trx) =>
      new EventStore(trx).append([{ title: 'one', eventType: 'Created', description: 'one happened', content: {} }], {
        authorType: 'System',
        identifier: 'system',
      }),
    );
    for (const read of [() => service.list({}, { page: 0, size: 10 }), () => service.find(event!.uuid)]) {
      gate.release = undefined;
      let answered = false;
      const pending = read().then((answer) => ((answered = true), answer));
      for (let i = 0; i < 20 && !gate.release; i++) await new Promise((resolve) => setImmediate(resolve));
      const release = gate.release as (() => void) | undefined; // set by the service's call
      assert.ok(release, 'asked whether it is on disk');
      assert.equal(answered, false);
      release();
      assert.ok(await pending);
    }
  });
});
