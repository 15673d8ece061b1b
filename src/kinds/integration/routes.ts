import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedIntegrationService } from './authorized-service.js';
import type { Integration } from './model.js';
import { INTEGRATION_FILTERS, parseIntegrationFilter } from './query.js';
import { INTEGRATION_CODECS } from './wire/index.js';
import { INTEGRATIONS_PATH } from './model.js';

export function integrationOperations(integrations: AuthorizedIntegrationService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => INTEGRATION_CODECS.of(version).decode(body);
  return resourceOperations<Integration>({
    path: INTEGRATIONS_PATH,
    codecs: INTEGRATION_CODECS.codecs,
    embedded: 'meshIntegrations',
    filters: INTEGRATION_FILTERS,
    resource: 'INTEGRATION',
    encode: (integration, call) => INTEGRATION_CODECS.of(versionOf(call)).encode(integration, call),
    get: (call, uuid) => integrations.get(call.ctx, uuid),
    list: (call, page) => integrations.list(call.ctx, parseIntegrationFilter(call.query), page),
    create: (call) => integrations.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: (call, uuid) => integrations.update(call.ctx, uuid, decode(call.consumes?.version, call.body)),
    remove: { status: 204, run: (call, uuid) => integrations.delete(call.ctx, uuid) },
  });
}
