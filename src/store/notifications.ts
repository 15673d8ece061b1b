import pg from 'pg';
import type { Logger } from 'pino';

/** What a listener is told: each notification of its channel, and each (re)connection. */
export interface NotificationHandlers {
  /** A notification of the channel, with its payload. */
  notified(payload: string): void;
  /** Listening (again): notifications sent while no connection listened are lost. */
  connected(): void;
}

export interface Listening {
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/**
 * `LISTEN <channel>` on a dedicated PostgreSQL connection (outside the pool: a pooled connection would
 * be handed to queries). Every notification calls `notified`, every (re)connection `connected`, since
 * notifications sent while it was down are lost. A lost connection is opened again after 0.5 s, then
 * doubling up to 10 s. The channel must be a plain identifier.
 */
export function listen(
  databaseUrl: string,
  channel: string,
  handlers: NotificationHandlers,
  log: Pick<Logger, 'warn' | 'info'>,
  timeoutMs = 5000,
): Listening {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let client: pg.Client | undefined;
  let closed = false;
  let delay = 500;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };

  const connect = async () => {
    const attempt = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs, keepAlive: true });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      if (client === attempt) client = undefined;
      attempt.removeAllListeners('notification');
      attempt.end().catch(() => undefined);
      if (!closed) {
        log.warn({ err: error, channel }, 'listening for PostgreSQL notifications failed; reconnecting');
        retry();
      }
    };
    attempt.on('error', fail);
    attempt.on('end', () => fail(new Error('connection ended')));
    attempt.on('notification', (message) => {
      if (message.channel === channel) handlers.notified(message.payload ?? '');
    });
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${channel}`);
    } catch (error) {
      fail(error);
      return;
    }
    if (closed) {
      await attempt.end().catch(() => undefined);
      return;
    }
    client = attempt;
    delay = 500;
    handlers.connected();
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => undefined);
        await current.end().catch(() => undefined);
      }
    },
  };
}
