import type { FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import type { AccessLog } from '../logging.js';

/**
 * One line per answered request (logging.ts `AccessLog`): its id, method, path and query, status,
 * time taken and who called. Fastify's own request logging writes two lines per request (the
 * incoming request with its host and client address, then its completion) through a per-request
 * child logger and its serializers. Error answers add their own line with the errorId
 * (error-handler.ts).
 */
export function registerAccessLog(app: FastifyInstance, access: AccessLog): void {
  if (!access.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    const principal = request.principal;
    access.write({
      reqId: request.id,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      caller: principal ? `${principal.type}:${principal.id}` : undefined,
    });
    done();
  });
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * `request.log` made only when a request logs something (an error, a warning): Fastify builds a
 * child logger for every request, which serialises its bindings each time, while most requests log
 * nothing but their access line.
 */
export class LazyRequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.#child ? this.#child.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  private write(method: LogMethod, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(method)) return;
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
}
