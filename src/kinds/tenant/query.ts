import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, filterValues, RepeatableFilter, type Query } from '../../lib/query.js';
import { parseFullPlatformIdentifier } from '../platform/model.js';
import { TENANT_DELETION_STATES, TENANT_STATES, type TenantState } from './model.js';
import type { TenantFilter } from './store.js';

function requireKnown(name: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
}

/**
 * The states a list asks for: `state` (repeatable: any of them) and the older single-valued
 * `deletionState` (ALL: every state); both given, a tenant must be in both; neither, ACTIVE.
 */
function statesOf(query: Query): Set<TenantState> {
  const states = filterValues(query, 'state');
  for (const state of states ?? []) requireKnown('state', state, TENANT_STATES);
  const deletionState = filterValue(query, 'deletionState');
  if (deletionState !== undefined) requireKnown('deletionState', deletionState, TENANT_DELETION_STATES);
  const fromDeletionState =
    deletionState === undefined ? undefined : deletionState === 'ALL' ? [...TENANT_STATES] : [deletionState as TenantState];
  if (states === undefined && fromDeletionState === undefined) return new Set(['ACTIVE']);
  if (states === undefined) return new Set(fromDeletionState);
  return new Set((states as TenantState[]).filter((state) => fromDeletionState === undefined || fromDeletionState.includes(state)));
}

/** The tenant list's filters, as its route documents them. */
export const TENANT_FILTERS = {
  workspaceIdentifier: Filter('tenants of this workspace'),
  projectIdentifier: Filter('tenants of this project'),
  platformIdentifier: Filter('tenants on this platform (<platform>.<location>)'),
  platformTypeIdentifier: Filter('tenants on platforms of this type (case-insensitive)'),
  landingZoneIdentifier: Filter('tenants in this landing zone'),
  platformTenantId: Filter('the tenant with this id on its platform'),
  state: RepeatableFilter('tenants in any of these states (ACTIVE by default)', { enum: TENANT_STATES }),
  deletionState: Filter('older form of state (ALL: every state)', { enum: TENANT_DELETION_STATES }),
};

/**
 * The tenant list's filters (the OpenAPI's, exact match, combined with AND): `workspaceIdentifier`,
 * `projectIdentifier`, `platformIdentifier` (the full `<platform>.<location>`; another shape matches
 * nothing), `platformTypeIdentifier` (case-insensitive), `landingZoneIdentifier`,
 * `platformTenantId`, and the states (`state`, `deletionState`; ACTIVE by default). `'none'`: no
 * tenant can match (MARKED_FOR_DELETION alone: no tenant is ever in that state here).
 */
export function parseTenantFilter(query: Query): TenantFilter | 'none' {
  const states = [...statesOf(query)].filter((state): state is TenantFilter['states'][number] => state !== 'MARKED_FOR_DELETION').sort();
  if (states.length === 0) return 'none';
  const filter: TenantFilter = { states };
  const workspace = filterValue(query, 'workspaceIdentifier');
  const project = filterValue(query, 'projectIdentifier');
  const platformIdentifier = filterValue(query, 'platformIdentifier');
  const platformType = filterValue(query, 'platformTypeIdentifier');
  const landingZone = filterValue(query, 'landingZoneIdentifier');
  const platformTenantId = filterValue(query, 'platformTenantId');
  if (workspace !== undefined) filter.workspace = workspace;
  if (project !== undefined) filter.project = project;
  if (platformIdentifier !== undefined) {
    const platform = parseFullPlatformIdentifier(platformIdentifier);
    if (!platform) return 'none';
    filter.platform = platform;
  }
  if (platformType !== undefined) filter.platformType = platformType.toUpperCase();
  if (landingZone !== undefined) filter.landingZone = landingZone;
  if (platformTenantId !== undefined) filter.platformTenantId = platformTenantId;
  return filter;
}
