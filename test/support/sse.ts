import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';

/** One Server-Sent Event as received. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  /** `data` parsed as JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface SseOptions {
  /** The credential: an Authorization header, or (a person signed in) the session cookie. */
  authorization?: string;
  cookie?: string;
  lastEventId?: string;
  accept?: string;
  /** false: only count the events (long load runs), keep the last one. */
  keep?: boolean;
  /** Called with each event as it arrives. */
  onEvent?: (event: SseEvent) => void;
}

/**
 * A raw event-stream reader over real TLS (node:https, no EventSource: no automatic reconnects, so a
 * test sees exactly what one connection delivered). `pause()` stops reading the socket: a slow reader.
 */
export class SseStream {
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  /** The body of a non-200 answer. */
  text = '';
  readonly events: SseEvent[] = [];
  /** Events received (kept or not). */
  count = 0;
  /** The last event received. */
  last: SseEvent | undefined;
  readonly comments: string[] = [];
  ended = false;
  readonly done: Promise<void>;
  private response: IncomingMessage | undefined;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private readonly opened: Promise<void>;
  private req;
  private readonly keep: boolean;
  private readonly onEvent: ((event: SseEvent) => void) | undefined;

  constructor(url: string, ca: string, options: SseOptions) {
    this.keep = options.keep ?? true;
    this.onEvent = options.onEvent;
    let resolveOpen!: () => void;
    let rejectOpen!: (error: unknown) => void;
    this.opened = new Promise((resolve, reject) => {
      resolveOpen = resolve;
      rejectOpen = reject;
    });
    let resolveDone!: () => void;
    this.done = new Promise((resolve) => (resolveDone = resolve));
    const finish = () => {
      this.ended = true;
      resolveDone();
      this.notify();
    };
    this.req = request(url, {
      ca,
      agent: false,
      headers: {
        accept: options.accept ?? 'text/event-stream',
        ...(options.authorization ? { authorization: options.authorization } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
      },
    });
    this.req.on('response', (response) => {
      this.response = response;
      this.status = response.statusCode ?? 0;
      this.headers = response.headers;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (this.status !== 200) {
          this.text += chunk;
          return;
        }
        this.buffer += chunk;
        this.parse();
        // The stream is open once the server's first comment arrived (it subscribed before sending it).
        if (this.comments.length > 0) resolveOpen();
      });
      response.on('end', () => {
        resolveOpen();
        finish();
      });
      response.on('error', finish);
      response.on('close', finish);
    });
    this.req.on('error', (error) => {
      rejectOpen(error);
      finish();
    });
    this.req.end();
  }

  /** Resolves once the answer's head (and, for a stream, its first comment) arrived. */
  async open(): Promise<this> {
    await this.opened;
    return this;
  }

  /** Waits until `count` events arrived (or the stream ended), at most `ms`. */
  async waitFor(count: number, ms = 10_000): Promise<SseEvent[]> {
    const end = Date.now() + ms;
    while (this.count < count && !this.ended) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out with ${this.count} of ${count} events`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Waits until `check` holds for the comments (heartbeats, the closing one). */
  async waitForComment(check: (comment: string) => boolean, ms = 10_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const found = this.comments.find(check);
      if (found !== undefined) return found;
      if (this.ended || Date.now() > end) throw new Error(`no such comment; got ${JSON.stringify(this.comments)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  pause(): void {
    this.response?.pause();
  }

  resume(): void {
    this.response?.resume();
  }

  close(): void {
    this.req.destroy();
    this.response?.destroy();
  }

  private notify() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private parse() {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end === -1) return;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: Partial<SseEvent> & { data?: string } = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) event.data = event.data === undefined ? line.slice(6) : `${event.data}\n${line.slice(6)}`;
      }
      if (event.data !== undefined) {
        const data = event.data;
        const received = {
          ...event,
          data,
          get json() {
            return JSON.parse(data);
          },
        } as SseEvent;
        this.count++;
        this.last = received;
        if (this.keep) this.events.push(received);
        this.onEvent?.(received);
      }
      this.notify();
    }
  }
}

/** Opens a stream of `path` (with its query) and waits until it is open (or answered otherwise). */
export function openStream(baseUrl: string, ca: string, path: string, options: SseOptions): Promise<SseStream> {
  return new SseStream(`${baseUrl}${path}`, ca, options).open();
}
