import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRetention } from './retention.js';
import type { EventLogService } from './service.js';

/** A log of `count` events, deleted `limit` at a time, recording each call's cut-off. */
function fakeLog(count: number) {
  const calls: { before: string; limit: number }[] = [];
  let left = count;
  const service = {
    prune: async (before: string, limit: number) => {
      calls.push({ before, limit });
      const deleted = Math.min(left, limit);
      left -= deleted;
      return deleted;
    },
  } as unknown as EventLogService;
  return { service, calls, left: () => left };
}

describe('EventRetention', () => {
  it('prunes in bounded batches until a batch comes back short, cutting off at now minus the retention', async () => {
    const log = fakeLog(2500);
    const retention = new EventRetention(log.service, { days: 400, batch: 1000 });
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(await retention.prune(now), 2500);
    assert.equal(log.left(), 0);
    assert.deepEqual(
      log.calls.map((call) => call.limit),
      [1000, 1000, 1000],
    );
    assert.equal(log.calls[0]!.before, new Date(now - 400 * 86_400_000).toISOString());
  });

  it('stops between batches when stopped, and a stopped retention schedules nothing', async () => {
    const log = fakeLog(10_000);
    const retention = new EventRetention(log.service, { days: 1, batch: 10, firstDelayMs: 0, intervalMs: 1 });
    retention.start();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await retention.stop();
    const calls = log.calls.length;
    assert.ok(calls > 0 && log.left() > 0, `pruned ${calls} batches`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(log.calls.length, calls);
  });
});
