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

export function createLogger(config: Config, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination ?? pino.destination({ sync: false }));
}
