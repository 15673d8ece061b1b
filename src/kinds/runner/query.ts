import { Filter, filterValue, type Query } from '../../lib/query.js';

/** The runner list's filters, as its route documents them. */
export const RUNNER_FILTERS = { workspaceIdentifier: Filter('runners owned by this workspace') };

/** The runner list's filter: `workspaceIdentifier`, the owning workspace. */
export const parseRunnerFilter = (query: Query) => ({ workspace: filterValue(query, 'workspaceIdentifier') });
