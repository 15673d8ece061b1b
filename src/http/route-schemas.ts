import { Type, type TSchema } from '@sinclair/typebox';
import type { RouteAccess } from '../auth/route-access.js';
import type { OperationDoc, Representation } from '../kinds/operation.js';
import { formatMediaType, type RouteMedia } from '../lib/media-types.js';
import { deprecatedMessage } from '../lib/versions.js';
import { REQUEST_EXAMPLES } from '../kinds/registry.js';
import { REST_VERSIONS } from '../lifecycle.js';
import { ErrorBody } from '../lib/wire-schemas.js';

/**
 * Fastify route schemas: what every route documents (the served OpenAPI is generated from
 * them, http/openapi.ts) and how its answers are serialised (http/serialization.ts). They do not
 * validate requests: the codecs and query parsers do, with the house messages (app.ts).
 */

/** The credentials of the API, as OpenAPI security schemes (http/openapi.ts declares them). */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token of an API key (POST /oauth/token with its client id and secret).',
  },
  basic: { type: 'http', scheme: 'basic', description: 'An API user (username and password).' },
  runToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The run token a runner received with its claimed run: opens that run’s own endpoints only.',
  },
  scimToken: { type: 'http', scheme: 'bearer', description: 'A SCIM token (blockyard admin scim-token create): opens /scim/v2 only.' },
} as const;

/** Who may call a route, as OpenAPI `security`. */
export function securityOf(access: RouteAccess): Record<string, string[]>[] {
  if (access === 'public') return [];
  if (access === 'scim') return [{ scimToken: [] }];
  if (access === 'run' || access === 'tfstate') return [{ bearer: [] }, { basic: [] }, { runToken: [] }];
  return [{ bearer: [] }, { basic: [] }];
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'a parameter or field is invalid (the message names it)',
  401: 'no or invalid credentials',
  403: 'the caller may not do this',
  404: 'no such object (or the caller may not see it)',
  406: 'the Accept header names no version served here (or a retired one)',
  409: 'the object conflicts with the current state',
  413: 'the body is larger than the limit',
  415: 'the Content-Type names no version taken here (or a retired one)',
  422: 'the body names an object that does not exist, or breaks a rule',
  429: 'rate limit exceeded (Retry-After says when to retry)',
  500: 'internal error (the errorId is in the server log)',
  503: 'the database is unavailable or the server is shutting down (Retry-After)',
};

const HOUSE_ERROR: Representation = { media: 'application/json', schema: ErrorBody };

/** The error answers a route can give, each with the one error body. */
function errorResponses(
  access: RouteAccess,
  media: RouteMedia | undefined,
  method: string,
  error: Representation = HOUSE_ERROR,
): Record<number, object> {
  // 404 everywhere: a list names objects in its filters, a body names others.
  const statuses = new Set([400, 404, 429, 500, 503]);
  if (access !== 'public') [401, 403].forEach((status) => statuses.add(status));
  // The login routes refuse wrong client credentials.
  if (media?.plainBodies) statuses.add(401);
  if (media?.produces) statuses.add(406);
  if (media?.consumes || media?.plainBodies) [413, 415].forEach((status) => statuses.add(status));
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') [409, 422].forEach((status) => statuses.add(status));
  if (method === 'DELETE') statuses.add(409);
  const answers: Record<number, object> = {};
  for (const status of [...statuses].sort((a, b) => a - b))
    answers[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? String(status),
      content: { [error.media as string]: { schema: error.schema } },
    };
  return answers;
}

/** A versioned representation under every vendor segment the server takes (answers echo the client's vendor), or its own one. */
function mediaTypesOf(representation: Representation, vendors: readonly string[]): string[] {
  const { media } = representation;
  if (typeof media === 'string') return [media];
  const under = media.vendor === undefined ? vendors : vendors.filter((vendor) => vendor === media.vendor);
  return under.map((vendor) => formatMediaType(vendor, media.kind, media.version, media.format));
}

const vendorOnly = (representation: Representation) =>
  typeof representation.media !== 'string' && representation.media.vendor !== undefined;

/** A deprecated version's schema says so (the version table, spec §9): `deprecated` and when it ends. */
function documented(representation: Representation): TSchema {
  const entry = typeof representation.media === 'string' ? undefined : REST_VERSIONS.of(representation.media);
  return entry ? { ...representation.schema, deprecated: true, description: deprecatedMessage(entry) } : representation.schema;
}

/** A request body with the example its kind gives for its version, if any (`examples` of the manifests). */
function withExample(representation: Representation): Representation {
  const { media } = representation;
  if (representation.example !== undefined || typeof media === 'string' || media.format) return representation;
  const example = REQUEST_EXAMPLES[`${media.kind}/${media.version}`];
  return example === undefined ? representation : { ...representation, example };
}

/**
 * The media type objects of some representations. An example rides on the schema as `examples: [it]`:
 * @fastify/swagger moves a one-element `examples` of a content schema to the media type's `example`.
 */
function content(representations: readonly Representation[], vendors: readonly string[]): Record<string, { schema: TSchema }> {
  const byType: Record<string, { schema: TSchema }> = {};
  // A vendor's own form takes the place of the common one under that vendor.
  const ordered = [...representations.filter((r) => !vendorOnly(r)), ...representations.filter(vendorOnly)];
  for (const representation of ordered) {
    const documentedSchema = documented(representation);
    const schema = representation.example === undefined ? documentedSchema : { ...documentedSchema, examples: [representation.example] };
    for (const type of mediaTypesOf(representation, vendors)) byType[type] = { schema };
  }
  return byType;
}

/** The path parameters of a path (`:id` → a string), when the doc does not describe them. */
function pathParams(path: string) {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return names.length === 0 ? undefined : Type.Object(Object.fromEntries(names.map((name) => [name, Type.String()])));
}

/** A route's tag in the reference: its collection (`meshbuildingblocks`), or its area. */
function tagOf(path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && !segment.startsWith(':'));
  if (segments[0] === 'api' && segments[1] === 'meshobjects' && segments[2]) return segments[2];
  if (segments[0] === 'api' && segments[1] === 'admin') return 'admin';
  if (segments[0] === 'scim') return 'scim';
  return 'service';
}

/** Deprecated when every version the route speaks is on the deprecation list (spec §9). */
function deprecated(media: RouteMedia | undefined): boolean {
  const refs = [...(media?.produces ?? []), ...(media?.consumes ?? [])];
  return refs.length > 0 && refs.every((ref) => REST_VERSIONS.of(ref) !== undefined);
}

/** The Fastify `schema` of a route from its doc, access and media (errors in the house body unless `error` says otherwise). */
export function routeSchema(
  method: string,
  path: string,
  doc: OperationDoc,
  access: RouteAccess,
  media: RouteMedia | undefined,
  vendors: readonly string[],
  error?: Representation,
) {
  const params = doc.params ?? pathParams(path);
  const response: Record<number, object> = { ...errorResponses(access, media, method, error) };
  for (const [status, answer] of Object.entries(doc.responses)) {
    response[Number(status)] = answer.body
      ? { description: answer.description, content: content(answer.body, vendors) }
      : { description: answer.description, type: 'null' };
  }
  return {
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [tagOf(path)],
    security: securityOf(access),
    ...(deprecated(media) ? { deprecated: true } : {}),
    ...(params ? { params } : {}),
    ...(doc.query ? { querystring: doc.query } : {}),
    ...(doc.headers ? { headers: doc.headers } : {}),
    ...(doc.body && doc.body.length > 0 ? { body: { content: content(doc.body.map(withExample), vendors) } } : {}),
    response,
  };
}
