import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { canonicalUuid } from '../../lib/validation.js';

export interface DefinitionListQuery {
  workspace?: string;
  /** TF's `includeAllPublished=true`: the workspace's definitions and the whole marketplace. */
  includeAllPublished?: boolean;
}

/** The definition list's filters, as its route documents them. */
export const DEFINITION_FILTERS = {
  workspaceIdentifier: Filter('definitions owned by this workspace'),
  ownedByWorkspace: Filter('the same as workspaceIdentifier (the Terraform provider’s name)'),
  includeAllPublished: Filter('true: the workspace’s definitions and every published one', { enum: ['true', 'false'] }),
};

/** The definition version list's filter, as its route documents it. */
export const VERSION_FILTERS = { buildingBlockDefinitionUuid: Filter('versions of this definition', { format: 'uuid' }) };

/** Definition list filters: `workspaceIdentifier` (spec), TF's alias `ownedByWorkspace` and `includeAllPublished=true`. */
export function parseDefinitionQuery(query: Query): DefinitionListQuery {
  const workspace = filterValue(query, 'workspaceIdentifier') ?? filterValue(query, 'ownedByWorkspace');
  const published = filterValue(query, 'includeAllPublished');
  if (published !== undefined && published !== 'true' && published !== 'false')
    throw badRequest(`includeAllPublished: must be true or false, got "${published}"`);
  return { ...(workspace !== undefined ? { workspace } : {}), ...(published === 'true' ? { includeAllPublished: true } : {}) };
}

/** Version list filter: `buildingBlockDefinitionUuid` (a uuid, else 400). */
export function parseVersionQuery(query: Query): { definitionUuid?: string } {
  const value = filterValue(query, 'buildingBlockDefinitionUuid');
  if (value === undefined) return {};
  const uuid = canonicalUuid(value);
  if (!uuid) throw badRequest(`buildingBlockDefinitionUuid: must be a uuid, got "${value}"`);
  return { definitionUuid: uuid };
}
