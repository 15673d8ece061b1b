import { emptyPage } from '../../lib/paging.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedUserService } from './authorized-service.js';
import type { User } from './model.js';
import { USER_FILTERS, parseUserFilter } from './query.js';
import { USER_CODECS } from './wire/index.js';
import { USERS_PATH } from './model.js';

/** meshUser v2: list, POST 201, GET, PUT (upsert) 200, DELETE 204; `ADM_USER_*`. */
export function userOperations(users: AuthorizedUserService): Operation[] {
  return resourceOperations<User>({
    path: USERS_PATH,
    codecs: USER_CODECS.codecs,
    embedded: 'meshUsers',
    filters: USER_FILTERS,
    resource: 'USER',
    adminOnly: 'all',
    encode: (user, call) => USER_CODECS.of(versionOf(call)).encode(user, call),
    get: (call, username) => users.get(call.ctx, username),
    list: async (call, page) => {
      const filter = parseUserFilter(call.query);
      return filter === 'none' ? emptyPage() : users.list(call.ctx, filter, page);
    },
    create: (call) => users.create(call.ctx, USER_CODECS.of(call.consumes?.version).decode(call.body)),
    update: async (call, username) => (await users.save(call.ctx, username, USER_CODECS.of(call.consumes?.version).decode(call.body))).user,
    remove: { status: 204, run: (call, username) => users.delete(call.ctx, username) },
  });
}
