import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../store/database.js';
import { registerContentParsers } from './content-parsers.js';
import { registerErrorHandling } from './error-handler.js';
import './fastify-types.js';
import { formatMediaType } from './media-types.js';
import { negotiate, type MediaRef } from './negotiation.js';
import { deprecationHeaders } from './versions.js';
import type { TlsMaterial } from './tls.js';

/** What every route module receives: configuration, storage and the public base URL for links. */
export interface AppContext {
  config: Config;
  database: Database;
  /** `BLOCKYARD_PUBLIC_URL`, or `https://localhost:<listening port>`. */
  baseUrl(): string;
  /** Every (kind, version) some route produces or consumes, filled as routes register. */
  served: Map<string, MediaRef>;
}

const SECURITY_HEADERS = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function createApp(config: Config, tls: TlsMaterial, database: Database, logger: Logger): { app: FastifyInstance; context: AppContext } {
  const app = Fastify({
    loggerInstance: logger,
    https: { cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' },
    bodyLimit: config.bodyLimitBytes,
    // Slow or stalled clients cannot hold a connection forever.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    genReqId: () => crypto.randomUUID(),
  }) as unknown as FastifyInstance; // an HTTPS server with a pino logger: same surface for route modules

  let baseUrl: string | undefined = config.publicUrl;
  const context: AppContext = {
    config,
    database,
    baseUrl: () => (baseUrl ??= `https://localhost:${(app.server.address() as AddressInfo).port}`),
    served: new Map(),
  };

  app.decorateRequest('negotiated', undefined as never);
  registerContentParsers(app);
  registerErrorHandling(app);

  app.addHook('onRoute', (route) => {
    const media = route.config?.media;
    for (const ref of [...(media?.produces ?? []), ...(media?.consumes ?? [])]) context.served.set(`${ref.kind}.${ref.version}.${ref.format ?? 'hal+json'}`, ref);
  });

  // Media-type negotiation before the body is read: 406 and 415 cost no parsing.
  app.addHook('onRequest', async (request, reply) => {
    const media = request.routeOptions.config?.media;
    if (!media) return;
    const negotiated = negotiate(request.headers, media, config.mediaVendors);
    request.negotiated = negotiated;
    if (negotiated.produces) {
      const { kind, version, format } = negotiated.produces;
      reply.type(`${formatMediaType(negotiated.vendor, kind, version, format)}`);
    }
    for (const entry of negotiated.deprecated) {
      const url = `${context.baseUrl()}${request.url.split('?')[0]}`;
      reply.headers(deprecationHeaders(entry, url, (ref) => formatMediaType(negotiated.vendor, ref.kind, ref.version)));
    }
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });

  return { app, context };
}
