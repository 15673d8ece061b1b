import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../lib/errors.js';
import type { RateCount, RateCounter } from '../lib/rate-counter.js';

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
    if (current > max)
      throw tooManyRequests(
        `rate limit of ${max} requests per ${windowSeconds} s exceeded; retry in ${Math.ceil(ttl / 1000)} s`,
        ttl / 1000,
      );
  };
  return (request: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    if (EXEMPT.has(request.url)) return;
    const principal = request.principal;
    const count = counter.hit(principal ? `${principal.type}:${principal.id}` : `ip:${request.ip}`);
    if (count instanceof Promise) return count.then((resolved) => judge(reply, resolved));
    judge(reply, count);
  };
}
