import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actsInWorkspace, type Principal } from '../auth/principal.js';
import type { EventFeed, Subscriber, Subscription } from '../kinds/eventlog/feed.js';
import type { EventFilter, EventRecord } from '../kinds/eventlog/model.js';
import { parseEventQuery } from '../kinds/eventlog/query.js';
import { EVENTLOG_CODECS } from '../kinds/eventlog/wire/index.js';
import { badRequest, gone, serviceUnavailable, tooManyRequests } from '../lib/errors.js';
import { acceptedRanges, essence } from '../lib/media-types.js';
import type { AppContext } from './app.js';
import { EVENT_LOGS_PATH } from '../kinds/eventlog/model.js';

/** The SSE event name of every event (its `data` is the v1-preview meshEventLog, as in the list). */
export const SSE_EVENT_NAME = 'meshEventLog';
export const EVENT_STREAM_TYPE = 'text/event-stream';
/** How often a stream's credentials are checked again (revocation takes effect within 5 s, README). */
const RECHECK_MS = 5000;
/** What EventSource clients wait before reconnecting (the `retry:` field). */
const RETRY_MS = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventStreamLimits {
  /** Open streams per credential in this process; beyond: 429. */
  perCredential: number;
  heartbeatMs: number;
  /** Bytes a stream may hold while its reader does not read; beyond: the stream is closed. */
  bufferBytes: number;
}

/** True when the client prefers an event stream: the highest-ranked range of its Accept is `text/event-stream`. */
export function wantsEventStream(accept: string | string[] | undefined): boolean {
  const header = Array.isArray(accept) ? accept.join(',') : accept;
  // Most requests name no event stream at all: no need to rank their ranges (routing asks every request).
  if (header === undefined || !header.toLowerCase().includes(EVENT_STREAM_TYPE)) return false;
  const first = acceptedRanges(header)[0];
  return first !== undefined && essence(first) === EVENT_STREAM_TYPE;
}

/**
 * Encoded once per event, whoever receives it: the feed hands the same record object to every
 * subscriber, and the text does not depend on the caller (links are absolute, from the public URL).
 */
class EventText {
  private readonly cache = new WeakMap<EventRecord, string>();
  private readonly batches = new WeakMap<readonly EventRecord[], string>();
  constructor(private readonly baseUrl: () => string) {}

  /**
   * A batch's text, joined once for every stream the feed hands the same batch (the watchers whose
   * filter takes all of it): each writes (and, while its socket is blocked, holds) the same string.
   * A string, as each stream's text was before: what a stream that falls behind holds stays on the
   * V8 heap (one shared buffer of bytes was tried; bench/README.md says why it was not kept).
   */
  batch(records: readonly EventRecord[]): string {
    let text = this.batches.get(records);
    if (text === undefined) {
      text = records.length === 1 ? this.of(records[0]!) : records.map((record) => this.of(record)).join('');
      this.batches.set(records, text);
    }
    return text;
  }

  of(record: EventRecord): string {
    let text = this.cache.get(record);
    if (text === undefined) {
      const data = JSON.stringify(EVENTLOG_CODECS.of('v1-preview').encode(record, { baseUrl: this.baseUrl() }));
      text = `id: ${record.uuid}\nevent: ${SSE_EVENT_NAME}\ndata: ${data}\n\n`;
      this.cache.set(record, text);
    }
    return text;
  }
}

const credentialKey = (principal: Principal) => `${principal.type}:${principal.id}`;

/** Who a principal is and what it may see: a stream ends when this changes under it. */
const standing = (principal: Principal) =>
  actsInWorkspace(principal)
    ? `${principal.id}|${principal.workspace}|${[...principal.permissions].sort().join(',')}`
    : credentialKey(principal);

/**
 * `GET /api/meshobjects/mesheventlogs` with `Accept: text/event-stream` (README "Event stream"): the
 * list's filters and visibility, each event as `id: <uuid>`, `event: meshEventLog`, `data: <the
 * v1-preview JSON>`, heartbeat comments, `Last-Event-ID` to resume. Registered on the list's path with a
 * route constraint on Accept, so the list keeps its own route; the hooks of app.ts (authentication,
 * rate limit, route-level permission) run before it as for any route.
 */
