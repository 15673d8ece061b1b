import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, skipUnless } from '../../test/support/databases.js';
import { listen } from './notifications.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { warn: () => undefined, info: () => undefined };

/** LISTEN on its own connection: notified at commit, and listening again after the connection is killed. */
describe('PostgreSQL notifications', { skip: skipUnless('postgres') }, () => {
  it('calls back on each notification of its channel with its payload, and on each (re)connection', async () => {
    const channel = `blockyard_test_${process.pid}`;
    let calls = 0;
    let connections = 0;
    const payloads: string[] = [];
    const listening = listen(
      POSTGRES_ADMIN_URL,
      channel,
      {
        notified: (payload) => {
          calls++;
          payloads.push(payload);
        },
        connected: () => {
          calls++;
          connections++;
        },
      },
      quiet,
    );
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const waitFor = async (what: string, check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await sleep(25);
      assert.ok(check(), what);
    };
    const listeners = async () =>
      (await admin.query<{ pid: number }>(`select pid from pg_stat_activity where query = $1`, [`LISTEN ${channel}`])).rows.map(
        (row) => row.pid,
      );
    try {
      // Connected: one call for whatever was missed before.
      await waitFor('the first connection', () => calls === 1 && connections === 1);
      await admin.query(`select pg_notify($1, 'a payload')`, [channel]);
      await waitFor('a notification', () => calls === 2);
      assert.deepEqual(payloads, ['a payload']);
      // Nothing before the commit.
      await admin.query('begin');
      await admin.query(`select pg_notify($1, '')`, [channel]);
      await sleep(200);
      assert.equal(calls, 2, 'notified before the commit');
      await admin.query('commit');
      await waitFor('the committed notification', () => calls === 3);
      // Another channel is not ours.
      await admin.query(`select pg_notify($1, '')`, [`${channel}_other`]);
      await sleep(100);
      assert.equal(calls, 3);
      // The connection dies: it reconnects by itself, calls once for what it may have missed, and listens again.
      const [pid] = await listeners();
      assert.ok(pid, 'the LISTEN connection is visible');
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await waitFor('the reconnection', () => calls === 4 && connections === 2);
      await admin.query(`select pg_notify($1, '')`, [channel]);
      await waitFor('a notification after the reconnection', () => calls === 5);
      assert.deepEqual(payloads, ['a payload', '', '']);
    } finally {
      await listening.close();
      await admin.end();
    }
    // Closed: no more calls, and its connection is gone.
    const check = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await check.connect();
    await check.query(`select pg_notify($1, '')`, [channel]);
    await sleep(100);
    assert.equal(calls, 5);
    await check.end();
  });
});
