import type { Negotiated, RouteMedia } from './negotiation.js';

/** What routes declare in `config` and what hooks attach to requests. */
declare module 'fastify' {
  interface FastifyContextConfig {
    media?: RouteMedia;
  }
  interface FastifyRequest {
    negotiated: Negotiated;
  }
}