export function registerEventStream(
  app: FastifyInstance,
  context: AppContext,
  feed: EventFeed,
  limits: EventStreamLimits,
): { close(): Promise<void> } {
  const open = new Map<string, number>();
  const connections = new Set<Connection>();
  const text = new EventText(context.baseUrl);

  app.addConstraintStrategy({
    name: 'eventStream',
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (value: string) => (handlers.get(value) ?? null) as never,
        set: (value: string, handler: unknown) => void handlers.set(value, handler),
      };
    },
    deriveConstraint: (request: { headers: Record<string, string | string[] | undefined> }) =>
      (wantsEventStream(request.headers.accept) ? 'yes' : undefined) as never,
    mustMatchWhenDerived: false,
  });

  app.route({
    method: 'GET',
    url: EVENT_LOGS_PATH,
    constraints: { eventStream: 'yes' },
    exposeHeadRoute: false,
    config: { access: { resource: 'EVENTLOG', action: 'LIST' }, streaming: true },
    handler: async (request, reply) => {
      const principal = request.principal;
      const ctx = { principal };
      const events = context.services.events;
      const filter = await events.filterFor(ctx, parseEventQuery(request.query as Record<string, string | undefined>));
      const after = await resumePosition(request, (uuid) => events.find(ctx, uuid));
      const key = credentialKey(principal);
      const count = open.get(key) ?? 0;
      if (count >= limits.perCredential) {
        throw tooManyRequests(
          `at most ${limits.perCredential} event streams may be open per credential (on this instance); close one first (BLOCKYARD_EVENT_STREAMS_PER_CREDENTIAL)`,
          RETRY_MS / 1000,
        );
      }
      open.set(key, count + 1);
      const release = () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) open.delete(key);
        else open.set(key, left);
      };
      const connection = new Connection(reply.raw, filter, limits, text, request.log, () => {
        connections.delete(connection);
        release();
      });
      connections.add(connection);
      try {
        connection.subscription = await feed.subscribe(connection, after);
      } catch (error) {
        connection.finish();
        throw error;
      }
      // The client went away, or the server began to shut down, while the stream was being set up.
      if (connection.isEnded) {
        connection.subscription.close();
        throw serviceUnavailable('the server is shutting down; reconnect with Last-Event-ID', RETRY_MS / 1000);
      }
      reply.hijack();
      // A long-lived response: the socket's inactivity limit must outlast the heartbeats.
      request.raw.socket.setTimeout(Math.max(60_000, 3 * limits.heartbeatMs));
      // The credential the stream was opened with, whichever it is (an Authorization header, a person's session cookie).
      const presented = { method: 'GET', headers: { authorization: request.headers.authorization, cookie: request.headers.cookie } };
      const initial = standing(principal);
      connection.recheck = async () => {
        try {
          const now = await context.identity.authenticator.authenticateRequest(
            presented,
            request.ip,
            () => new URL(context.baseUrl()).origin,
          );
          return standing(now) === initial ? undefined : "the credential's permissions changed";
        } catch (error) {
          return (error as Error).message;
        }
      };
      connection.open();
    },
  });

  // Shutdown (and every `app.close()`): streams end before the server waits for its connections, and
  // their last words are flushed (at most 1 s) before idle connections are closed.
  const close = async () => {
    const ending = [...connections].map((connection) => connection.end('the server is shutting down; reconnect with Last-Event-ID'));
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  };
  app.addHook('preClose', close);
  return { close };
}

/** `Last-Event-ID`: the position after that event, or 400 (malformed) / 410 (not in the log, or not the caller's to see). */
async function resumePosition(
  request: FastifyRequest,
  find: (uuid: string) => Promise<EventRecord | undefined>,
): Promise<number | undefined> {
  const raw = request.headers['last-event-id'];
  const id = (Array.isArray(raw) ? raw.at(-1) : raw)?.trim();
  if (id === undefined || id === '') return undefined;
  if (!UUID.test(id)) throw badRequest(`Last-Event-ID must be the id of an event (a UUID), got "${id.slice(0, 100)}"`);
  const event = await find(id.toLowerCase());
  if (!event) {
    throw gone(
      `Last-Event-ID ${id} names no event in the log (unknown, or pruned after the retention): the stream cannot resume after it without a gap. ` +
        'Reconnect without Last-Event-ID to follow from now, and list the events since the last one you saw (from=) to fill the gap',
    );
  }
  return event.seq;
}

