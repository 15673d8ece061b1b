import type { TObject, TSchema } from '@sinclair/typebox';
import type { RequestContext } from '../auth/context.js';
import type { CollectionPermissions, RouteAccess } from '../auth/route-access.js';
import type { MediaRef, RouteMedia } from '../lib/media-types.js';
import type { Query } from '../lib/query.js';

/**
 * An operation of the API as the kinds declare it, without any web framework: method and path, the
 * representations it speaks, who may call it, and what it does with a decoded call. The HTTP layer
 * (http/operations.ts) turns each into a route: authentication, negotiation and the route-level
 * permission run before `handle`, errors become responses after it.
 */
export interface Operation {
  /** LOCK and UNLOCK: Terraform's HTTP backend locks a state with them. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'LOCK' | 'UNLOCK';
  /** With `:name` parameters, e.g. `/api/meshobjects/meshbuildingblocks/:id/purge`. */
  path: string;
  media?: RouteMedia;
  /** The body as text, unparsed, whatever its Content-Type, up to `limitBytes` (a Terraform state). */
  rawBody?: { limitBytes: number };
  access: RouteAccess;
  /** What the route documents and how its answers are serialised (http/operations.ts). */
  doc: OperationDoc;
  handle(call: Call): Promise<Reply>;
}

/** A body in one representation: a versioned media type of the route, or a plain media type (`application/json`). */
export interface Representation {
  media: MediaRef | string;
  schema: TSchema;
  /** A valid body in this representation, shown as the media type's `example` (the kinds' `examples`). */
  example?: unknown;
}

/**
 * An operation's schemas. They document the route and serialise its answers; they do not validate
 * requests: the codecs and query parsers do, with the house messages naming the field.
 */
export interface OperationDoc {
  summary: string;
  description?: string;
  /** Path parameters; by default each `:name` of the path is a string. */
  params?: TObject;
  /** Query parameters, each with its description (the parsers' families: lib/paging.ts, kinds' query.ts). */
  query?: TObject;
  /** Request headers the operation reads. */
  headers?: TObject;
  /** The body per representation it consumes. */
  body?: readonly Representation[];
  /** The answers on success, by status (errors are added by the HTTP layer); no `body`: an empty answer. */
  responses: Readonly<Record<number, { description: string; body?: readonly Representation[] }>>;
}

/** The representations of a kind's codecs (with their vendor forms), for `OperationDoc` answers. */
export const answersOf = (
  codecs: readonly { media: MediaRef; schema: TSchema; vendorForms?: Readonly<Record<string, { schema: TSchema }>> }[],
): Representation[] =>
  codecs.flatMap((codec) => [
    { media: codec.media, schema: codec.schema },
    ...Object.entries(codec.vendorForms ?? {}).map(([vendor, form]) => ({ media: { ...codec.media, vendor }, schema: form.schema })),
  ]);
export const bodiesOf = (codecs: readonly { media: MediaRef; bodySchema?: TSchema }[]): Representation[] =>
  codecs.flatMap((codec) => (codec.bodySchema ? [{ media: codec.media, schema: codec.bodySchema }] : []));

/** One request, decoded: the caller, the negotiated representations and what was sent. */
export interface Call {
  ctx: RequestContext;
  /** Which collections the caller may list or create in: what links to them are shown (one per request). */
  collections: CollectionPermissions;
  params: Record<string, string>;
  query: Query;
  /** The parsed body (JSON, YAML stream or form), or undefined. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The representation of the answer (from Accept) and of the body (from Content-Type). */
  produces?: MediaRef;
  consumes?: MediaRef;
  /** The vendor segment the client used (answers are in its form, `Codec.vendorForms`). */
  vendor: string;
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
export const created = (body: { _links: { self: { href: string } } }): Reply => ({
  status: 201,
  body,
  headers: { location: body._links.self.href },
});
export const empty = (status: 200 | 202 | 204): Reply => ({ status });

/** The version token of the answer (`apiVersion` of its body): the Accept's, else the Content-Type's. */
export const versionOf = (call: Call) => call.produces?.version ?? call.consumes?.version ?? '';
