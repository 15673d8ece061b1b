import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeChaosFailure, OPERATIONS, runChaos } from './support/chaos.js';
import { skipUnless } from './support/databases.js';

/**
 * Several instances on PostgreSQL: killing one of them mid-load loses nothing
 * acknowledged. Three real server instances run as child processes on one database; a steady
 * concurrent mix of block creates and deletes, run claims and status reports sends each request to an
 * instance picked at random (no load balancer). In each cycle one instance (each in turn, in random
 * order) is SIGKILLed 50–400 ms into the load, the load goes on for 300–800 ms (requests to the dead
 * instance fail to connect; they are never acknowledged), then everything the cycle and the one before
 * touched is read back through the survivors, the database is searched for half-written objects, the
 * survivors must answer normally, and the killed instance is started again. At the end every
 * acknowledged object is read back; every acknowledged change has its event and every event its change.
 * The driver is the crash-safety one (test/support/chaos.ts);
 * `npm run chaos` runs it with 200 cycles (`--instances N`).
 */
const INSTANCES = 3;
const CYCLES = 8;

describe('several instances on PostgreSQL: one killed mid-load', { skip: skipUnless('postgres') }, () => {
  it(`loses nothing acknowledged when one of ${INSTANCES} instances is SIGKILLed under load, ${CYCLES} times`, async () => {
    const result = await runChaos({ dialect: 'postgres', instances: INSTANCES, cycles: CYCLES });
    const report = describeChaosFailure(result);
    assert.equal(result.instances, INSTANCES);
    assert.equal(result.starts, INSTANCES + CYCLES, 'one start per instance, plus one restart per cycle');
    // The mix really ran, and went on while an instance was dead.
    for (const kind of OPERATIONS)
      assert.ok(result.byOperation[kind].acknowledged > 0, `no ${kind} was acknowledged: ${JSON.stringify(result.byOperation)}`);
    assert.ok(
      result.acknowledgedWhileDown > CYCLES,
      `only ${result.acknowledgedWhileDown} requests were acknowledged by the survivors while an instance was dead`,
    );
    assert.ok(result.connectionErrors > 0, 'no request met a killed instance');
    assert.equal(result.lost, 0, `acknowledged requests lost:\n${report}`);
    assert.deepEqual(result.halfWritten, [], `half-written objects or survivors not answering normally:\n${report}`);
    assert.deepEqual(result.unexpected, [], `unexpected answers:\n${report}`);
  });
});
