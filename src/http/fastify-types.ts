import type { Principal } from '../auth/principal.js';
import type { RouteAccess } from '../auth/route-access.js';
import type { RouteMedia } from '../lib/media-types.js';
import type { Negotiated } from './negotiation.js';

/** What routes declare in `config` and what hooks attach to requests. */
declare module 'fastify' {
  interface FastifyContextConfig {
    media?: RouteMedia;
    /** Defaults to 'authenticated': a route is never public by accident. */
    access?: RouteAccess;
    /** A route answering 405 for a method its path does not have (not part of the route table). */
    methodNotAllowed?: boolean;
    /** A path of a deprecation-list kind not served here: it answers for retired versions only. */
    unservedKind?: boolean;
    /** The body is handed on as text, unparsed (Operation.rawBody). */
    rawBody?: boolean;
    /** A long-lived answer (an event stream): its duration is no latency (the metrics count it only). */
    streaming?: boolean;
  }
  interface FastifyRequest {
    negotiated: Negotiated;
    principal: Principal;
  }
}
