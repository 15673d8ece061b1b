import type { Action, Resource } from '../auth/permissions.js';
import type { Principal } from '../auth/principal.js';
import type { Negotiated, RouteMedia } from './negotiation.js';

/**
 * Who may call a route: nobody needs credentials (`public`), any API key or API user
 * (`authenticated`), those or a run token (`run`: the run's own endpoints; the service checks the
 * run), an admin (API users and keys with admin permissions), a caller holding the permission in some
 * workspace, or one holding the `MANAGED_`/`ADM_` form of a code. The per-object rules live in services.
 */
export type RouteAccess =
  | 'public'
  | 'authenticated'
  | 'run'
  | 'admin'
  /** `orManaged`: the `MANAGED_<R>_<A>` form counts too (definition owners acting on their blocks). */
  | { resource: Resource; action: Action; adminOnly?: boolean; orManaged?: boolean }
  | { managed: string };

/** What routes declare in `config` and what hooks attach to requests. */
declare module 'fastify' {
  interface FastifyContextConfig {
    media?: RouteMedia;
    /** Defaults to 'authenticated': a route is never public by accident. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    negotiated: Negotiated;
    principal: Principal;
  }
}
