import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../lib/errors.js';
import { FailedAttemptLimiter } from './failed-attempts.js';

function limiter(limits = { perAddress: 5, perIdentity: 3, windowSeconds: 60 }) {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new FailedAttemptLimiter(limits, () => clock.now) };
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
});
