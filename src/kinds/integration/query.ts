import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { TYPE_FILTER_VALUES, type IntegrationType } from './model.js';

/** The list's filters as the query names them. */
export interface IntegrationFilter {
  displayName?: string;
  ownedByWorkspace?: string;
  type?: IntegrationType;
}

/** The integration list's filters, as its route documents them. */
export const INTEGRATION_FILTERS = {
  displayName: Filter('integrations with this display name'),
  ownedByWorkspace: Filter('integrations owned by this workspace'),
  type: Filter('integrations of this type', { enum: TYPE_FILTER_VALUES }),
};

/** The integration list's filters (OpenAPI): `displayName` (exact), `ownedByWorkspace`, `type` (one of its documented values, 400 otherwise). */
export function parseIntegrationFilter(query: Query): IntegrationFilter {
  const displayName = filterValue(query, 'displayName');
  const owner = filterValue(query, 'ownedByWorkspace');
  const type = filterValue(query, 'type');
  if (type !== undefined && !(TYPE_FILTER_VALUES as readonly string[]).includes(type))
    throw badRequest(`type: must be one of ${TYPE_FILTER_VALUES.join(', ')}, got "${type}"`);
  return {
    ...(displayName !== undefined ? { displayName } : {}),
    ...(owner !== undefined ? { ownedByWorkspace: owner } : {}),
    ...(type !== undefined ? { type: type as IntegrationType } : {}),
  };
}
