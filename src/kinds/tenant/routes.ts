import { emptyPage } from '../../lib/paging.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedTenantService } from './authorized-service.js';
import type { Tenant } from './model.js';
import { TENANT_FILTERS, parseTenantFilter } from './query.js';
import { TENANT_CODECS } from './wire/index.js';
import { TENANTS_PATH } from './model.js';

export function tenantOperations(tenants: AuthorizedTenantService): Operation[] {
  return resourceOperations<Tenant>({
    path: TENANTS_PATH,
    codecs: TENANT_CODECS.codecs,
    embedded: 'meshTenants',
    filters: TENANT_FILTERS,
    resource: 'TENANT',
    encode: (tenant, call) => TENANT_CODECS.of(versionOf(call), call.vendor).encode(tenant, call),
    get: (call, id) => tenants.get(call.ctx, id),
    list: async (call, page) => {
      const filter = parseTenantFilter(call.query);
      return filter === 'none' ? emptyPage() : tenants.list(call.ctx, filter, page);
    },
    create: (call) => tenants.create(call.ctx, TENANT_CODECS.of(call.consumes?.version).decode(call.body)),
    remove: { status: 202, run: (call, id) => tenants.delete(call.ctx, id, call.query.purge === 'true') },
  });
}
