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
    const known = Math.min(await time(() => verifyPassword('guess', stored)), await time(() => verifyPassword('guess', stored)));
    const unknown = Math.min(await time(() => verifyNoPassword('guess')), await time(() => verifyNoPassword('guess')));
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
