import { tooManyRequests } from '../lib/errors.js';

export interface FailedAttemptLimits {
  /** Failed attempts one client address may make within the window. */
  perAddress: number;
  /** Failed attempts against one presented identity (a username or client id), from anywhere. */
  perIdentity: number;
  windowSeconds: number;
}

/** An attempt under way: it counts as failed until it is known to have succeeded. */
export interface Attempt {
  succeeded(): void;
}

const addressKey = (address: string) => `address:${address}`;
const identityKey = (identity: string) => `identity:${identity}`;

/** Beyond this many tracked addresses and identities the stalest are forgotten: memory stays bounded. */
const MAX_TRACKED = 100_000;

/**
 * Limits failed authentication (issue 16, item 2) per client address and per presented identity,
 * within a sliding window, before any secret is checked: `check` refuses with 429 and Retry-After
 * once either has used up its failures. A check that is expensive (a password hash) is started with
 * `begin` instead: it counts as failed from the moment it starts until it succeeds, so concurrent
 * guesses are judged together (48 parallel guesses cost no more hashing than the limit allows).
 * Counts are per instance (README "Reliability").
 */
export class FailedAttemptLimiter {
  /** By key: the start times of failed (or unfinished) attempts within the window, oldest first. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: FailedAttemptLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses (429) when the address or the identity has no failed attempts left. */
  check(address: string, identity: string): void {
    const now = this.now();
    this.refuseIfExhausted(addressKey(address), this.limits.perAddress, now, 'this client address');
    this.refuseIfExhausted(identityKey(identity), this.limits.perIdentity, now, 'this identity');
  }

  /** Counts a failed attempt (of a cheap check, judged after the fact). */
  failed(address: string, identity: string): void {
    const now = this.now();
    this.record(addressKey(address), now);
    this.record(identityKey(identity), now);
  }

  /** Checks, then starts an attempt that counts as failed until it succeeds. */
  begin(address: string, identity: string): Attempt {
    this.check(address, identity);
    const now = this.now();
    this.failed(address, identity);
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        this.forgetOne(addressKey(address), now);
        this.forgetOne(identityKey(identity), now);
      },
    };
  }

  private refuseIfExhausted(key: string, limit: number, now: number, what: string): void {
    const times = this.current(key, now);
    if (times.length < limit) return;
    const retryAfterSeconds = (times[times.length - limit]! + this.limits.windowSeconds * 1000 - now) / 1000;
    throw tooManyRequests(`too many failed authentication attempts from ${what}; retry in ${Math.max(1, Math.ceil(retryAfterSeconds))} s`, retryAfterSeconds);
  }

  /** The attempts of a key still within the window (older ones dropped). */
  private current(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const horizon = now - this.limits.windowSeconds * 1000;
    let expired = 0;
    while (expired < times.length && times[expired]! <= horizon) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  private record(key: string, now: number): void {
    const times = this.current(key, now);
    if (times.length === 0) {
      if (this.failures.size >= MAX_TRACKED) this.forgetStalest();
      this.failures.set(key, times);
    }
    times.push(now);
  }

  private forgetOne(key: string, time: number): void {
    const times = this.failures.get(key);
    const index = times?.lastIndexOf(time) ?? -1;
    if (index === -1) return;
    times!.splice(index, 1);
    if (times!.length === 0) this.failures.delete(key);
  }

  /** Drops a tenth of the tracked keys, those first seen longest ago (Map keeps insertion order). */
  private forgetStalest(): void {
    let drop = Math.ceil(MAX_TRACKED / 10);
    for (const key of this.failures.keys()) {
      if (drop-- === 0) break;
      this.failures.delete(key);
    }
  }
}
