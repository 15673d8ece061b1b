import { badRequest } from '../../lib/errors.js';
import { filterValue, type Query } from '../../lib/query.js';
import { parseFullPlatformIdentifier } from '../platform/model.js';
import { TENANT_DELETION_STATES, type TenantDeletionState } from './model.js';
import type { TenantFilter } from './store.js';

/**
 * Spec §2.3's filters: `workspaceIdentifier`, `projectIdentifier`, `platformIdentifier` (the full
 * `<platform>.<location>`; another shape matches nothing), `deletionState` (ACTIVE by default).
 */
export function parseTenantFilter(query: Query): TenantFilter | 'none' {
  const state = filterValue(query, 'deletionState') ?? 'ACTIVE';
  if (!(TENANT_DELETION_STATES as readonly string[]).includes(state)) throw badRequest(`deletionState: must be one of ${TENANT_DELETION_STATES.join(', ')}, got "${state}"`);
  const filter: TenantFilter = { deletionState: state as TenantDeletionState };
  const workspace = filterValue(query, 'workspaceIdentifier');
  const project = filterValue(query, 'projectIdentifier');
  const platformIdentifier = filterValue(query, 'platformIdentifier');
  if (workspace !== undefined) filter.workspace = workspace;
  if (project !== undefined) filter.project = project;
  if (platformIdentifier !== undefined) {
    const platform = parseFullPlatformIdentifier(platformIdentifier);
    if (!platform) return 'none';
    filter.platform = platform;
  }
  return filter;
}
