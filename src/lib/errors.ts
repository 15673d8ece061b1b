/**
 * Every error the API can answer with, as a typed value with a stable `errorCode`.
 * Services throw these; the HTTP layer maps them once (http/error-handler.ts) to
 * `{message, errorCode, errorId}` with the status below.
 */
export const ERROR_STATUS = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  RequestTimeout: 408,
  Conflict: 409,
  Gone: 410,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  UnprocessableEntity: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;
  /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
  readonly headers: Record<string, string>;

  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    /** Which reference was missing, for the import's `resultCode` (COMPAT §7). */
    readonly missing?: MissingReference,
  ) {
    super(message);
    this.name = errorCode;
    this.status = ERROR_STATUS[errorCode];
    this.headers = headers;
  }
}

export type MissingReference = 'WORKSPACE' | 'PROJECT' | 'LOCATION' | 'PLATFORM' | 'OTHER';

export const badRequest = (message: string) => new ApiError('BadRequest', message);
export const unauthorized = (message: string) =>
  new ApiError('Unauthorized', message, { 'www-authenticate': 'Bearer realm="blockyard", Basic realm="blockyard"' });
export const forbidden = (message: string) => new ApiError('Forbidden', message);
export const notFound = (message: string) => new ApiError('NotFound', message);
/** The path exists, the method does not (RFC 9110 §15.5.6: `Allow` lists the methods it has). */
export const methodNotAllowed = (message: string, allow: readonly string[]) =>
  new ApiError('MethodNotAllowed', message, { allow: allow.join(', ') });
export const notAcceptable = (message: string) => new ApiError('NotAcceptable', message);
export const conflict = (message: string) => new ApiError('Conflict', message);
export const gone = (message: string) => new ApiError('Gone', message);
export const unsupportedMediaType = (message: string) => new ApiError('UnsupportedMediaType', message);
export const unprocessable = (message: string, missing: MissingReference = 'OTHER') =>
  new ApiError('UnprocessableEntity', message, {}, missing);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError('TooManyRequests', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message: string, retryAfterSeconds = 5) =>
  new ApiError('ServiceUnavailable', message, { 'retry-after': String(retryAfterSeconds) });

/** The one wording of a refused permission (COMPAT §3: clients match "you don't have sufficient permissions"). */
export const insufficientPermissions = (detail: string) => new ApiError('Forbidden', `you don't have sufficient permissions: ${detail}`);
