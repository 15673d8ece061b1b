import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf, type Query } from '../../http/resource-routes.js';
import { parseTenantFilter } from './parse-tenant-filter.js';
import { decodeTenant, encodeTenant, TENANT_VERSIONS, TENANTS_PATH } from './wire.js';
import type { Tenant } from './model.js';

export async function tenantRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const { tenants } = context.services;

  const purgeRequested = (request: FastifyRequest) => (request.query as Query).purge === 'true';

  registerResourceRoutes<Tenant>(app, context, {
    path: TENANTS_PATH,
    versions: TENANT_VERSIONS,
    embedded: 'meshTenants',
    resource: 'TENANT',
    encode: (tenant, request) => encodeTenant(tenant, versionOf(request), context.baseUrl()),
    get: (request, id) => tenants.get(request.principal, id),
    list: async (request, query, page) => {
      const filter = parseTenantFilter(query);
      return filter === 'none' ? { items: [], total: 0 } : tenants.list(request.principal, filter, page);
    },
    create: (request, body) => tenants.create(request.principal, decodeTenant(body)),
    remove: { status: 202, run: (request, id) => tenants.delete(request.principal, id, purgeRequested(request)) },
  });
}
