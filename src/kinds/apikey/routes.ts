import { filterValue } from '../../lib/query.js';
import { halPage, pageInfo, pageLinks, parsePagingParams } from '../../lib/paging.js';
import { created, empty, ok, type Call, type Operation } from '../operation.js';
import { PATHS } from '../paths.js';
import type { AuthorizedApiKeyService } from './authorized-service.js';
import type { ApiKey } from './model.js';
import { API_KEY_CODECS } from './wire/index.js';

const PATH = PATHS.apiKeys;

export function apiKeyOperations(keys: AuthorizedApiKeyService): Operation[] {
  const produces = API_KEY_CODECS.media;
  const encode = (call: Call, key: ApiKey, secret?: string) => API_KEY_CODECS.of(call.produces?.version).encode(key, { baseUrl: call.baseUrl, ...(secret ? { secret } : {}) });
  const decode = (call: Call) => API_KEY_CODECS.of(call.consumes?.version).decode(call.body);
  const save = { resource: 'APIKEY', action: 'SAVE' } as const;
  const list = { resource: 'APIKEY', action: 'LIST' } as const;
  return [
    {
      method: 'POST',
      path: PATH,
      media: { produces, consumes: produces },
      access: save,
      handle: async (call) => {
        const { key, secret } = await keys.create(call.ctx, decode(call));
        return created(encode(call, key, secret));
      },
    },
    {
      method: 'GET',
      path: PATH,
      media: { produces },
      access: list,
      handle: async (call) => {
        const page = parsePagingParams(call.query);
        const workspace = filterValue(call.query, 'workspaceIdentifier');
        const { items, total } = await keys.list(call.ctx, workspace ? { workspace } : {}, page);
        const info = pageInfo(page, total);
        return ok(halPage('meshApiKeys', items.map((key) => encode(call, key)), info, pageLinks(call.baseUrl, call.url, info)));
      },
    },
    { method: 'GET', path: `${PATH}/:uuid`, media: { produces }, access: list, handle: async (call) => ok(encode(call, await keys.get(call.ctx, call.params.uuid!))) },
    {
      method: 'PUT',
      path: `${PATH}/:uuid`,
      media: { produces, consumes: produces },
      access: save,
      handle: async (call) => {
        const { key, secret } = await keys.update(call.ctx, call.params.uuid!, decode(call));
        return ok(encode(call, key, secret));
      },
    },
    {
      // Explicit rotation: a new secret, returned once; the old one stops working at once.
      method: 'POST',
      path: `${PATH}/:uuid/rotate-secret`,
      media: { produces },
      access: save,
      handle: async (call) => {
        const { key, secret } = await keys.rotateSecret(call.ctx, call.params.uuid!);
        return ok(encode(call, key, secret));
      },
    },
    {
      method: 'DELETE',
      path: `${PATH}/:uuid`,
      access: { resource: 'APIKEY', action: 'DELETE' },
      handle: async (call) => {
        await keys.delete(call.ctx, call.params.uuid!);
        return empty(204);
      },
    },
  ];
}
