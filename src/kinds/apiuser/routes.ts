import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { compileDecoder } from '../../http/validation.js';
import { USERNAME_MAX_LENGTH, USERNAME_PATTERN } from './service.js';

/** The admin area's API users: `/api/admin/apiusers`, kind `apiuser` v1, admins only (ADM_USER_*). */
const produces = [{ kind: 'apiuser', version: 'v1' }];
const PATH = '/api/admin/apiusers';

const decodeUser = compileDecoder(
  Type.Object({
    username: Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH, pattern: USERNAME_PATTERN }),
    password: Type.String({ minLength: 12, maxLength: 1024 }),
  }),
);

export async function apiUserRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const users = context.services.apiUsers;
  const base = context.baseUrl;
  const encode = (user: { username: string; createdOn: string }) => ({
    kind: 'apiUser',
    apiVersion: 'v1',
    username: user.username,
    createdOn: user.createdOn,
    _links: { self: { href: `${base()}${PATH}/${encodeURIComponent(user.username)}` } },
  });

  app.post(PATH, { config: { media: { produces, consumes: produces }, access: { resource: 'USER', action: 'SAVE', adminOnly: true } } }, async (request, reply) => {
    const { username, password } = decodeUser(request.body);
    const body = encode(await users.create(username, password));
    return reply.code(201).header('location', body._links.self.href).send(body);
  });

  app.get(PATH, { config: { media: { produces }, access: { resource: 'USER', action: 'LIST', adminOnly: true } } }, async () => {
    const list = await users.list();
    return { _embedded: { apiUsers: list.map(encode) }, _links: { self: { href: `${base()}${PATH}` } } };
  });

  // The target of every user's `_links.self`.
  app.get(`${PATH}/:username`, { config: { media: { produces }, access: { resource: 'USER', action: 'LIST', adminOnly: true } } }, async (request) => {
    return encode(await users.get((request.params as { username: string }).username));
  });

  app.delete(`${PATH}/:username`, { config: { access: { resource: 'USER', action: 'DELETE', adminOnly: true } } }, async (request, reply) => {
    await users.delete((request.params as { username: string }).username);
    return reply.code(204).send();
  });
}
