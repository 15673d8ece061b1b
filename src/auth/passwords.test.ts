import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, verifyNoPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse battery!', stored), false);
  });

  it('spends a real check on unknown users: as slow as a wrong password', async () => {
    const stored = await hashPassword('correct horse battery');
    const time = async (check: () => Promise<boolean>) => {
      const started = performance.now();
      assert.equal(await check(), false);
      return performance.now() - started;
    };
    // Alternated and the fastest of each kept: a busy machine slows single checks at random, and
    // measuring all known checks first once let a burst of load fall on them alone.
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 4; i++) {
      knownTimes.push(await time(() => verifyPassword('guess', stored)));
      unknownTimes.push(await time(() => verifyNoPassword('guess')));
    }
    const known = Math.min(...knownTimes);
    const unknown = Math.min(...unknownTimes);
    assert.ok(unknown > known / 3, `unknown user ${unknown.toFixed(1)} ms, known ${known.toFixed(1)} ms`);
  });

  it('serves waiting checks by address in turn: a flood from one address does not hold back another', async () => {
    const stored = await hashPassword('correct horse battery');
    const finished: string[] = [];
    const check = (address: string) => verifyPassword('guess', stored, address).then(() => finished.push(address));
    const flood = Array.from({ length: 10 }, () => check('10.0.0.1'));
    const other = check('10.0.0.2');
    await Promise.all([...flood, other]);
    // Two threads run flood checks; the other address waits for one turn, not for eight.
    assert.ok(finished.indexOf('10.0.0.2') <= 4, `the other address finished as number ${finished.indexOf('10.0.0.2') + 1} of 11`);
  });
});
