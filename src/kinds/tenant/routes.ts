import type { Tenant } from './model.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../../errors.js';
import type { AppContext } from '../../http/app.js';
import { filterValue, registerResourceRoutes, versionOf, type Query } from '../../http/resource-routes.js';
import { parseFullPlatformIdentifier } from '../platform/model.js';
import { TENANT_DELETION_STATES, type TenantDeletionState } from './model.js';
import type { TenantFilter } from './store.js';
import { decodeTenant, encodeTenant, TENANT_VERSIONS, TENANTS_PATH } from './wire.js';

export async function tenantRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const { tenants, platformService } = context.services;

  /** Spec §2.3's filters; `platformIdentifier` is the full `<platform>.<location>`. */
  async function parseTenantFilter(query: Query): Promise<TenantFilter | 'none'> {
    const state = filterValue(query, 'deletionState') ?? 'ACTIVE';
    if (!(TENANT_DELETION_STATES as readonly string[]).includes(state)) throw badRequest(`deletionState: must be one of ${TENANT_DELETION_STATES.join(', ')}, got "${state}"`);
    const filter: TenantFilter = { deletionState: state as TenantDeletionState };
    const workspace = filterValue(query, 'workspaceIdentifier');
    const project = filterValue(query, 'projectIdentifier');
    const platformIdentifier = filterValue(query, 'platformIdentifier');
    if (workspace !== undefined) filter.workspace = workspace;
    if (project !== undefined) filter.project = project;
    if (platformIdentifier !== undefined) {
      const parts = parseFullPlatformIdentifier(platformIdentifier);
      const platform = parts && (await platformService.findByIdentifier(parts.name, parts.location));
      if (!platform) return 'none';
      filter.platformUuid = platform.uuid;
    }
    return filter;
  }

  const purgeRequested = (request: FastifyRequest) => (request.query as Query).purge === 'true';

  registerResourceRoutes<Tenant>(app, context, {
    path: TENANTS_PATH,
    versions: TENANT_VERSIONS,
    embedded: 'meshTenants',
    resource: 'TENANT',
    encode: (tenant, request) => encodeTenant(tenant, versionOf(request), context.baseUrl()),
    get: (request, id) => tenants.get(request.principal, id),
    list: async (request, query, page) => {
      const filter = await parseTenantFilter(query);
      return filter === 'none' ? { items: [], total: 0 } : tenants.list(request.principal, filter, page);
    },
    create: (request, body) => tenants.create(request.principal, decodeTenant(body)),
    remove: { status: 202, run: (request, id) => tenants.delete(request.principal, id, purgeRequested(request)) },
  });
}
