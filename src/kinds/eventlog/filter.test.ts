import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../store/database.js';
import { inTransaction } from '../../store/transaction.js';
import { matchesFilter } from './filter.js';
import type { Author, EventDraft, EventFilter, EventRecord } from './model.js';
import { EventStore } from './store.js';

const draft = (title: string, description: string, workspace?: string): EventDraft => ({
  title,
  eventType: title.endsWith('Created') ? 'Created' : 'Changed',
  description,
  ...(workspace !== undefined ? { workspace } : {}),
  content: {},
});
const KEY: Author = { authorType: 'ApiKey', identifier: 'k1' };
const USER: Author = { authorType: 'ApiUser', identifier: 'admin' };

/** The filter's two readings, the list's SQL and the stream's memory, over the same events of a real (SQLite) events table. */
describe('the event filter, read as SQL and in memory', () => {
  let dir: string;
  let database: Database;
  let events: EventRecord[];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'blockyard-event-filter-'));
    database = await openDatabase(loadConfig({ BLOCKYARD_DATA_DIR: dir }), pino({ level: 'silent' }));
    events = await inTransaction(database.db, async (trx) => {
      const store = new EventStore(trx);
      return [
        ...(await store.append(
          [draft('Workspace Created', 'meshWorkspace likvid was created', 'likvid')],
          KEY,
          '2026-01-01T00:00:00.000Z',
        )),
        ...(await store.append([draft('Workspace Changed', 'a 100% change_of name', 'likvid')], USER, '2026-01-01T00:00:01.000Z')),
        ...(await store.append([draft('Ärger Created', 'ÄRGER was created', 'other')], KEY, '2026-01-01T00:00:02.000Z')),
        ...(await store.append([draft('Location Created', 'meshLocation eu was created')], USER, '2026-01-01T00:00:03.000Z')),
      ];
    });
  });
  after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const filters: Record<string, EventFilter> = {
    'no filter': {},
    'from, inclusive': { from: '2026-01-01T00:00:01.000Z' },
    'until, exclusive': { until: '2026-01-01T00:00:02.000Z' },
    'title contains, any case': { title: 'CREATED' },
    'description contains a wildcard literally': { description: '100%' },
    'description contains an underscore literally': { description: 'change_of' },
    'a lone percent sign is no wildcard': { description: '%' },
    'a lone underscore is no wildcard': { title: '_' },
    'a non-ASCII letter, folded as SQLite folds': { title: 'ärger' },
    'author and event type': { authorType: 'ApiKey', authorIdentifier: 'k1', eventType: 'Created' },
    'workspaces (never an event of none)': { workspaces: ['likvid', 'other'] },
    'no workspace at all': { workspaces: [] },
    'excluded titles, exact': { excludeTitles: ['Workspace Created', 'Workspace'] },
    'no excluded title': { excludeTitles: [] },
    'everything at once': {
      from: '2026-01-01T00:00:00.000Z',
      title: 'workspace',
      workspaces: ['likvid'],
      excludeTitles: ['Workspace Changed'],
    },
  };

  for (const [name, filter] of Object.entries(filters))
    it(`admits the same events: ${name}`, async () => {
      const listed = await new EventStore(database.db).list(filter, { page: 0, size: 100 });
      const matched = events.filter((event) => matchesFilter(event, filter, 'ascii'));
      assert.deepEqual(listed.items.map((event) => event.uuid).sort(), matched.map((event) => event.uuid).sort());
      assert.equal(listed.total, matched.length);
    });

  it('is not empty where it should not be (the readings are compared on real answers)', () => {
    assert.equal(events.filter((event) => matchesFilter(event, filters['everything at once']!, 'ascii')).length, 1);
    assert.equal(events.filter((event) => matchesFilter(event, filters['a non-ASCII letter, folded as SQLite folds']!, 'ascii')).length, 0);
    assert.equal(events.filter((event) => matchesFilter(event, { title: 'Ärger' }, 'ascii')).length, 1);
  });
});
