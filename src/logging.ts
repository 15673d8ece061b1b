import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

/**
 * Paths that may carry secrets are censored before a line is written; request and response bodies are
 * never logged at all.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'headers.authorization',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.secret',
  '*.runToken',
  '*.access_token',
];

/**
 * Lines are written asynchronously in batches of at least 4 KiB (and at least every quarter second):
 * one write per request would cost a thread-pool round trip each. What is buffered is written when
 * the process exits (pino flushes its destination on exit); a hard kill can lose the last quarter
 * second of lines, never data.
 */
const FLUSH_EVERY_MS = 250;

/** The service's loggers: `log` for everything, `access` for the one line per request (http/access-log.ts). */
export interface Loggers {
  log: Logger;
  access: AccessLog;
}

/** What the access line says about a request. */
export interface AccessEntry {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  /** Milliseconds. */
  responseTime: number;
  /** `<principal type>:<id>`, when the caller authenticated. */
  caller: string | undefined;
}

/**
 * The access log: one line per request, in the same JSON line format as the other log lines (pino's:
 * level, time, pid, hostname, then the fields), at `info`. Built from a template and written to the
 * logger's destination directly: an object per request, pino's serialisation of it and the walk of
 * the redaction paths would cost more than everything else the line needs. Nothing in it can be a
 * secret (no headers, no bodies), so there is nothing to redact.
 */
export class AccessLog {
  private readonly prefix = `{"level":30,"time":`;
  private readonly origin = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  /** Lines not yet handed to the destination: handed over `batch` at a time, and at least every quarter second. */
  private pending: string[] = [];

  constructor(
    private readonly stream: DestinationStream,
    readonly enabled: boolean,
    /** 1 for a destination given by the caller (tests read the log file right after an answer). */
    private readonly batch = 64,
  ) {
    if (!enabled || batch === 1) return;
    process.once('exit', () => {
      this.flush();
      // pino's own exit flush may have run before this one.
      try {
        (this.stream as { flushSync?: () => void }).flushSync?.();
      } catch {
        /* the stream is gone or busy: nothing more can be done at exit */
      }
    });
  }

  write(entry: AccessEntry): void {
    if (!this.enabled) return;
    const caller = entry.caller === undefined ? '' : `,"caller":${JSON.stringify(entry.caller)}`;
    this.pending.push(
      `${this.prefix}${Date.now()}${this.origin},"reqId":${JSON.stringify(entry.reqId)},"req":{"method":${JSON.stringify(entry.method)},"url":${JSON.stringify(entry.url)}},"res":{"statusCode":${entry.statusCode}},"responseTime":${entry.responseTime}${caller},"msg":"request completed"}\n`,
    );
    if (this.pending.length >= this.batch) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.stream.write(lines);
  }
}

export function createLoggers(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Loggers {
  const stdout = destination ? undefined : pino.destination({ sync: false, minLength: 4096 });
  const stream = destination ?? stdout!;
  const log = pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  const access = new AccessLog(stream, log.isLevelEnabled('info'), destination ? 1 : 64);
  if (stdout) {
    // One timer for both buffers: the access lines waiting for a batch, then the destination's bytes.
    setInterval(() => {
      access.flush();
      // A flush while the stream is still opening or already writing throws; the next tick retries.
      try {
        stdout.flush();
      } catch {
        /* next time */
      }
    }, FLUSH_EVERY_MS).unref();
  }
  return { log, access };
}
