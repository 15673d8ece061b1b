import { createHash } from 'node:crypto';
import { tooManyRequests } from '../lib/errors.js';
import type { FailureExchange } from '../lib/rate-counter.js';

export interface FailedAttemptLimits {
  /** Failed attempts one client address may make within the window, whatever the scheme. */
  perAddress: number;
  /** Failed attempts against one presented identity (a username or client id), from anywhere. */
  perIdentity: number;
  windowSeconds: number;
}

/** An attempt under way: it counts as failed until it is known to have succeeded. */
export interface Attempt {
  succeeded(): void;
  /** It failed: it goes on counting, and the other instances learn of it. */
  failed(): void;
}

const addressKey = (address: string) => `address:${clientNetwork(address)}`;
/** Presented identities are kept as digests: a password typed as a username is not stored anywhere. */
const identityKey = (identity: string) => `identity:${createHash('sha256').update(identity).digest('base64url')}`;

/**
 * What a client address counts as: an IPv4 address as it is, an IPv6 address by its /64, the network
 * of one subscriber (a host there may choose among 2^64 addresses), an IPv4-mapped one as its IPv4.
 */
export function clientNetwork(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** Beyond this many tracked addresses and identities the stalest are forgotten: memory stays bounded. */
const MAX_TRACKED = 100_000;
/** A credential is judged by the other instances' failures as of at most this long ago. */
const SHARED_VIEW_MS = 250;
/** How long a request waits for that view: a slow database delays authentication by no more. */
const SHARED_VIEW_WAIT_MS = 200;

/**
 * Limits failed authentication per client address, whatever the scheme (a password, client
 * credentials, an API key's token, a run token, a SCIM token), and per presented identity (a username,
 * a client id), within a sliding window. `check` runs before any secret is looked at and refuses with
 * 429 and Retry-After once either has used up its failures; the authenticator reports each failure
 * (`failed`). A check that is expensive (a password hash) is started with `begin` instead: it counts as
 * failed from the moment it starts until it succeeds, so concurrent guesses are judged together (48
 * parallel guesses cost no more hashing than the limit allows). A success takes back only its own
 * attempt, never the address's other failures.
 *
 * With an `exchange` (instances sharing a PostgreSQL database), every failure is published as it
 * happens and a check first reads the others' when this instance's view is older than 250 ms: the
 * limits are the deployment's, up to what the others admitted in that time.
 */
export class FailedAttemptLimiter {
  /** By key: the times of failed (or unfinished) attempts within the window, oldest first. */
  private readonly failures = new Map<string, number[]>();
  private readonly windowMs: number;
  private viewedAt = Number.NEGATIVE_INFINITY;
  private viewing: Promise<void> | undefined;

  constructor(
    private readonly limits: FailedAttemptLimits,
    private readonly exchange?: FailureExchange,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = limits.windowSeconds * 1000;
  }

  /**
   * Refuses (429) when the address, or the identity where there is one, has no failed attempts left.
   * A promise only while the other instances' failures are being read.
   */
  check(address: string, identity?: string): void | Promise<void> {
    const viewing = this.refreshView();
    if (viewing) return viewing.then(() => this.judge(address, identity));
    this.judge(address, identity);
  }

  /** Counts a failed attempt (of a cheap check, judged after the fact). */
  failed(address: string, identity?: string): void {
    const now = this.now();
    const keys = identity === undefined ? [addressKey(address)] : [addressKey(address), identityKey(identity)];
    for (const key of keys) this.insert(key, now, now);
    this.exchange?.publish(keys.map((key) => ({ key, at: now })));
  }

  /** Checks with what is known, then starts an attempt that counts as failed until it succeeds. */
  begin(address: string, identity: string): Attempt {
    this.judge(address, identity);
    const now = this.now();
    const keys = [addressKey(address), identityKey(identity)];
    for (const key of keys) this.insert(key, now, now);
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        for (const key of keys) this.forgetOne(key, now);
      },
      failed: () => {
        if (settled) return;
        settled = true;
        this.exchange?.publish(keys.map((key) => ({ key, at: now })));
      },
    };
  }

  private judge(address: string, identity: string | undefined): void {
    const now = this.now();
    this.refuseIfExhausted(addressKey(address), this.limits.perAddress, now, 'this client address');
    if (identity !== undefined) this.refuseIfExhausted(identityKey(identity), this.limits.perIdentity, now, 'this identity');
  }

  /** Reads the other instances' failures when the last read is 250 ms old; waits for it at most 200 ms. */
  private refreshView(): Promise<void> | undefined {
    if (!this.exchange) return undefined;
    if (this.viewing) return this.viewing;
    const now = this.now();
    if (now - this.viewedAt < SHARED_VIEW_MS) return undefined;
    this.viewedAt = now;
    let timer: NodeJS.Timeout | undefined;
    const read = this.exchange.collect().then((failures) => {
      const at = this.now();
      for (const failure of failures) this.insert(failure.key, failure.at, at);
    });
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHARED_VIEW_WAIT_MS).unref()));
    this.viewing = Promise.race([read, waited]);
    void read.finally(() => {
      clearTimeout(timer);
      this.viewing = undefined;
    });
    return this.viewing;
  }

  private refuseIfExhausted(key: string, limit: number, now: number, what: string): void {
    const times = this.current(key, now);
    if (times.length < limit) return;
    const retryAfterSeconds = (times[times.length - limit]! + this.windowMs - now) / 1000;
    throw tooManyRequests(
      `too many failed authentication attempts from ${what}; retry in ${Math.max(1, Math.ceil(retryAfterSeconds))} s`,
      retryAfterSeconds,
    );
  }

  /** The attempts of a key still within the window (older ones dropped). */
  private current(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const horizon = now - this.windowMs;
    let expired = 0;
    while (expired < times.length && times[expired]! <= horizon) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  /** Adds a failure at `at` in time order (another instance's may be older than the last one here). */
  private insert(key: string, at: number, now: number): void {
    if (at <= now - this.windowMs) return;
    const times = this.current(key, now);
    if (times.length === 0) {
      if (this.failures.size >= MAX_TRACKED) this.forgetStalest();
      this.failures.set(key, times);
    }
    let index = times.length;
    while (index > 0 && times[index - 1]! > at) index--;
    times.splice(index, 0, at);
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
