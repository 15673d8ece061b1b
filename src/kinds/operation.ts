import type { RequestContext } from '../auth/context.js';
import type { RouteAccess } from '../auth/route-access.js';
import type { MediaRef, RouteMedia } from '../lib/media-types.js';
import type { Query } from '../lib/query.js';

/**
 * An operation of the API as the kinds declare it, without any web framework: method and path, the
 * representations it speaks, who may call it, and what it does with a decoded call. The HTTP layer
 * (http/operations.ts) turns each into a route: authentication, negotiation and the route-level
 * permission run before `handle`, errors become responses after it.
 */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With `:name` parameters, e.g. `/api/meshobjects/meshbuildingblocks/:id/purge`. */
  path: string;
  media?: RouteMedia;
  access: RouteAccess;
  handle(call: Call): Promise<Reply>;
}

/** One request, decoded: the caller, the negotiated representations and what was sent. */
export interface Call {
  ctx: RequestContext;
  params: Record<string, string>;
  query: Query;
  /** The parsed body (JSON, YAML stream or form), or undefined. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The representation of the answer (from Accept) and of the body (from Content-Type). */
  produces?: MediaRef;
  consumes?: MediaRef;
  /** The public base URL: every link is absolute. */
  baseUrl: string;
  /** Path and query as requested (paging links echo it). */
  url: string;
}

export interface Reply {
  status: number;
  /** Sent as JSON in the negotiated media type (an AsyncIterable of text: streamed as is); absent: an empty body. */
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: { _links: { self: { href: string } } }): Reply => ({ status: 201, body, headers: { location: body._links.self.href } });
export const empty = (status: 200 | 202 | 204): Reply => ({ status });

/** The version token of the answer (`apiVersion` of its body): the Accept's, else the Content-Type's. */
export const versionOf = (call: Call) => call.produces?.version ?? call.consumes?.version ?? '';
