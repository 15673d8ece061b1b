import { randomUUID } from 'node:crypto';
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

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
/** SCIM bodies: `application/scim+json` (RFC 7644 §3.1), and `application/json`, which clients send as well. */
const BODY_TYPES = ['application/scim+json', 'application/json'] as const;

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
 * SCIM 2.0 provisioning (issue 19, item 7; RFC 7643/7644) under `/scim/v2`: Users and Groups over the
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
  app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/*', config: read, handler: async (request) => {
    throw scimNotFound(`no SCIM resource at ${request.method} ${request.url.split('?')[0]}`);
  } });
  const send = (reply: FastifyReply, body: unknown, status = 200) => reply.code(status).type(SCIM_CONTENT_TYPE).send(body);

  app.get('/ServiceProviderConfig', { config: read }, async (_request, reply) => send(reply, serviceProviderConfig(base())));
  app.get('/ResourceTypes', { config: read }, async (_request, reply) => {
    const all = resourceTypes(base());
    return send(reply, listResponse(all, all.length, 1));
  });
  app.get('/ResourceTypes/:id', { config: read }, async (request, reply) => {
    const found = resourceTypes(base()).find((type) => type.id === idOf(request));
    if (!found) throw scimNotFound(`no ResourceType ${idOf(request)}`);
    return send(reply, found);
  });
  app.get('/Schemas', { config: read }, async (_request, reply) => {
    const all = schemas(base());
    return send(reply, listResponse(all, all.length, 1));
  });
  app.get('/Schemas/:id', { config: read }, async (request, reply) => {
    const found = schemas(base()).find((schema) => schema.id === idOf(request));
    if (!found) throw scimNotFound(`no Schema ${idOf(request)}`);
    return send(reply, found);
  });

  // Users
  app.get('/Users', { config: read }, async (request, reply) => send(reply, await users.list(ctxOf(request), query(request))));
  app.post('/Users', { config: write }, async (request, reply) => {
    const user = await users.create(ctxOf(request), request.body);
    return send(reply.header('location', users.location(user)), users.toScim(user), 201);
  });
  app.get('/Users/:id', { config: read }, async (request, reply) => {
    return send(reply, project(users.toScim(await users.find(ctxOf(request), idOf(request))), query(request)));
  });
  app.put('/Users/:id', { config: write }, async (request, reply) => send(reply, users.toScim(await users.replace(ctxOf(request), idOf(request), request.body))));
  app.patch('/Users/:id', { config: write }, async (request, reply) => send(reply, users.toScim(await users.patch(ctxOf(request), idOf(request), request.body))));
  app.delete('/Users/:id', { config: read }, async (request, reply) => {
    await users.delete(ctxOf(request), idOf(request));
    return reply.code(204).send();
  });

  // Groups
  app.get('/Groups', { config: read }, async (request, reply) => send(reply, await groups.list(ctxOf(request), query(request))));
  app.post('/Groups', { config: write }, async (request, reply) => {
    const group = await groups.create(ctxOf(request), request.body);
    return send(reply.header('location', groups.location(group)), await groups.toScim(ctxOf(request), group), 201);
  });
  app.get('/Groups/:id', { config: read }, async (request, reply) => {
    return send(reply, project(await groups.toScim(ctxOf(request), await groups.find(ctxOf(request), idOf(request))), query(request)));
  });
  app.put('/Groups/:id', { config: write }, async (request, reply) => {
    const group = await groups.replace(ctxOf(request), idOf(request), request.body);
    return send(reply, await groups.toScim(ctxOf(request), group));
  });
  app.patch('/Groups/:id', { config: write }, async (request, reply) => {
    const group = await groups.patch(ctxOf(request), idOf(request), request.body);
    return send(reply, await groups.toScim(ctxOf(request), group));
  });
  app.delete('/Groups/:id', { config: read }, async (request, reply) => {
    await groups.delete(ctxOf(request), idOf(request));
    return reply.code(204).send();
  });
}
