import { Filter, filterValue, type Query } from '../../lib/query.js';

/** The API key list's filters, as its route documents them. */
export const API_KEY_FILTERS = { workspaceIdentifier: Filter('only the keys of this workspace') };

/** The API key list's filter: `workspaceIdentifier`, the keys' workspace. */
export function parseApiKeyFilter(query: Query): { workspace?: string } {
  const workspace = filterValue(query, 'workspaceIdentifier');
  return workspace !== undefined ? { workspace } : {};
}
