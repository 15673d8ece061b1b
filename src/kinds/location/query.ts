import { Filter, filterValue, type Query } from '../../lib/query.js';

/** The location list's filters, as its route documents them. */
export const LOCATION_FILTERS = { displayName: Filter('locations with this display name') };

/** The location list's filter: `displayName`, exact. */
export const parseLocationFilter = (query: Query) => ({ displayName: filterValue(query, 'displayName') });
