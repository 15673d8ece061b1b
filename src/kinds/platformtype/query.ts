import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { LIFECYCLE_STATES, PLATFORM_CATEGORIES, type LifecycleState, type PlatformCategory } from './model.js';

/** The list's filters as the query names them. */
export interface PlatformTypeFilter {
  category?: PlatformCategory;
  lifecycleState?: LifecycleState;
}

/** The platform type list's filters, as its route documents them. */
export const PLATFORM_TYPE_FILTERS = {
  category: Filter('platform types of this category', { enum: PLATFORM_CATEGORIES }),
  lifecycleStatus: Filter('platform types in this lifecycle state', { enum: LIFECYCLE_STATES }),
};

/** The platform type list's filters (OpenAPI): `category` and `lifecycleStatus`, each one of its documented values (400 otherwise). */
export function parsePlatformTypeFilter(query: Query): PlatformTypeFilter {
  const category = filterValue(query, 'category');
  const state = filterValue(query, 'lifecycleStatus');
  if (category !== undefined && !(PLATFORM_CATEGORIES as readonly string[]).includes(category))
    throw badRequest(`category: must be one of ${PLATFORM_CATEGORIES.join(', ')}, got "${category}"`);
  if (state !== undefined && !(LIFECYCLE_STATES as readonly string[]).includes(state))
    throw badRequest(`lifecycleStatus: must be one of ${LIFECYCLE_STATES.join(', ')}, got "${state}"`);
  return {
    ...(category !== undefined ? { category: category as PlatformCategory } : {}),
    ...(state !== undefined ? { lifecycleState: state as LifecycleState } : {}),
  };
}
