import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedServiceInstanceService } from './authorized-service.js';
import type { ServiceInstance } from './model.js';
import { parseServiceInstanceFilter, SERVICE_INSTANCE_FILTERS } from './query.js';
import { SERVICE_INSTANCE_CODECS } from './wire/index.js';
import { SERVICE_INSTANCES_PATH } from './model.js';

/** As published: POST answers 200, PUT and DELETE 202 (the deletion completes later). */
export function serviceInstanceOperations(instances: AuthorizedServiceInstanceService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => SERVICE_INSTANCE_CODECS.of(version).decode(body);
  return resourceOperations<ServiceInstance>({
    path: SERVICE_INSTANCES_PATH,
    codecs: SERVICE_INSTANCE_CODECS.codecs,
    filters: SERVICE_INSTANCE_FILTERS,
    embedded: 'meshServiceInstances',
    resource: 'SERVICEINSTANCE',
    answers: { create: 200, update: 202 },
    encode: (instance, call) => SERVICE_INSTANCE_CODECS.of(versionOf(call)).encode(instance, call),
    get: (call, instanceId) => instances.get(call.ctx, instanceId),
    list: (call, page) => instances.list(call.ctx, parseServiceInstanceFilter(call.query), page),
    create: (call) => instances.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: (call, instanceId) => instances.update(call.ctx, instanceId, decode(call.consumes?.version, call.body)),
    remove: { status: 202, run: (call, instanceId) => instances.delete(call.ctx, instanceId) },
  });
}
