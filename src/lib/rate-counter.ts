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
