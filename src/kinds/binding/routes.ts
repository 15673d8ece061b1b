import type { Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedBindingService } from './authorized-service.js';
import { BINDING_SHAPES, type Binding } from './model.js';
import { BINDING_FILTERS, parseBindingFilter } from './query.js';
import { BINDING_CODECS } from './wire/index.js';

/** One binding kind: list, POST 201, GET and DELETE 204 by binding name (no PUT, as documented). */
export function bindingOperations(bindings: AuthorizedBindingService): Operation[] {
  const { kind } = bindings;
  const codec = BINDING_CODECS[kind];
  const { level, path } = BINDING_SHAPES[kind];
  return resourceOperations<Binding>({
    path,
    embedded: `${kind}s`,
    codecs: [codec],
    filters: BINDING_FILTERS[level],
    resource: level === 'workspace' ? 'WORKSPACEPRINCIPALBINDING' : 'PROJECTPRINCIPALROLE',
    encode: (binding, call) => codec.encode(binding, call),
    get: (call, name) => bindings.get(call.ctx, name),
    list: (call, page) => bindings.list(call.ctx, parseBindingFilter(call.query, level), page),
    create: (call) => bindings.create(call.ctx, codec.decodeAll(call.body)[0]!),
    remove: { status: 204, run: (call, name) => bindings.delete(call.ctx, name) },
  });
}
