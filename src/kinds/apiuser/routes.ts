import { Type } from '@sinclair/typebox';
import { Links } from '../../lib/wire-schemas.js';
import { answersOf, bodiesOf, created, empty, ok, type Call, type Operation } from '../operation.js';
import type { AuthorizedApiUserService } from './authorized-service.js';
import type { ApiUser } from './model.js';
import { API_USER_CODECS } from './wire/index.js';
import { API_USERS_PATH } from './model.js';

/** The admin area's API users: `/api/admin/apiusers`, admins only (ADM_USER_*). */
export function apiUserOperations(users: AuthorizedApiUserService): Operation[] {
  const produces = API_USER_CODECS.media;
  const encode = (call: Call, user: ApiUser) => API_USER_CODECS.of(call.produces?.version).encode(user, call);
  const one = answersOf(API_USER_CODECS.codecs);
  const admin = (action: 'LIST' | 'SAVE' | 'DELETE') => ({ resource: 'USER', action, adminOnly: true }) as const;
  return [
    {
      method: 'POST',
      path: API_USERS_PATH,
      media: { produces, consumes: produces },
      access: admin('SAVE'),
      doc: {
        summary: 'Create an API user',
        body: bodiesOf(API_USER_CODECS.codecs),
        responses: { 201: { description: 'the API user', body: one } },
      },
      handle: async (call) => {
        const { username, password } = API_USER_CODECS.of(call.consumes?.version).decode(call.body);
        return created(encode(call, await users.create(call.ctx, username, password)));
      },
    },
    {
      method: 'GET',
      path: API_USERS_PATH,
      media: { produces },
      access: admin('LIST'),
      doc: {
        summary: 'List API users',
        responses: {
          200: {
            description: 'every API user (not paged)',
            body: API_USER_CODECS.codecs.map((codec) => ({
              media: codec.media,
              schema: Type.Object({ _embedded: Type.Object({ apiUsers: Type.Array(codec.schema) }), _links: Links }),
            })),
          },
        },
      },
      handle: async (call) =>
        ok({
          _embedded: { apiUsers: (await users.list(call.ctx)).map((user) => encode(call, user)) },
          _links: { self: { href: `${call.baseUrl}${API_USERS_PATH}` } },
        }),
    },
    // The target of every user's `_links.self`.
    {
      method: 'GET',
      path: `${API_USERS_PATH}/:username`,
      media: { produces },
      access: admin('LIST'),
      doc: { summary: 'Read an API user', responses: { 200: { description: 'the API user', body: one } } },
      handle: async (call) => ok(encode(call, await users.get(call.ctx, call.params.username!))),
    },
    {
      method: 'DELETE',
      path: `${API_USERS_PATH}/:username`,
      access: admin('DELETE'),
      doc: { summary: 'Delete an API user', responses: { 204: { description: 'deleted' } } },
      handle: async (call) => {
        await users.delete(call.ctx, call.params.username!);
        return empty(204);
      },
    },
  ];
}
