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

/** A failed authentication as the instances of a deployment tell each other: the key it counts against, and when. */
export interface SharedFailure {
  key: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/**
 * The other instances of a deployment, for the failed-attempt limits (auth/failed-attempts.ts; on
 * PostgreSQL store/shared-rate-counter.ts): where this one's failures go and theirs come from.
 * Neither call fails: without the database, each instance goes on with the failures it knows.
 */
export interface FailureExchange {
  publish(failures: readonly SharedFailure[]): void;
  /** The failures the others published since the last call (the first call: those of the last window). */
  collect(): Promise<SharedFailure[]>;
}
