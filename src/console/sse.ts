import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Follows a Server-Sent Events stream with `fetch` (EventSource cannot send an Authorization header):
 * parses it as it arrives, remembers the last event id, and reconnects after the server's `retry:`
 * delay with `Last-Event-ID` when the stream ends (an expired token, a restart, another instance), so
 * nothing is missed and nothing comes twice. A resume the server cannot serve (410: the event is gone)
 * starts afresh and tells the caller through `onGap`, who reloads what it shows.
 */
export interface FollowOptions {
  url: string;
  /** Headers of each connection (asked again for every one: the token may have been refreshed). */
  headers(): Promise<Record<string, string>>;
  onEvent(event: EventSourceMessage): void;
  /** Connected, or waiting to reconnect (with why), or stopped for good (with why). */
  onStatus?(status: 'live' | 'reconnecting' | 'stopped', detail?: string): void;
  /** The stream could not resume where it was: events may have been missed. */
  onGap?(): void;
  fetch?: typeof fetch;
  /** Delay before reconnecting until the server sends its own `retry:`. */
  retryMs?: number;
}

export interface Follower {
  close(): void;
  /** The id of the last event received. */
  readonly lastEventId: string | undefined;
}

/** Answers that retrying cannot change (a bad filter, a missing permission): stop and say why. */
const FINAL_STATUSES = new Set([400, 403, 404, 406]);

export function followEvents(options: FollowOptions): Follower {
  const fetchFn = options.fetch ?? fetch.bind(globalThis);
  const abort = new AbortController();
  let lastEventId: string | undefined;
  let retryMs = options.retryMs ?? 2000;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  async function connect(): Promise<'again' | 'stop'> {
    const headers = { ...(await options.headers()), accept: 'text/event-stream' } as Record<string, string>;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await fetchFn(options.url, { headers, signal: abort.signal, cache: 'no-store' });
    if (response.status === 410 && lastEventId !== undefined) {
      lastEventId = undefined;
      options.onGap?.();
      return 'again';
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      let message = `the event stream answered ${response.status}`;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not the error format
      }
      if (FINAL_STATUSES.has(response.status)) {
        options.onStatus?.('stopped', message);
        return 'stop';
      }
      options.onStatus?.('reconnecting', message);
      return 'again';
    }
    options.onStatus?.('live');
    const parser = createParser({
      onEvent(event) {
        if (event.id !== undefined) lastEventId = event.id;
        options.onEvent(event);
      },
      onRetry(ms) {
        retryMs = ms;
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
    options.onStatus?.('reconnecting', 'the stream ended');
    return 'again';
  }

  void (async () => {
    while (!abort.signal.aborted) {
      let next: 'again' | 'stop';
      try {
        next = await connect();
      } catch (error) {
        if (abort.signal.aborted) return;
        options.onStatus?.('reconnecting', (error as Error).message);
        next = 'again';
      }
      if (next === 'stop') return;
      await sleep(retryMs);
    }
  })();

  return {
    close: () => abort.abort(),
    get lastEventId() {
      return lastEventId;
    },
  };
}
