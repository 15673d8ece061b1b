import { badRequest } from '../../errors.js';
import { filterValue, type Query } from '../../http/resource-routes.js';
import { parseFullPlatformIdentifier } from '../platform/model.js';
import { TENANT_DELETION_STATES, type TenantDeletionState } from './model.js';

/** The tenant list's filters as asked; the service resolves the platform identifier. */
export interface TenantQuery {
  deletionState: TenantDeletionState;
  workspace?: string;
  project?: string;
  platform?: { name: string; location: string };
}

/**
 * Spec §2.3's filters: `workspaceIdentifier`, `projectIdentifier`, `platformIdentifier` (the full
 * `<platform>.<location>`; another shape matches nothing), `deletionState` (ACTIVE by default).
 */
export function parseTenantFilter(query: Query): TenantQuery | 'none' {
  const state = filterValue(query, 'deletionState') ?? 'ACTIVE';
  if (!(TENANT_DELETION_STATES as readonly string[]).includes(state)) throw badRequest(`deletionState: must be one of ${TENANT_DELETION_STATES.join(', ')}, got "${state}"`);
  const filter: TenantQuery = { deletionState: state as TenantDeletionState };
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
