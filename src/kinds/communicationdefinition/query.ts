import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { COMMUNICATION_TYPES, type CommunicationType } from './model.js';
import type { CommunicationDefinitionFilter } from './store.js';

/** A communication type a filter names: one of the documented values, else 400 naming the parameter. */
export function communicationTypeParameter(query: Query, name: string): CommunicationType | undefined {
  const value = filterValue(query, name);
  if (value === undefined) return undefined;
  if (!(COMMUNICATION_TYPES as readonly string[]).includes(value))
    throw badRequest(`${name}: must be one of ${COMMUNICATION_TYPES.join(', ')}, got "${value}"`);
  return value as CommunicationType;
}

/** The definition list's filter, as its route documents it. */
export const COMMUNICATION_DEFINITION_FILTERS = { type: Filter('definitions of this type', { enum: COMMUNICATION_TYPES }) };

/** The definition list's filter (OpenAPI): `type`, exact. */
export function parseCommunicationDefinitionFilter(query: Query): CommunicationDefinitionFilter {
  const type = communicationTypeParameter(query, 'type');
  return type === undefined ? {} : { type };
}
