import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../auth/context.js';
import { resourceTypes, schemas, serviceProviderConfig } from '../scim/discovery.js';
import { scimNotFound, toScimError } from '../scim/errors.js';
import { ScimGroups } from '../scim/groups.js';
import { listResponse, project } from '../scim/resource.js';
import { ScimUsers } from '../scim/users.js';
import type { AppContext } from './app.js';
import { toApiError } from './error-handler.js';
import './fastify-types.js';
import { routeSchema } from './route-schemas.js';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
/** SCIM bodies: `application/scim+json` (RFC 7644 §3.1), and `application/json`, which clients send as well. */
const BODY_TYPES = ['application/scim+json', 'application/json'] as const;

/** SCIM resources and list responses (RFC 7643): described by the server's own /Schemas; answered as they are. */
const ScimResource = Type.Object({ schemas: Type.Array(Type.String()) }, { additionalProperties: true });
const ScimErrorBody = Type.Object({
  schemas: Type.Array(Type.String()),
  status: Type.String(),
  scimType: Type.Optional(Type.String()),
  detail: Type.String(),
});
const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ description: 'RFC 7644 filter (eq on the attributes /Schemas lists)' })),
  startIndex: Type.Optional(Type.Integer({ minimum: 1, description: '1-based index of the first result' })),
  count: Type.Optional(Type.Integer({ minimum: 0, description: 'results per page' })),
  attributes: Type.Optional(Type.String({ description: 'comma-separated attributes to return' })),
  excludedAttributes: Type.Optional(Type.String({ description: 'comma-separated attributes to leave out' })),
});

/** A SCIM route's schema: SCIM bodies in and out, SCIM errors. */
function scimSchema(method: string, path: string, summary: string, status: 200 | 201 | 204 = 200) {
  const scim = [{ media: 'application/scim+json', schema: ScimResource }];
  const takesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const doc = {
    summary,
    ...(method === 'GET' && !path.includes(':') ? { query: ListQuery } : {}),
    ...(takesBody ? { body: [...scim, { media: 'application/json', schema: ScimResource }] } : {}),
    responses: {
      [status]: status === 204 ? { description: 'deleted' } : { description: 'the resource (a ListResponse for lists)', body: scim },
    },
  };
  return routeSchema(method, `/scim/v2${path}`, doc, 'scim', takesBody ? { plainBodies: BODY_TYPES } : undefined, [], {
    media: 'application/scim+json',
    schema: ScimErrorBody,
  });
}

const ctxOf = (request: FastifyRequest): RequestContext => ({ principal: request.principal });
const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, string | undefined>;
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Every error on these routes in SCIM's format (RFC 7644 §3.12), 401s with a Bearer challenge. */
function sendScimError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const scim = toScimError(error) ?? toScimError(toApiError(error))!;
  const errorId = randomUUID();
  if (scim.status >= 500) request.log.error({ err: error, errorId }, scim.detail);
  else request.log.info({ errorId, status: scim.status, scimType: scim.scimType }, scim.detail);
  const headers = { ...scim.headers };
  if (scim.status === 401) headers['www-authenticate'] = 'Bearer realm="blockyard-scim"';
  return reply.code(scim.status).headers(headers).type(SCIM_CONTENT_TYPE).send(scim.body());
}

/**
 * SCIM 2.0 provisioning (RFC 7643/7644) under `/scim/v2`: Users and Groups over the
 * authorized user and group services, and the discovery endpoints. Every route's access is `scim`:
 * only a SCIM token opens it (the authentication hook checks it, API key tokens and Basic are 401).
 */
