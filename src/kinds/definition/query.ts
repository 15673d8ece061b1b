import { badRequest } from '../../errors.js';
import { filterValue, type Query } from '../../http/resource-routes.js';
import { isUuid } from '../../http/validation.js';
import type { DefinitionListQuery } from './authorized-service.js';

/** Definition list filters: `workspaceIdentifier` (spec), TF's alias `ownedByWorkspace` and `includeAllPublished=true`. */
export function parseDefinitionQuery(query: Query): DefinitionListQuery {
  const workspace = filterValue(query, 'workspaceIdentifier') ?? filterValue(query, 'ownedByWorkspace');
  const published = filterValue(query, 'includeAllPublished');
  if (published !== undefined && published !== 'true' && published !== 'false') throw badRequest(`includeAllPublished: must be true or false, got "${published}"`);
  return { ...(workspace !== undefined ? { workspace } : {}), ...(published === 'true' ? { includeAllPublished: true } : {}) };
}

/** Version list filter: `buildingBlockDefinitionUuid` (a uuid, else 400). */
export function parseVersionQuery(query: Query): { definitionUuid?: string } {
  const uuid = filterValue(query, 'buildingBlockDefinitionUuid');
  if (uuid === undefined) return {};
  if (!isUuid(uuid)) throw badRequest(`buildingBlockDefinitionUuid: must be a uuid, got "${uuid}"`);
  return { definitionUuid: uuid };
}
