import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, filterValues, RepeatableFilter, type Query } from '../../lib/query.js';
import { parseFullPlatformIdentifier, PLATFORM_RESTRICTIONS, PUBLICATION_STATES } from './model.js';
import type { PlatformFilter } from './store.js';

function oneOf(query: Query, name: string, allowed: readonly string[]): string | undefined {
  const value = filterValue(query, name);
  if (value !== undefined && !allowed.includes(value)) throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
  return value;
}

/** The platform list's filters, as its route documents them. */
export const PLATFORM_FILTERS = {
  identifier: Filter('the platform <platform>.<location>'),
  locationIdentifier: Filter('platforms in this location'),
  ownedByWorkspace: Filter('platforms owned by this workspace'),
  platformTypeIdentifier: Filter('platforms of this type (case-insensitive)'),
  publicationState: Filter('platforms in this publication state', { enum: PUBLICATION_STATES }),
  restriction: Filter('platforms with this restriction', { enum: PLATFORM_RESTRICTIONS }),
  displayName: Filter('platforms with this display name'),
  contributingWorkspace: RepeatableFilter('platforms any of these workspaces contribute to'),
};

/**
 * The platform list's filters (the OpenAPI's, exact match, combined with AND): `identifier` (the full
 * `<platform>.<location>`; another shape matches nothing), `locationIdentifier`, `ownedByWorkspace`,
 * `publicationState`, `restriction` (400 for a value outside their lists), `displayName`,
 * `contributingWorkspace` (repeatable: any of them), and `platformTypeIdentifier` (case-insensitive).
 */
export function parsePlatformFilter(query: Query): PlatformFilter | 'none' {
  const filter: PlatformFilter = {};
  const identifier = filterValue(query, 'identifier');
  if (identifier !== undefined) {
    const parts = parseFullPlatformIdentifier(identifier);
    if (!parts) return 'none';
    Object.assign(filter, parts);
  }
  const location = filterValue(query, 'locationIdentifier');
  if (location !== undefined) {
    if (filter.location !== undefined && filter.location !== location) return 'none';
    filter.location = location;
  }
  const owner = filterValue(query, 'ownedByWorkspace');
  if (owner !== undefined) filter.ownedByWorkspace = owner;
  const type = filterValue(query, 'platformTypeIdentifier');
  if (type !== undefined) filter.platformType = type.toUpperCase();
  const publicationState = oneOf(query, 'publicationState', PUBLICATION_STATES);
  if (publicationState !== undefined) filter.publicationState = publicationState;
  const restriction = oneOf(query, 'restriction', PLATFORM_RESTRICTIONS);
  if (restriction !== undefined) filter.restriction = restriction;
  const displayName = filterValue(query, 'displayName');
  if (displayName !== undefined) filter.displayName = displayName;
  const contributors = filterValues(query, 'contributingWorkspace');
  if (contributors !== undefined) filter.contributingWorkspaces = contributors;
  return filter;
}
