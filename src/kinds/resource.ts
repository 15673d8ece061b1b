import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import type { Resource } from '../auth/permissions.js';
import type { RouteAccess } from '../auth/route-access.js';
import type { MediaRef } from '../lib/media-types.js';
import { halPage, halPageSchema, pageInfo, pageLinks, PagingQuery, parsePagingParams, type Page, type PageRequest } from '../lib/paging.js';
import { answersOf, bodiesOf, created, empty, ok, type Call, type Operation, type Representation } from './operation.js';

/** What every encoded object has: an absolute `self` link (the `Location` of a create). */
export interface Encoded {
  _links: { self: { href: string } };
}

/**
 * One REST resource of the meshObject API: a collection path, its representations and how the kind's
 * (authorized) service is called. `resourceOperations` turns it into the operations every kind shares
 * (spec §2.1, COMPAT §3): POST → 201 + Location, GET one, paged GET list, PUT → 200, DELETE → 202/204.
 * The functions stay thin: decoding is the codec's, rules are the service's.
 */
export interface ResourceDefinition<T> {
  /** Collection path, e.g. `/api/meshobjects/meshworkspaces`. */
  path: string;
  /** The kind's codecs: the versions the routes speak and the schemas they document. */
  codecs: readonly {
    media: MediaRef;
    schema: TSchema;
    bodySchema?: TSchema;
    vendorForms?: Readonly<Record<string, { schema: TSchema }>>;
  }[];
  /** The list's filters (beside the function that parses them), each with its description. */
  filters?: TProperties;
  /** Other answers of the list route's path and method (the event log's stream, served by its own route). */
  listAlso?: readonly Representation[];
  /** Name of the `_embedded` array of lists, e.g. `meshWorkspaces`. */
  embedded: string;
  /** Permission resource: reads need `<R>_LIST`, writes `<R>_SAVE`, deletes `<R>_DELETE`. */
  resource: Resource;
  /** Route-level access of reads when it differs (locations and platforms are readable by all). */
  readAccess?: RouteAccess;
  /** Reads and writes are open to `MANAGED_` holders too (the service decides per object). */
  managed?: boolean;
  /** Only `ADM_<R>_*` holders (and API users) call these routes: `all` of them, or the `writes` (users, project roles). */
  adminOnly?: 'all' | 'writes';
  /** A lower maximum page size than 350, for kinds whose objects can be large (lib/limits.ts). */
  maxPageSize?: number;
  encode(item: T, call: Call): Encoded;
  get(call: Call, id: string): Promise<T>;
  list(call: Call, page: PageRequest): Promise<Page<T>>;
  create?(call: Call): Promise<T>;
  update?(call: Call, id: string): Promise<T>;
  /**
   * Where a kind's published API answers otherwise: POST `200` with the object (and its Location),
   * PUT `202` without a body (meshServiceInstance).
   */
  answers?: { create?: 200; update?: 202 };
  remove?: { status: 202 | 204; run(call: Call, id: string): Promise<void> };
}

/** A list route: GET on a collection path answering one page of `embedded`, its filters documented. */
export interface ListDefinition<T> {
  path: string;
  codecs: ResourceDefinition<T>['codecs'];
  embedded: string;
  access: RouteAccess;
  filters?: TProperties;
  listAlso?: readonly Representation[];
  maxPageSize?: number;
  /** The documented summary and answer (by default `List <kind>s`, `a page of <kind>s`). */
  summary?: string;
  description?: string;
  list(call: Call, page: PageRequest): Promise<Page<T>>;
  encode(item: T, call: Call): unknown;
}

