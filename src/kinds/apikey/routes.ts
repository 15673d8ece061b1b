import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { halPage, pageInfo, pageLinks, parsePagingParams } from '../../http/paging.js';
import { API_KEY_V1_PREVIEW, decodeApiKey, encodeApiKey } from './wire/v1-preview.js';

const produces = [API_KEY_V1_PREVIEW];
const PATH = '/api/meshobjects/meshapikeys';

export async function apiKeyRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const keys = context.services.apiKeys;
  const base = context.baseUrl;

  app.post(PATH, { config: { media: { produces, consumes: produces }, access: { resource: 'APIKEY', action: 'SAVE' } } }, async (request, reply) => {
    const { key, secret } = await keys.create(request.principal, decodeApiKey(request.body));
    const body = encodeApiKey(key, base(), secret);
    return reply.code(201).header('location', body._links.self.href).send(body);
  });

  app.get(PATH, { config: { media: { produces }, access: { resource: 'APIKEY', action: 'LIST' } } }, async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const page = parsePagingParams(query);
    const workspace = query.workspaceIdentifier || undefined;
    const { items, total } = await keys.list(request.principal, workspace ? { workspace } : {}, page);
    const info = pageInfo(page, total);
    return halPage('meshApiKeys', items.map((key) => encodeApiKey(key, base())), info, pageLinks(base(), request.url, info));
  });

  app.get(`${PATH}/:uuid`, { config: { media: { produces }, access: { resource: 'APIKEY', action: 'LIST' } } }, async (request) => {
    const { uuid } = request.params as { uuid: string };
    return encodeApiKey(await keys.get(request.principal, uuid), base());
  });

  app.put(`${PATH}/:uuid`, { config: { media: { produces, consumes: produces }, access: { resource: 'APIKEY', action: 'SAVE' } } }, async (request) => {
    const { uuid } = request.params as { uuid: string };
    const { key, secret } = await keys.update(request.principal, uuid, decodeApiKey(request.body));
    return encodeApiKey(key, base(), secret);
  });

  // Explicit rotation: a new secret, returned once; the old one stops working at once.
  app.post(`${PATH}/:uuid/rotate-secret`, { config: { media: { produces }, access: { resource: 'APIKEY', action: 'SAVE' } } }, async (request) => {
    const { uuid } = request.params as { uuid: string };
    const { key, secret } = await keys.rotateSecret(request.principal, uuid);
    return encodeApiKey(key, base(), secret);
  });

  app.delete(`${PATH}/:uuid`, { config: { access: { resource: 'APIKEY', action: 'DELETE' } } }, async (request, reply) => {
    const { uuid } = request.params as { uuid: string };
    await keys.delete(request.principal, uuid);
    return reply.code(204).send();
  });
}
