import { randomUUID } from 'node:crypto';

/** The payloads on the events channel besides a commit's (empty). */
const ASKING = 'asking';
const WATCHING = 'watching:';

/**
 * Whether another instance on the PostgreSQL database has event streams open, so that this one's
 * commits must be notified to it: a NOTIFY is a round trip and a transaction of its own, about a tenth
 * of a status report's cost, wasted where no other instance has a stream to wake.
 *
 * An instance with streams says `watching:<its id>` when its first stream opens, every heartbeat while
 * any is open, and when asked; an instance asks when its listening connection (re)connects, since what
 * was said while it was down is lost. Another's word holds for three heartbeats. On hearing it, this
 * instance notifies once at once: its commits made after the other's stream read its starting position
 * but before the word arrived would otherwise reach that stream only at its slow poll.
 */
export class StreamInterest {
  private readonly id = randomUUID();
  private othersUntil = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    /** Sends a payload on the events channel (fire and forget: a lost word costs latency, not events). */
    private readonly say: (payload: string) => void,
    /** Another instance said it watches. */
    private readonly onOtherWatching: () => void,
    private readonly heartbeatMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether commits must be notified: another instance said it watches, within three heartbeats. */
  get othersWatching(): boolean {
    return this.now() < this.othersUntil;
  }

  /** The listening connection is up (again): ask who watches. */
  listening(): void {
    this.say(ASKING);
  }

  /** A payload heard on the events channel (this instance's own words come back too). */
  heard(payload: string): void {
    if (payload === ASKING) {
      if (this.heartbeat) this.say(WATCHING + this.id);
      return;
    }
    if (!payload.startsWith(WATCHING) || payload === WATCHING + this.id) return;
    this.othersUntil = this.now() + 3 * this.heartbeatMs;
    this.onOtherWatching();
  }

  /** This instance's streams: the first opened (true) or the last closed (false). */
  watching(open: boolean): void {
    if (open && !this.heartbeat) {
      this.say(WATCHING + this.id);
      this.heartbeat = setInterval(() => this.say(WATCHING + this.id), this.heartbeatMs);
      this.heartbeat.unref();
    } else if (!open && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }
}
