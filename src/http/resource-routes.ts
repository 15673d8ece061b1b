import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Resource } from '../auth/permissions.js';
import type { AppContext } from './app.js';
import type { RouteAccess } from './fastify-types.js';
import type { HalLinks } from './hal.js';
import type { MediaRef } from './negotiation.js';
import { halPage, pageInfo, pageLinks, parsePagingParams, type PageRequest } from './paging.js';

export type Query = Record<string, string | undefined>;

/**
 * One REST resource of the meshObject API: a collection path, its versions and how the kind's
 * service is called. `registerResourceRoutes` turns it into the routes every kind shares (spec §2.1,
 * COMPAT §3): POST → 201 + Location, GET one, paged GET list, PUT → 200, DELETE → 202/204.
 * Handlers stay this thin: decode and rules live in the kind's codec and service.
 */
export interface ResourceDefinition<T> {
  /** Collection path, e.g. `/api/meshobjects/meshworkspaces`. */
  path: string;
  versions: readonly MediaRef[];
  /** Name of the `_embedded` array of lists, e.g. `meshWorkspaces`. */
  embedded: string;
  /** Permission resource: reads need `<R>_LIST`, writes `<R>_SAVE`, deletes `<R>_DELETE`. */
  resource: Resource;
  /** Route-level access of reads when it differs (locations and platforms are readable by all). */
  readAccess?: RouteAccess;
  /** Reads and writes are open to `MANAGED_` holders too (the service decides per object). */
  managed?: boolean;
  encode(item: T, request: FastifyRequest): { _links: HalLinks & { self: { href: string } } };
  get(request: FastifyRequest, id: string): Promise<T>;
  list(request: FastifyRequest, query: Query, page: PageRequest): Promise<{ items: T[]; total: number }>;
  create?(request: FastifyRequest, body: unknown): Promise<T>;
  update?(request: FastifyRequest, id: string, body: unknown): Promise<T>;
  remove?: { status: 202 | 204; run(request: FastifyRequest, id: string): Promise<void> };
}

export function registerResourceRoutes<T>(app: FastifyInstance, context: AppContext, resource: ResourceDefinition<T>): void {
  const { path, versions: produces } = resource;
  const orManaged = resource.managed === true;
  const read = resource.readAccess ?? { resource: resource.resource, action: 'LIST' as const, orManaged };
  const save = { resource: resource.resource, action: 'SAVE' as const, orManaged };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  if (resource.create) {
    const create = resource.create;
    app.post(path, { config: { media: { produces, consumes: produces }, access: save } }, async (request, reply) => {
      const body = resource.encode(await create(request, request.body), request);
      return reply.code(201).header('location', body._links.self.href).send(body);
    });
  }

  app.get(path, { config: { media: { produces }, access: read } }, async (request) => {
    const query = request.query as Query;
    const page = parsePagingParams(query);
    const { items, total } = await resource.list(request, query, page);
    const info = pageInfo(page, total);
    return halPage(resource.embedded, items.map((item) => resource.encode(item, request)), info, pageLinks(context.baseUrl(), request.url, info));
  });

  app.get(`${path}/:id`, { config: { media: { produces }, access: read } }, async (request) => resource.encode(await resource.get(request, idOf(request)), request));

  if (resource.update) {
    const update = resource.update;
    app.put(`${path}/:id`, { config: { media: { produces, consumes: produces }, access: save } }, async (request) =>
      resource.encode(await update(request, idOf(request), request.body), request),
    );
  }

  if (resource.remove) {
    const remove = resource.remove;
    app.delete(`${path}/:id`, { config: { access: { resource: resource.resource, action: 'DELETE' } } }, async (request, reply) => {
      await remove.run(request, idOf(request));
      return reply.code(remove.status).send();
    });
  }
}

/** The version token of the negotiated response (the `apiVersion` of the body). */
export const versionOf = (request: FastifyRequest) => request.negotiated.produces?.version ?? request.negotiated.consumes?.version ?? '';

/** An exact-match filter value: empty parameters are ignored (COMPAT §4). */
export const filterValue = (query: Query, name: string) => (query[name] === undefined || query[name] === '' ? undefined : query[name]);
