import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../lib/errors.js';
import type { FailureExchange, SharedFailure } from '../lib/rate-counter.js';
import { clientNetwork, FailedAttemptLimiter } from './failed-attempts.js';

const LIMITS = { perAddress: 5, perIdentity: 3, windowSeconds: 60 };

function limiter(limits = LIMITS) {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new FailedAttemptLimiter(limits, undefined, () => clock.now) };
}

/** Two instances of one deployment: what one publishes, the other collects. */
function deployment() {
  const clock = { now: 1_000_000 };
  const published: SharedFailure[][] = [[], []];
  const exchange = (me: number): FailureExchange => ({
    publish: (failures) => published[me]!.push(...failures),
    collect: async () => published[1 - me]!.splice(0),
  });
  const instances = [0, 1].map((me) => new FailedAttemptLimiter(LIMITS, exchange(me), () => clock.now));
  return { clock, published, instances: instances as [FailedAttemptLimiter, FailedAttemptLimiter] };
}

const refusal = (retryAfter: string) => (error: unknown) =>
  error instanceof ApiError && error.status === 429 && error.headers['retry-after'] === retryAfter;

describe('FailedAttemptLimiter', () => {
  it('refuses an identity after its failures, with Retry-After until the oldest leaves the window', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 3; i++) {
      l.begin('10.0.0.1', 'user:alice');
      clock.now += 10_000;
    }
    // Failures at 0, 10 and 20 s; now 30 s: the first leaves the window at 60 s.
    assert.throws(() => l.begin('10.0.0.2', 'user:alice'), refusal('30'));
    clock.now += 30_000;
    assert.doesNotThrow(() => l.begin('10.0.0.2', 'user:alice'));
  });

  it('refuses an address whatever identities it tries', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 5; i++) l.begin('10.0.0.1', `client:key-${i}`);
    assert.throws(() => l.begin('10.0.0.1', 'client:key-9'), refusal('60'));
    assert.doesNotThrow(() => l.begin('10.0.0.2', 'client:key-9'));
  });

  it('counts unfinished attempts, so concurrent guesses are judged together', () => {
    const { limiter: l } = limiter();
    const started = [0, 1, 2].map(() => l.begin('10.0.0.1', 'user:bob'));
    assert.throws(() => l.begin('10.0.0.1', 'user:bob'), refusal('60'));
    started[0]!.succeeded();
    assert.doesNotThrow(() => l.begin('10.0.0.1', 'user:bob'));
  });

  it('does not count successes, and a success settles once', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 10; i++) {
      const attempt = l.begin('10.0.0.1', 'user:carol');
      attempt.succeeded();
      attempt.succeeded();
    }
    l.begin('10.0.0.1', 'user:carol');
    l.begin('10.0.0.1', 'user:carol');
    assert.doesNotThrow(() => l.begin('10.0.0.1', 'user:carol'));
    assert.throws(() => l.begin('10.0.0.1', 'user:carol'));
  });

  it('counts a failure of any scheme against the address alone when it names no identity', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 4; i++) l.failed('10.0.0.1');
    l.begin('10.0.0.1', 'user:dave').succeeded();
    l.failed('10.0.0.1', 'client:key-1');
    assert.throws(() => l.check('10.0.0.1'), refusal('60'));
    assert.throws(() => l.begin('10.0.0.1', 'user:dave'), refusal('60'), 'a success took back only its own attempt');
    assert.doesNotThrow(() => l.check('10.0.0.2', 'client:key-1'));
  });

  it('an instance judges by the failures the others published, in time order', async () => {
    const {
      clock,
      instances: [a, b],
    } = deployment();
    for (let i = 0; i < 3; i++) {
      a.failed('10.0.0.1');
      clock.now += 1_000;
    }
    for (let i = 0; i < 2; i++) b.failed('10.0.0.1');
    // B read A's failures (at 0, 1 and 2 s) when it first checked; its own are at 3 s.
    await assert.rejects(async () => b.check('10.0.0.1'), refusal('57'));
    clock.now += 250;
    await assert.rejects(async () => a.check('10.0.0.1'), refusal('57'));
  });

  it('publishes a begun attempt once it failed, never one that succeeded', () => {
    const {
      published,
      instances: [a],
    } = deployment();
    a.begin('10.0.0.1', 'user:erin').succeeded();
    assert.equal(published[0]!.length, 0);
    const attempt = a.begin('10.0.0.1', 'user:erin');
    assert.equal(published[0]!.length, 0, 'unfinished: counted here only');
    attempt.failed();
    attempt.failed();
    assert.deepEqual(
      published[0]!.map((failure) => failure.key.split(':')[0]),
      ['address', 'identity'],
    );
    assert.ok(!published[0]!.some((failure) => failure.key.includes('erin')), 'identities travel as digests');
  });

  it('counts an IPv6 client by its /64, whichever of its addresses it sends from', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 5; i++) l.failed(`2001:db8:0:1::${i + 1}`);
    assert.throws(() => l.check('2001:db8:0:1:ffff:ffff:ffff:ffff'), refusal('60'));
    assert.doesNotThrow(() => l.check('2001:db8:0:2::1'));
    assert.equal(clientNetwork('2001:DB8::1'), '2001:db8:0:0::/64');
    assert.equal(clientNetwork('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(clientNetwork('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(clientNetwork('64:ff9b:1::192.0.2.7'), '64:ff9b:1:0::/64');
    assert.equal(clientNetwork('192.0.2.7'), '192.0.2.7');
  });
});
