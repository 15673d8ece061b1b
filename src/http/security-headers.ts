/**
 * The headers every answer carries: Fastify's replies, the not-found and error
 * answers, and the raw answers written for requests the HTTP parser refuses (`writeClientError`).
 * Defined once; `app.ts` sets them on every response before Fastify sees the request, and
 * `error-handler.ts` writes them into the raw answers.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
});

/** The same headers as raw HTTP/1.1 header lines, each ending in CRLF. */
export const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
