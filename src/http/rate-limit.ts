import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../lib/errors.js';

/** A request counted in its credential's fixed window: how many so far, and ms until the window ends. */
export interface RateCount {
  current: number;
  ttl: number;
}

/** Counts requests per key and fixed window; a PostgreSQL deployment shares them (store/shared-rate-counter.ts). */
export interface RateCounter {
  /** Synchronous when the window is known here, a promise when it must be read first. */
  hit(key: string, now?: number): RateCount | Promise<RateCount>;
}

/** One instance's counts: one map lookup and an increment per request. */
export class LocalRateCounter implements RateCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweptAt = 0;

  constructor(private readonly windowMs: number) {}

  hit(key: string, now = Date.now()): RateCount {
    const start = now - (now % this.windowMs);
    if (start !== this.sweptAt) {
      // A new window: the counts of the last one are of no use any more.
      this.windows.clear();
      this.sweptAt = start;
    }
    let window = this.windows.get(key);
    if (!window) this.windows.set(key, (window = { start, count: 0 }));
    window.count++;
    return { current: window.count, ttl: start + this.windowMs - now };
  }
}

/** Health checks are never limited (load balancers poll them). */
const EXEMPT = new Set(['/healthz', '/readyz']);

/**
 * The rate limit per credential (per client address for anonymous calls), judged right after
 * authentication: 429 with `Retry-After` above `max` requests in a window; every answer says how
 * many remain (`x-ratelimit-*`).
 */
export function rateLimiter(counter: RateCounter, max: number, windowSeconds: number) {
  const limitHeader = String(max);
  const judge = (reply: FastifyReply, { current, ttl }: RateCount) => {
    const remaining = max - current;
    reply.header('x-ratelimit-limit', limitHeader);
    reply.header('x-ratelimit-remaining', String(remaining < 0 ? 0 : remaining));
    reply.header('x-ratelimit-reset', String(Math.ceil(ttl / 1000)));
    if (current > max) throw tooManyRequests(`rate limit of ${max} requests per ${windowSeconds} s exceeded; retry in ${Math.ceil(ttl / 1000)} s`, ttl / 1000);
  };
  return (request: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    if (EXEMPT.has(request.url)) return;
    const principal = request.principal;
    const count = counter.hit(principal ? `${principal.type}:${principal.id}` : `ip:${request.ip}`);
    if (count instanceof Promise) return count.then((resolved) => judge(reply, resolved));
    judge(reply, count);
  };
}
