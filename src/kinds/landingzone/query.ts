import { sql } from 'kysely';
import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { canonicalUuid } from '../../lib/validation.js';
import type { ColumnFilter } from '../crud/store.js';

/** The list's filters as the query names them. */
export interface LandingZoneFilter {
  name?: string;
  displayName?: string;
  platformUuid?: string;
  ownedByWorkspace?: string;
  disabled?: boolean;
  restricted?: boolean;
}

function flag(query: Query, name: string): boolean | undefined {
  const value = filterValue(query, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw badRequest(`${name}: must be true or false, got "${value}"`);
  return value === 'true';
}

/** The landing zone list's filters, as its route documents them. */
export const LANDING_ZONE_FILTERS = {
  identifier: Filter('the landing zone with this identifier'),
  displayName: Filter('landing zones with this display name'),
  platformUuid: Filter('landing zones of this platform', { format: 'uuid' }),
  ownedByWorkspace: Filter('landing zones owned by this workspace'),
  disabled: Filter('disabled (true) or enabled (false) landing zones', { enum: ['true', 'false'] }),
  restricted: Filter('restricted (true) or open (false) landing zones', { enum: ['true', 'false'] }),
};

/**
 * The landing zone list's filters (OpenAPI, exact): `identifier`, `displayName`, `platformUuid`,
 * `disabled`, `restricted` (true/false, 400 otherwise), `ownedByWorkspace`. Disabled zones are listed.
 */
export function parseLandingZoneFilter(query: Query): LandingZoneFilter | 'none' {
  const filter: LandingZoneFilter = {};
  const text = (name: string) => filterValue(query, name);
  const name = text('identifier');
  const displayName = text('displayName');
  const platform = text('platformUuid');
  const owner = text('ownedByWorkspace');
  const disabled = flag(query, 'disabled');
  const restricted = flag(query, 'restricted');
  if (name !== undefined) filter.name = name;
  if (displayName !== undefined) filter.displayName = displayName;
  if (platform !== undefined) {
    const uuid = canonicalUuid(platform);
    if (uuid === undefined) return 'none';
    filter.platformUuid = uuid;
  }
  if (owner !== undefined) filter.ownedByWorkspace = owner;
  if (disabled !== undefined) filter.disabled = disabled;
  if (restricted !== undefined) filter.restricted = restricted;
  return filter;
}

/** The list's conditions on the `landing_zones` columns (`parseLandingZoneFilter`), or `none`. */
export function landingZoneConditions(query: Query): ColumnFilter | 'none' {
  const filter = parseLandingZoneFilter(query);
  if (filter === 'none') return 'none';
  const { disabled, restricted } = filter;
  return {
    name: filter.name,
    display_name: filter.displayName,
    platform_uuid: filter.platformUuid,
    owned_by_workspace: filter.ownedByWorkspace,
    disabled_on: disabled === undefined ? undefined : disabled ? sql<boolean>`disabled_on is not null` : null,
    restricted: restricted === undefined ? undefined : restricted ? 1 : 0,
  };
}
