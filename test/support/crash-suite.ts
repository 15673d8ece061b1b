import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeChaosFailure, OPERATIONS, runChaos } from './chaos.js';
import { type Dialect, skipUnless } from './databases.js';

/**
 * Crash safety: the real server, as a child process, under a steady concurrent mix of
 * block creates and deletes, run claims and status reports with outputs, is killed with SIGKILL at a
 * random moment 50–400 ms into the load (timed from the cycle's first 2xx) and started again on the
 * same database — 20 times per database. After each restart every request that got a 2xx is reflected, nothing is half-written
 * and the service answers normally; every acknowledged change has its event in the event log and every event its change
 * (checked in test/support/chaos.ts). `npm run chaos` is the long variant (200 cycles and more).
 * One file per database (crash-sqlite.test.ts, crash-postgres.test.ts): each runs its cycles within
 * the runner's time per file, side by side with the other files.
 */
const CYCLES = 20;

export function crashSafety(dialect: Dialect): void {
  describe(`crash safety [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    it(`loses nothing acknowledged and leaves nothing half-written across ${CYCLES} SIGKILLs under load`, async () => {
      const result = await runChaos({ dialect, cycles: CYCLES });
      const report = describeChaosFailure(result);
      assert.equal(result.cycles, CYCLES);
      assert.equal(result.starts, CYCLES + 1, 'one start per cycle, plus the first');
      // The mix really ran: every kind of request was acknowledged somewhere in the cycles.
      for (const kind of OPERATIONS)
        assert.ok(result.byOperation[kind].acknowledged > 0, `no ${kind} was acknowledged: ${JSON.stringify(result.byOperation)}`);
      assert.ok(
        result.requests > result.acknowledged,
        `some requests were cut off by the kills: ${result.requests} sent, ${result.acknowledged} acknowledged`,
      );
      assert.equal(result.lost, 0, `acknowledged requests lost:\n${report}`);
      assert.deepEqual(result.halfWritten, [], `half-written objects:\n${report}`);
      assert.deepEqual(result.unexpected, [], `unexpected answers:\n${report}`);
    });
  });
}
