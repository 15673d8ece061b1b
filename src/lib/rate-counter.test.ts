import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalRateCounter } from './rate-counter.js';

describe('LocalRateCounter', () => {
  it('counts per key within a fixed window and starts again in the next', () => {
    const counter = new LocalRateCounter(60_000);
    const start = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    assert.deepEqual(counter.hit('apiKey:a', start + 1000), { current: 1, ttl: 59_000 });
    assert.deepEqual(counter.hit('apiKey:a', start + 2000), { current: 2, ttl: 58_000 });
    assert.deepEqual(counter.hit('ip:127.0.0.1', start + 2000), { current: 1, ttl: 58_000 });
    assert.deepEqual(counter.hit('apiKey:a', start + 60_000), { current: 1, ttl: 60_000 });
  });
});
