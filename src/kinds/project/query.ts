import { badRequest } from '../../lib/errors.js';
import { filterValue, type Query } from '../../lib/query.js';
import type { ProjectFilter } from './store.js';

export const PROJECT_STATES = ['ACTIVE', 'DELETED'] as const;

/**
 * The project list's filters (spec §2.3): `workspaceIdentifier`, `paymentIdentifier`, `state`.
 * Deleted projects are forgotten, so `state=DELETED` matches nothing (`'none'`).
 */
export function parseProjectFilter(query: Query): ProjectFilter | 'none' {
  const state = filterValue(query, 'state');
  if (state !== undefined && !(PROJECT_STATES as readonly string[]).includes(state)) throw badRequest(`state: must be one of ${PROJECT_STATES.join(', ')}, got "${state}"`);
  if (state === 'DELETED') return 'none';
  const workspace = filterValue(query, 'workspaceIdentifier');
  const paymentMethod = filterValue(query, 'paymentIdentifier');
  return { ...(workspace !== undefined ? { workspace } : {}), ...(paymentMethod !== undefined ? { paymentMethod } : {}) };
}
