import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import type { ServiceInstanceFilter } from './store.js';

/** The service instance list's filters, as its route documents them. */
export const SERVICE_INSTANCE_FILTERS = {
  workspaceIdentifier: Filter('instances of projects of this workspace'),
  projectIdentifier: Filter('instances of this project (requires workspaceIdentifier)'),
  marketplaceIdentifier: Filter('instances of this marketplace'),
  serviceIdentifier: Filter('instances of this service'),
  planIdentifier: Filter('instances of this plan (requires serviceIdentifier)'),
};

/**
 * The service instance list's filters (OpenAPI, exact, AND): `workspaceIdentifier`,
 * `projectIdentifier` (requires `workspaceIdentifier`, else 400), `marketplaceIdentifier`,
 * `serviceIdentifier`, `planIdentifier` (requires `serviceIdentifier`, else 400).
 */
export function parseServiceInstanceFilter(query: Query): ServiceInstanceFilter {
  const workspace = filterValue(query, 'workspaceIdentifier');
  const project = filterValue(query, 'projectIdentifier');
  const marketplace = filterValue(query, 'marketplaceIdentifier');
  const serviceId = filterValue(query, 'serviceIdentifier');
  const planId = filterValue(query, 'planIdentifier');
  if (project !== undefined && workspace === undefined) throw badRequest('projectIdentifier: requires workspaceIdentifier');
  if (planId !== undefined && serviceId === undefined) throw badRequest('planIdentifier: requires serviceIdentifier');
  return {
    ...(workspace !== undefined ? { workspace } : {}),
    ...(project !== undefined ? { project } : {}),
    ...(marketplace !== undefined ? { marketplace } : {}),
    ...(serviceId !== undefined ? { serviceId } : {}),
    ...(planId !== undefined ? { planId } : {}),
  };
}
