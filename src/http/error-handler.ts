import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../lib/errors.js';
import { isDatabaseUnavailable } from '../store/database.js';
import { JSON_CONTENT_TYPE } from '../lib/media-types.js';
import { SECURITY_HEADER_LINES } from './security-headers.js';

const CODE_BY_STATUS = new Map<number, ErrorCode>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]));

/** What the operator has to fix, said plainly (the request changed nothing). */
function unavailableMessage(error: unknown): string {
  const code = (error as { code?: string }).code ?? '';
  if (code === 'SQLITE_FULL') return 'the database disk is full: nothing was stored; retry when space has been freed';
  if (code.startsWith('SQLITE_READONLY')) return 'the database file is read-only: nothing was stored; retry when it is writable again';
  if (code.startsWith('SQLITE_IOERR'))
    return 'the database file cannot be written (I/O error: read-only or failing storage): nothing was stored; retry later';
  return 'the database is unavailable; retry later';
}

/** Fastify's own errors (body parsing, limits) and anything unexpected, as ApiErrors. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError('ServiceUnavailable', unavailableMessage(error), { 'retry-after': '5' });
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PayloadTooLarge', 'body: request body is larger than the limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UnsupportedMediaType', 'Content-Type is not supported');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BadRequest', 'Content-Length does not match the body');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(CODE_BY_STATUS.get(status) ?? 'BadRequest', fastifyError.message ?? 'bad request');
  }
  return new ApiError('InternalError', 'internal error');
}

/** `{message, errorCode, errorId}` as JSON; the errorId is in the log line of the same error. */
export function sendError(request: FastifyRequest, reply: FastifyReply, api: ApiError, cause?: unknown) {
  const errorId = randomUUID();
  if (api.status >= 500) request.log.error({ err: cause ?? api, errorId }, api.message);
  else request.log.info({ errorId, errorCode: api.errorCode, status: api.status }, api.message);
  return reply
    .code(api.status)
    .headers(api.headers)
    .type(JSON_CONTENT_TYPE)
    .send({ message: api.message, errorCode: api.errorCode, errorId });
}

/**
 * What the HTTP parser refuses before Fastify sees a request, and requests that did not arrive within
 * the headers or request timeout, answered in the same format and with the security headers of every
 * answer. Anything else (a failed or timed-out TLS handshake, a reset socket, an answer already under
 * way) just closes the connection.
 */
export function writeClientError(error: Error & { code?: string }, socket: Duplex): void {
  // The parser reports the same error again for each further chunk of a request it refused (the
  // rest of an oversized head): the answer is already being written and the linger below closes.
  if (lingering.has(socket)) return;
  const code = error.code ?? '';
  const timeout = code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || answering || !(timeout || code.startsWith('HPE_'))) return void socket.destroy();
  const tooLarge = code === 'HPE_HEADER_OVERFLOW';
  const message = timeout
    ? 'the request did not arrive in time (request head or body too slow)'
    : tooLarge
      ? 'request headers are too large'
      : 'the request could not be parsed';
  const errorCode: ErrorCode = timeout ? 'RequestTimeout' : 'BadRequest';
  const body = JSON.stringify({ message, errorCode, errorId: randomUUID() });
  const status = timeout ? '408 Request Timeout' : tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${SECURITY_HEADER_LINES}Connection: close\r\n\r\n${body}`,
  );
  // A client gets a second to read the answer and close; one that keeps its side open (a slow client
  // would) is cut then. Closing at once could reset the connection before the answer is read.
  lingering.add(socket);
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Connections answered by writeClientError, until they close. */
const lingering = new WeakSet<Duplex>();

/**
 * The one place where errors become responses: `{message, errorCode, errorId}` as JSON. Stack traces
 * stay in the log.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendError(request, reply, toApiError(error), error));
  app.setNotFoundHandler((request, reply) => {
    const errorId = randomUUID();
    request.log.info({ errorId }, 'no route');
    return reply
      .code(404)
      .type(JSON_CONTENT_TYPE)
      .send({ message: `no resource at ${request.method} ${request.url.split('?')[0]}`, errorCode: 'NotFound', errorId });
  });
}