export async function scimRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const base = () => context.baseUrl();
  const users = new ScimUsers(context.services.users, base);
  const groups = new ScimGroups(context.services.userGroups, context.services.users, base, context.config.scimGroupWorkspace);
  const read = { access: 'scim' as const };
  const write = { access: 'scim' as const, media: { plainBodies: BODY_TYPES } };

  app.setErrorHandler((error, request, reply) => sendScimError(request, reply, error));
  // Any other path under /scim/v2 is a SCIM 404 for a SCIM client (and a 401 for anyone else).
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: read,
    handler: async (request) => {
      throw scimNotFound(`no SCIM resource at ${request.method} ${request.url.split('?')[0]}`);
    },
  });
  const send = (reply: FastifyReply, body: unknown, status = 200) => reply.code(status).type(SCIM_CONTENT_TYPE).send(body);

  app.get(
    '/ServiceProviderConfig',
    { config: read, schema: scimSchema('GET', '/ServiceProviderConfig', 'SCIM service provider configuration') },
    async (_request, reply) => send(reply, serviceProviderConfig(base())),
  );
  app.get(
    '/ResourceTypes',
    { config: read, schema: scimSchema('GET', '/ResourceTypes', 'SCIM resource types') },
    async (_request, reply) => {
      const all = resourceTypes(base());
      return send(reply, listResponse(all, all.length, 1));
    },
  );
  app.get(
    '/ResourceTypes/:id',
    { config: read, schema: scimSchema('GET', '/ResourceTypes/:id', 'A SCIM resource type') },
    async (request, reply) => {
      const found = resourceTypes(base()).find((type) => type.id === idOf(request));
      if (!found) throw scimNotFound(`no ResourceType ${idOf(request)}`);
      return send(reply, found);
    },
  );
  app.get('/Schemas', { config: read, schema: scimSchema('GET', '/Schemas', 'SCIM schemas') }, async (_request, reply) => {
    const all = schemas(base());
    return send(reply, listResponse(all, all.length, 1));
  });
  app.get('/Schemas/:id', { config: read, schema: scimSchema('GET', '/Schemas/:id', 'A SCIM schema') }, async (request, reply) => {
    const found = schemas(base()).find((schema) => schema.id === idOf(request));
    if (!found) throw scimNotFound(`no Schema ${idOf(request)}`);
    return send(reply, found);
  });

  // Users
  app.get('/Users', { config: read, schema: scimSchema('GET', '/Users', 'List SCIM users') }, async (request, reply) =>
    send(reply, await users.list(ctxOf(request), query(request))),
  );
  app.post('/Users', { config: write, schema: scimSchema('POST', '/Users', 'Create a SCIM user', 201) }, async (request, reply) => {
    const user = await users.create(ctxOf(request), request.body);
    return send(reply.header('location', users.location(user)), users.toScim(user), 201);
  });
  app.get('/Users/:id', { config: read, schema: scimSchema('GET', '/Users/:id', 'Read a SCIM user') }, async (request, reply) => {
    return send(reply, project(users.toScim(await users.find(ctxOf(request), idOf(request))), query(request)));
  });
  app.put('/Users/:id', { config: write, schema: scimSchema('PUT', '/Users/:id', 'Replace a SCIM user') }, async (request, reply) =>
    send(reply, users.toScim(await users.replace(ctxOf(request), idOf(request), request.body))),
  );
  app.patch('/Users/:id', { config: write, schema: scimSchema('PATCH', '/Users/:id', 'Patch a SCIM user') }, async (request, reply) =>
    send(reply, users.toScim(await users.patch(ctxOf(request), idOf(request), request.body))),
  );
  app.delete(
    '/Users/:id',
    { config: read, schema: scimSchema('DELETE', '/Users/:id', 'Delete a SCIM user', 204) },
    async (request, reply) => {
      await users.delete(ctxOf(request), idOf(request));
      return reply.code(204).send();
    },
  );

  // Groups
  app.get('/Groups', { config: read, schema: scimSchema('GET', '/Groups', 'List SCIM groups') }, async (request, reply) =>
    send(reply, await groups.list(ctxOf(request), query(request))),
  );
  app.post('/Groups', { config: write, schema: scimSchema('POST', '/Groups', 'Create a SCIM group', 201) }, async (request, reply) => {
    const group = await groups.create(ctxOf(request), request.body);
    return send(reply.header('location', groups.location(group)), await groups.toScim(ctxOf(request), group), 201);
  });
  app.get('/Groups/:id', { config: read, schema: scimSchema('GET', '/Groups/:id', 'Read a SCIM group') }, async (request, reply) => {
    return send(reply, project(await groups.toScim(ctxOf(request), await groups.find(ctxOf(request), idOf(request))), query(request)));
  });
  app.put('/Groups/:id', { config: write, schema: scimSchema('PUT', '/Groups/:id', 'Replace a SCIM group') }, async (request, reply) => {
    const group = await groups.replace(ctxOf(request), idOf(request), request.body);
    return send(reply, await groups.toScim(ctxOf(request), group));
  });
  app.patch('/Groups/:id', { config: write, schema: scimSchema('PATCH', '/Groups/:id', 'Patch a SCIM group') }, async (request, reply) => {
    const group = await groups.patch(ctxOf(request), idOf(request), request.body);
    return send(reply, await groups.toScim(ctxOf(request), group));
  });
  app.delete(
    '/Groups/:id',
    { config: read, schema: scimSchema('DELETE', '/Groups/:id', 'Delete a SCIM group', 204) },
    async (request, reply) => {
      await groups.delete(ctxOf(request), idOf(request));
      return reply.code(204).send();
    },
  );
}