/** One open stream: a subscriber of the feed writing to one response, with a bounded buffer. */
class Connection implements Subscriber {
  subscription: Subscription | undefined;
  recheck: (() => Promise<string | undefined>) | undefined;
  private queue: string[] = [];
  private queuedBytes = 0;
  /** The position of the first event waiting in `queue` (a fall-behind resumes just before it). */
  private firstQueuedSeq: number | undefined;
  private opened = false;
  private blocked = false;
  /** Since when the socket has taken nothing more (undefined: it drains). */
  private blockedSince: number | undefined;
  private ended = false;
  private waiters: (() => void)[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private checker: NodeJS.Timeout | undefined;

  constructor(
    private readonly response: ServerResponse,
    readonly filter: EventFilter,
    private readonly limits: EventStreamLimits,
    private readonly text: EventText,
    private readonly log: FastifyRequest['log'],
    private readonly onFinished: () => void,
  ) {
    response.on('close', () => this.finish());
    response.on('drain', () => {
      this.blocked = false;
      this.blockedSince = undefined;
      this.flush();
    });
  }

  open(): void {
    if (this.ended) return;
    this.response.writeHead(200, {
      'content-type': `${EVENT_STREAM_TYPE}; charset=utf-8`,
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
    });
    this.response.flushHeaders();
    this.opened = true;
    this.write(`retry: ${RETRY_MS}\n: following meshEventLog v1-preview events\n\n`);
    this.heartbeat = setInterval(() => {
      if (!this.blocked) {
        this.write(`: heartbeat ${new Date().toISOString()}\n\n`);
      } else if (this.blockedSince !== undefined && Date.now() - this.blockedSince >= 2 * this.limits.heartbeatMs) {
        // Its socket took nothing for two heartbeat intervals: the reader does not keep up.
        this.log.warn({ blockedMs: Date.now() - this.blockedSince }, 'event stream closed: its reader is too slow');
        this.destroy();
      }
    }, this.limits.heartbeatMs);
    this.checker = setInterval(() => {
      void this.recheck?.().then((problem) => {
        if (problem !== undefined) void this.end(`the credentials no longer hold (${problem})`);
      });
    }, RECHECK_MS);
    this.flush();
  }

  deliver(records: readonly EventRecord[], catchUp: boolean): void {
    if (this.ended) return;
    if (this.queue.length === 0) this.firstQueuedSeq = records[0]?.seq;
    const text = this.text.batch(records);
    this.queue.push(text);
    this.queuedBytes += text.length;
    // The buffer is full (the socket takes nothing and what waits passed the bound): what waits is
    // dropped, and the stream reads on from the log after what it has written, at its reader's pace.
    if (!catchUp && this.blocked && this.queuedBytes + this.response.writableLength > this.limits.bufferBytes && this.subscription) {
      const resumeAfter = (this.firstQueuedSeq ?? records[0]!.seq) - 1;
      this.queue = [];
      this.queuedBytes = 0;
      this.log.debug(
        { buffered: this.response.writableLength, limit: this.limits.bufferBytes },
        'event stream fell behind: reading on from the log',
      );
      this.subscription.fallBehind(resumeAfter);
      return;
    }
    this.flush();
  }

  ready(): Promise<void> {
    if (this.ended || (!this.blocked && this.queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  fail(error: unknown): void {
    this.log.warn({ err: error }, 'event stream closed: reading the events failed');
    void this.end('reading the events failed; reconnect with Last-Event-ID');
  }

  /** Ends the stream with a last comment saying why (clients reconnect, with Last-Event-ID); resolves once flushed. */
  end(reason: string): Promise<void> {
    if (this.ended) return Promise.resolve();
    const response = this.response;
    const flushed = new Promise<void>((resolve) => {
      response.once('finish', resolve);
      response.once('close', resolve);
    });
    if (this.opened && !this.blocked) response.write(`: closed: ${reason}\n\n`);
    this.finish();
    if (!this.opened) return Promise.resolve();
    response.end();
    return flushed;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Stops everything without writing (the response is closed, or was never opened). */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    clearInterval(this.checker);
    this.subscription?.close();
    this.queue = [];
    this.queuedBytes = 0;
    for (const waiter of this.waiters.splice(0)) waiter();
    this.onFinished();
  }

  private destroy(): void {
    this.finish();
    this.response.destroy();
  }

  private write(chunk: string): void {
    if (this.ended) return;
    if (!this.response.write(chunk)) {
      this.blocked = true;
      this.blockedSince ??= Date.now();
    }
  }

  private flush(): void {
    if (!this.opened || this.ended) return;
    if (!this.blocked && this.queue.length > 0) {
      const chunk = this.queue.length === 1 ? this.queue[0]! : this.queue.join('');
      this.queue = [];
      this.queuedBytes = 0;
      this.write(chunk);
    }
    if (!this.blocked && this.queue.length === 0) for (const waiter of this.waiters.splice(0)) waiter();
  }
}
