import type { EventLogService } from './service.js';

export interface RetentionOptions {
  /** Events older than this are pruned. */
  days: number;
  /** Between two prunes (the first runs `firstDelayMs` after the start). */
  intervalMs?: number;
  firstDelayMs?: number;
  /** Events deleted per statement: a prune never holds a long transaction or a large lock. */
  batch?: number;
  onError?: (error: unknown) => void;
}

const DAY_MS = 86_400_000;

/**
 * Retention of the event log (`BLOCKYARD_EVENT_RETENTION_DAYS`): every instance prunes
 * events older than the retention in the background, in bounded batches (each its own statement,
 * oldest first), pausing between batches so requests keep the database. Pruning is idempotent, so
 * several instances may prune at once. `stop` ends the loop and waits for the batch in flight.
 */
export class EventRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly batch: number;

  constructor(
    private readonly events: EventLogService,
    private readonly options: RetentionOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 3_600_000;
    this.batch = options.batch ?? 1000;
  }

  start(): void {
    this.schedule(this.options.firstDelayMs ?? 30_000);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.prune().catch((error: unknown) => {
        this.options.onError?.(error);
        return 0;
      });
      void this.running.finally(() => {
        this.running = undefined;
        this.schedule(this.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Deletes every event older than the retention, batch by batch; answers how many went. */
  async prune(now = Date.now()): Promise<number> {
    const before = new Date(now - this.options.days * DAY_MS).toISOString();
    let total = 0;
    while (!this.stopped) {
      const deleted = await this.events.prune(before, this.batch);
      total += deleted;
      if (deleted < this.batch) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return total;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
