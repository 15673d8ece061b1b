import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { CollectionPermissions } from '../auth/route-access.js';
import type { Operation, Call } from '../kinds/operation.js';
import type { Query } from '../lib/query.js';
import { routeSchema } from './route-schemas.js';

/** What a `Call` carries from the app: the public base URL and the caller's collection permissions. */
export interface CallContext {
  baseUrl(): string;
  collectionPermissions(principal: Principal | undefined): CollectionPermissions;
}

/**
 * Registers the kinds' operations as Fastify routes, each with its schema (params, query, body per
 * consumed media type, answers per status and produced media type: http/route-schemas.ts). The hooks
 * of app.ts have run by the time a handler runs (caller known, representations negotiated,
 * route-level permission checked); here a request only becomes a `Call` and a `Reply` a response.
 */
export function registerOperations(
  app: FastifyInstance,
  operations: readonly Operation[],
  context: CallContext,
  vendors: readonly string[],
): void {
  for (const method of EXTRA_METHODS)
    if (operations.some((operation) => operation.method === method)) app.addHttpMethod(method, { hasBody: true });
  for (const operation of operations) {
    // OpenAPI has no LOCK or UNLOCK: those routes are served, not documented.
    const documented = !EXTRA_METHODS.includes(operation.method);
    app.route({
      method: operation.method,
      url: operation.path,
      schema: {
        ...routeSchema(operation.method, operation.path, operation.doc, operation.access, operation.media, vendors),
        ...(documented ? {} : { hide: true }),
      },
      config: { media: operation.media, access: operation.access, ...(operation.rawBody ? { rawBody: true } : {}) },
      ...(operation.rawBody ? { bodyLimit: operation.rawBody.limitBytes } : {}),
      handler: async (request, reply) => {
        const answer = await operation.handle(callOf(request, context, vendors));
        reply.code(answer.status);
        if (answer.headers) reply.headers(answer.headers);
        if (answer.body === undefined) return reply.send();
        // A streamed body (text chunks): sent as it is produced, never held whole.
        if (isAsyncIterable(answer.body)) return reply.send(Readable.from(answer.body));
        return reply.send(answer.body);
      },
    });
  }
}

/** Methods beyond Fastify's own that operations use (Terraform's HTTP backend locks with them). */
const EXTRA_METHODS: readonly Operation['method'][] = ['LOCK', 'UNLOCK'];

const isAsyncIterable = (value: unknown): value is AsyncIterable<string> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

function callOf(request: FastifyRequest, context: CallContext, vendors: readonly string[]): Call {
  return {
    ctx: { principal: request.principal },
    collections: context.collectionPermissions(request.principal),
    params: request.params as Record<string, string>,
    query: request.query as Query,
    body: request.body,
    headers: request.headers,
    ...(request.negotiated?.produces ? { produces: request.negotiated.produces } : {}),
    ...(request.negotiated?.consumes ? { consumes: request.negotiated.consumes } : {}),
    vendor: request.negotiated?.vendor ?? vendors[0] ?? 'vendor',
    baseUrl: context.baseUrl(),
    url: request.url,
  };
}
