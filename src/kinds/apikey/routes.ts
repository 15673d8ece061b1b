import { answersOf, bodiesOf, created, empty, ok, type Call, type Operation } from '../operation.js';
import { listOperation } from '../resource.js';
import type { AuthorizedApiKeyService } from './authorized-service.js';
import type { ApiKey } from './model.js';
import { API_KEY_FILTERS, parseApiKeyFilter } from './query.js';
import { API_KEY_CODECS } from './wire/index.js';
import { API_KEYS_PATH } from './model.js';

const PATH = API_KEYS_PATH;

export function apiKeyOperations(keys: AuthorizedApiKeyService): Operation[] {
  const produces = API_KEY_CODECS.media;
  const encode = (call: Call, key: ApiKey, secret?: string) =>
    API_KEY_CODECS.of(call.produces?.version).encode(key, { baseUrl: call.baseUrl, ...(secret ? { secret } : {}) });
  const decode = (call: Call) => API_KEY_CODECS.of(call.consumes?.version).decode(call.body);
  const save = { resource: 'APIKEY', action: 'SAVE' } as const;
  const list = { resource: 'APIKEY', action: 'LIST' } as const;
  const one = answersOf(API_KEY_CODECS.codecs);
  const bodies = bodiesOf(API_KEY_CODECS.codecs);
  return [
    {
      method: 'POST',
      path: PATH,
      media: { produces, consumes: produces },
      access: save,
      doc: {
        summary: 'Create an API key',
        responses: { 201: { description: 'the key, with its secret (shown only here)', body: one } },
        body: bodies,
      },
      handle: async (call) => {
        const { key, secret } = await keys.create(call.ctx, decode(call));
        return created(encode(call, key, secret));
      },
    },
    listOperation({
      path: PATH,
      codecs: API_KEY_CODECS.codecs,
      embedded: 'meshApiKeys',
      access: list,
      filters: API_KEY_FILTERS,
      summary: 'List API keys',
      description: 'a page of API keys',
      list: (call, page) => keys.list(call.ctx, parseApiKeyFilter(call.query), page),
      encode: (key, call) => encode(call, key),
    }),
    {
      method: 'GET',
      path: `${PATH}/:uuid`,
      media: { produces },
      access: list,
      doc: { summary: 'Read an API key', responses: { 200: { description: 'the key (never its secret)', body: one } } },
      handle: async (call) => ok(encode(call, await keys.get(call.ctx, call.params.uuid!))),
    },
    {
      method: 'PUT',
      path: `${PATH}/:uuid`,
      media: { produces, consumes: produces },
      access: save,
      doc: { summary: 'Update an API key', body: bodies, responses: { 200: { description: 'the updated key', body: one } } },
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
      doc: {
        summary: 'Rotate an API key’s secret',
        description: 'The old secret stops working at once.',
        responses: { 200: { description: 'the key with its new secret (shown only here)', body: one } },
      },
      handle: async (call) => {
        const { key, secret } = await keys.rotateSecret(call.ctx, call.params.uuid!);
        return ok(encode(call, key, secret));
      },
    },
    {
      method: 'DELETE',
      path: `${PATH}/:uuid`,
      access: { resource: 'APIKEY', action: 'DELETE' },
      doc: { summary: 'Delete an API key', responses: { 204: { description: 'deleted' } } },
      handle: async (call) => {
        await keys.delete(call.ctx, call.params.uuid!);
        return empty(204);
      },
    },
  ];
}