/** The list route of a collection: one page (its size from the query, at most `maxPageSize`), each item encoded, with the page's info and links. */
export function listOperation<T>(definition: ListDefinition<T>): Operation {
  const kind = definition.embedded.replace(/s$/, '');
  return {
    method: 'GET',
    path: definition.path,
    media: { produces: definition.codecs.map((codec) => codec.media) },
    access: definition.access,
    doc: {
      summary: definition.summary ?? `List ${kind}s`,
      query: Type.Object({ ...definition.filters, ...PagingQuery }),
      responses: {
        200: {
          description: definition.description ?? `a page of ${kind}s`,
          body: [
            ...answersOf(definition.codecs).map((answer) => ({
              media: answer.media,
              schema: halPageSchema(definition.embedded, answer.schema),
            })),
            ...(definition.listAlso ?? []),
          ],
        },
      },
    },
    handle: async (call) => {
      const page = parsePagingParams(call.query, definition.maxPageSize);
      const { items, total } = await definition.list(call, page);
      const info = pageInfo(page, total);
      const encoded = items.map((item) => definition.encode(item, call));
      return ok(halPage(definition.embedded, encoded, info, pageLinks(call.baseUrl, call.url, info)));
    },
  };
}

export function resourceOperations<T>(resource: ResourceDefinition<T>): Operation[] {
  const { path, codecs } = resource;
  const produces = codecs.map((codec) => codec.media);
  const kind = resource.embedded.replace(/s$/, '');
  const one = answersOf(codecs);
  const bodies = bodiesOf(codecs);
  const id = Type.Object({ id: Type.String({ description: `the ${kind}'s identifier (its uuid or name)` }) });
  const orManaged = resource.managed === true;
  const adminReads = resource.adminOnly === 'all' ? { adminOnly: true } : {};
  const adminWrites = resource.adminOnly !== undefined ? { adminOnly: true } : {};
  const read = resource.readAccess ?? { resource: resource.resource, action: 'LIST' as const, orManaged, ...adminReads };
  const save = { resource: resource.resource, action: 'SAVE' as const, orManaged, ...adminWrites };
  const idOf = (call: Call) => call.params.id!;
  const operations: Operation[] = [];

  if (resource.create) {
    const create = resource.create;
    const createdWith200 = resource.answers?.create === 200;
    const answer = createdWith200 ? (body: Encoded) => ({ ...ok(body), headers: { location: body._links.self.href } }) : created;
    operations.push({
      method: 'POST',
      path,
      media: { produces, consumes: produces },
      access: save,
      doc: {
        summary: `Create a ${kind}`,
        body: bodies,
        responses: { [createdWith200 ? 200 : 201]: { description: `the created ${kind} (its URL in Location)`, body: one } },
      },
      handle: async (call) => answer(resource.encode(await create(call), call)),
    });
  }
  operations.push(
    listOperation({
      path,
      codecs,
      embedded: resource.embedded,
      access: read,
      filters: resource.filters,
      listAlso: resource.listAlso,
      maxPageSize: resource.maxPageSize,
      list: resource.list,
      encode: resource.encode,
    }),
  );
  operations.push({
    method: 'GET',
    path: `${path}/:id`,
    media: { produces },
    access: read,
    doc: { summary: `Read a ${kind}`, params: id, responses: { 200: { description: `the ${kind}`, body: one } } },
    handle: async (call) => ok(resource.encode(await resource.get(call, idOf(call)), call)),
  });
  if (resource.update) {
    const update = resource.update;
    const accepted = resource.answers?.update === 202;
    operations.push({
      method: 'PUT',
      path: `${path}/:id`,
      media: { produces, consumes: produces },
      access: save,
      doc: {
        summary: `Update a ${kind}`,
        params: id,
        body: bodies,
        responses: accepted ? { 202: { description: 'update accepted' } } : { 200: { description: `the updated ${kind}`, body: one } },
      },
      handle: async (call) => {
        const updated = await update(call, idOf(call));
        return accepted ? empty(202) : ok(resource.encode(updated, call));
      },
    });
  }
  if (resource.remove) {
    const remove = resource.remove;
    operations.push({
      method: 'DELETE',
      path: `${path}/:id`,
      access: { resource: resource.resource, action: 'DELETE', ...adminWrites },
      doc: {
        summary: `Delete a ${kind}`,
        params: id,
        responses: { [remove.status]: { description: remove.status === 202 ? 'deletion accepted' : 'deleted' } },
      },
      handle: async (call) => {
        await remove.run(call, idOf(call));
        return empty(remove.status);
      },
    });
  }
  return operations;
}
