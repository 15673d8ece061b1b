import { filterValue, type Query } from '../../lib/query.js';
import { parseFullPlatformIdentifier } from './model.js';
import type { PlatformFilter } from './store.js';

/**
 * The platform list's filters: `identifier` (the full `<platform>.<location>`; another shape matches
 * nothing), `locationIdentifier`, `ownedByWorkspace`, `platformTypeIdentifier` (case-insensitive).
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
  return filter;
}
