import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import type { ProjectFilter } from './store.js';

/** The project states the OpenAPI names for the `state` filter. */
export const PROJECT_STATES = ['ACTIVE', 'PENDING_DELETION', 'DELETED'] as const;

/** The project list's filters, as its route documents them. */
export const PROJECT_FILTERS = {
  workspaceIdentifier: Filter('projects of this workspace'),
  paymentIdentifier: Filter('projects paid with this payment method'),
  state: Filter(`projects in any of these states, comma-separated: ${PROJECT_STATES.join(', ')} (ACTIVE by default)`),
};

/**
 * The project list's filters (spec §2.3, OpenAPI): `workspaceIdentifier`, `paymentIdentifier`,
 * `state` (comma-separated: any of them; ACTIVE by default). Deleted projects are forgotten at once,
 * so every listed project is ACTIVE: a `state` without ACTIVE matches nothing (`'none'`).
 */
export function parseProjectFilter(query: Query): ProjectFilter | 'none' {
  const state = filterValue(query, 'state');
  if (state !== undefined) {
    const states = state.split(',').map((value) => value.trim());
    for (const value of states) {
      if (!(PROJECT_STATES as readonly string[]).includes(value))
        throw badRequest(`state: must be one of ${PROJECT_STATES.join(', ')} (several separated by commas), got "${value}"`);
    }
    if (!states.includes('ACTIVE')) return 'none';
  }
  const workspace = filterValue(query, 'workspaceIdentifier');
  const paymentMethod = filterValue(query, 'paymentIdentifier');
  return { ...(workspace !== undefined ? { workspace } : {}), ...(paymentMethod !== undefined ? { paymentMethod } : {}) };
}
