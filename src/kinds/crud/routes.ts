import { emptyPage } from '../../lib/paging.js';
import type { Query } from '../../lib/query.js';
import type { Codec, CodecRegistry, RelationsView } from '../codec.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations, type ResourceDefinition } from '../resource.js';
import type { AuthorizedCrudService } from './authorized-service.js';
import type { ColumnFilter, Created } from './store.js';

/** A version of a CRUD-shaped kind: it encodes the object and decodes the body of a create or update. */
export interface CrudCodec<T, Input> extends Codec<T, RelationsView> {
  decode(body: unknown): Input;
}

/** What a CRUD-shaped kind's routes say beside its service and codecs. */
export type CrudResource<T> = Omit<ResourceDefinition<T>, 'codecs' | 'encode' | 'get' | 'list' | 'create' | 'update' | 'remove'> & {
  /** The list's conditions from its query parameters (`filters` documents them), or `none` when nothing can match. */
  filter?(query: Query): ColumnFilter | 'none';
  /** PUT replaces an object the caller sees (404 otherwise), or creates it too (an upsert by identifier). */
  put: 'update' | 'upsert';
};

/** The routes of a CRUD-shaped kind (`resourceOperations`): each calls its authorized service; DELETE answers 204. */
export function crudOperations<T extends Created, Input>(
  service: AuthorizedCrudService<T, Input>,
  codecs: CodecRegistry<CrudCodec<T, Input>>,
  resource: CrudResource<T>,
): Operation[] {
  const { filter, put, ...rest } = resource;
  const decode = (version: string | undefined, body: unknown) => codecs.of(version).decode(body);
  return resourceOperations<T>({
    ...rest,
    codecs: codecs.codecs,
    encode: (object, call) => codecs.of(versionOf(call)).encode(object, call),
    get: (call, id) => service.get(call.ctx, id),
    list: async (call, page) => {
      const conditions = filter ? filter(call.query) : {};
      return conditions === 'none' ? emptyPage() : service.list(call.ctx, conditions, page);
    },
    create: (call) => service.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: async (call, id) => {
      const input = decode(call.consumes?.version, call.body);
      return put === 'upsert' ? (await service.put(call.ctx, id, input)).object : service.update(call.ctx, id, input);
    },
    remove: { status: 204, run: (call, id) => service.delete(call.ctx, id) },
  });
}
