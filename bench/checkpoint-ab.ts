/**
 * The storage layer alone (no HTTP): concurrent report-like write transactions through the group
 * commit driver for `--seconds`, with SQLite's automatic checkpoint (every 1 000 pages, in the
 * commit) or with the checkpoint thread, alternated for `--rounds`, each on a fresh database. Reported:
 * transactions/s of each, and the time a commit holds the event loop.
 *
 *   node --import tsx bench/checkpoint-ab.ts [--rounds 6] [--seconds 4] [--interval 250] [--restart 4096]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { WalCheckpointer } from '../src/store/sqlite-checkpointer.js';
import { groupCommitDialect } from '../src/store/sqlite-group-commit.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    interval: { type: 'string', default: '250' },
    restart: { type: 'string', default: '4096' },
  },
});

interface Db {
  runs: { uuid: string; outputs: string; updated_on: string };
  events: { seq: number | null; content: string; created_at: string };
}

async function burst(threaded: boolean, ms: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-ckpt-ab-'));
  const file = path.join(dir, 'test.db');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = FULL');
  if (threaded) writer.pragma('wal_autocheckpoint = 0');
  writer.exec('create table runs (uuid text primary key, outputs text, updated_on text); create index runs_at on runs (updated_on, uuid)');
  writer.exec(
    'create table events (seq integer primary key, content text, created_at text); create index events_at on events (created_at)',
  );
  const exec = writer.exec.bind(writer);
  writer.exec = (source: string) => {
    const t0 = performance.now();
    const result = exec(source);
    if (source === 'commit') {
      commitMs[threaded ? 'threaded' : 'auto'] += performance.now() - t0;
      commits[threaded ? 'threaded' : 'auto']++;
    }
    return result;
  };
  const insert = writer.prepare('insert into runs values (?, ?, ?)');
  for (let i = 0; i < 20000; i++) insert.run(`run-${i}`, '{}', new Date().toISOString());
  const checkpoints = threaded
    ? {
        checkpointer: new WalCheckpointer(file, 5000),
        intervalMs: Number(args.interval),
        restartFrames: Number(args.restart),
        onError: (error: unknown) => console.error(error),
      }
    : undefined;
  const db = new Kysely<Db>({ dialect: groupCommitDialect(writer, new SQLite(file, { readonly: true }), { checkpoints }) });
  const content = JSON.stringify({ steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: 'x'.repeat(1500) }] });
  let done = 0;
  const end = Date.now() + ms;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (Date.now() < end) {
        const now = new Date().toISOString();
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('runs')
            .set({ outputs: content, updated_on: now })
            .where('uuid', '=', `run-${Math.floor(Math.random() * 20000)}`)
            .execute();
          await trx.insertInto('events').values({ seq: null, content, created_at: now }).execute();
        });
        done++;
        // The CPU of a request around its transaction (HTTP, TLS, JSON): about half a millisecond.
        const spinUntil = performance.now() + 0.5;
        while (performance.now() < spinUntil) continue;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
  return (done * 1000) / ms;
}

const totals = { auto: 0, threaded: 0 };
const commitMs = { auto: 0, threaded: 0 };
const commits = { auto: 0, threaded: 0 };
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? [false, true] : [true, false];
  const line: string[] = [];
  for (const threaded of order) {
    const rate = await burst(threaded, Number(args.seconds) * 1000);
    totals[threaded ? 'threaded' : 'auto'] += rate;
    line.push(`${threaded ? 'thread' : 'auto'} ${rate.toFixed(0)}/s`);
  }
  console.log(`round ${round + 1}: ${line.join(', ')}`);
}
console.log(
  `checkpoint thread ÷ automatic checkpoint: ${(totals.threaded / totals.auto).toFixed(2)}; commits ${commits.threaded} vs ${commits.auto}, ms per commit on the event loop ${(commitMs.threaded / commits.threaded).toFixed(2)} vs ${(commitMs.auto / commits.auto).toFixed(2)}`,
);
