import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { canonicalUuid } from '../../lib/validation.js';
import { COMMUNICATION_TYPES } from '../communicationdefinition/model.js';
import { communicationTypeParameter } from '../communicationdefinition/query.js';
import { RESOLUTION_STATUSES, type ResolutionStatus } from './model.js';
import type { CommunicationFilter } from './store.js';

/** The communication list's filters, as its route documents them. */
export const COMMUNICATION_FILTERS = {
  communicationDefinitionUuid: Filter('communications of this definition'),
  resolutionStatus: Filter('communications in this resolution status', { enum: RESOLUTION_STATUSES }),
  communicationType: Filter('communications of definitions of this type', { enum: COMMUNICATION_TYPES }),
};

/**
 * The communication list's filters (OpenAPI, exact, AND): `communicationDefinitionUuid` (not a uuid:
 * matches nothing), `resolutionStatus` (OPEN, RESOLVED), `communicationType` (ACTION_REQUIRED,
 * NOTIFICATION; another value of these two is 400 naming the parameter). `'none'`: nothing can match.
 */
export function parseCommunicationFilter(query: Query): CommunicationFilter | 'none' {
  const filter: CommunicationFilter = {};
  const status = filterValue(query, 'resolutionStatus');
  if (status !== undefined) {
    if (!(RESOLUTION_STATUSES as readonly string[]).includes(status))
      throw badRequest(`resolutionStatus: must be one of ${RESOLUTION_STATUSES.join(', ')}, got "${status}"`);
    filter.resolutionStatus = status as ResolutionStatus;
  }
  const type = communicationTypeParameter(query, 'communicationType');
  if (type !== undefined) filter.type = type;
  const definition = filterValue(query, 'communicationDefinitionUuid');
  if (definition !== undefined) {
    const uuid = canonicalUuid(definition);
    if (uuid === undefined) return 'none';
    filter.definitionUuid = uuid;
  }
  return filter;
}
