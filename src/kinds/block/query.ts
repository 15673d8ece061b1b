import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { canonicalUuid } from '../../lib/validation.js';
import { BLOCK_FILTER_STATUSES, TARGET_KINDS, type BlockStatus, type TargetKind } from './model.js';
import type { BlockFilter } from './store.js';

/** A block list request, parsed; the `managedBy*` filters need their own permission (the service checks). */
export interface BlockQuery {
  filter: BlockFilter;
  managedByWorkspace?: string;
  managedByDefinition?: string;
}

function uuidParam(query: Query, name: string): string | undefined {
  const value = filterValue(query, name);
  if (value === undefined) return undefined;
  const uuid = canonicalUuid(value);
  if (!uuid) throw badRequest(`${name}: must be a uuid, got "${value}"`);
  return uuid;
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = filterValue(query, name);
  if (value !== undefined && !(allowed as readonly string[]).includes(value))
    throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T | undefined;
}

/** The block list's filters, as its route documents them. */
export const BLOCK_FILTERS = {
  workspaceIdentifier: Filter('blocks owned by this workspace'),
  projectIdentifier: Filter('blocks on tenants of this project'),
  platformIdentifier: Filter('blocks on tenants of this platform (<platform>.<location>)'),
  name: Filter('blocks with this display name'),
  definitionName: Filter('blocks of definitions with this display name'),
  definitionUuid: Filter('blocks of this definition', { format: 'uuid' }),
  versionUuid: Filter('blocks of this definition version', { format: 'uuid' }),
  versionNumber: Filter('blocks of this version number (3 or v3)'),
  tenantUuid: Filter('blocks on this tenant', { format: 'uuid' }),
  targetRefKind: Filter('blocks with this kind of target', { enum: TARGET_KINDS }),
  status: Filter('blocks in this status', { enum: BLOCK_FILTER_STATUSES }),
  managedByWorkspaceIdentifier: Filter(
    'blocks (in any workspace) of definitions owned by this workspace; needs MANAGED_BUILDINGBLOCK_LIST there',
  ),
  managedByDefinitionUuid: Filter('blocks (in any workspace) of this definition; needs MANAGED_BUILDINGBLOCK_LIST of its owner', {
    format: 'uuid',
  }),
};

/**
 * The block list's filters (spec endpoints 4 and 9; the OpenAPI documents all of them on the one list
 * operation, whichever representation answers), combined with AND. `'none'`: a filter no block can
 * match (`WAITING_FOR_APPROVAL`: there is no approval step here). The representation may narrow the
 * result further (v1 shows tenant blocks only: its codec's list hook).
 */
export function parseBlockFilter(query: Query): BlockQuery | 'none' {
  const filter: BlockFilter = {};
  const set = <K extends keyof BlockFilter>(key: K, value: BlockFilter[K] | undefined) => {
    if (value !== undefined) filter[key] = value;
  };
  set('workspace', filterValue(query, 'workspaceIdentifier'));
  set('project', filterValue(query, 'projectIdentifier'));
  set('platformIdentifier', filterValue(query, 'platformIdentifier'));
  set('displayName', filterValue(query, 'name'));
  set('definitionName', filterValue(query, 'definitionName'));
  set('definitionUuid', uuidParam(query, 'definitionUuid'));
  set('versionUuid', uuidParam(query, 'versionUuid'));
  set('tenantUuid', uuidParam(query, 'tenantUuid'));
  set('targetKind', oneOf<TargetKind>(query, 'targetRefKind', TARGET_KINDS));
  const status = oneOf(query, 'status', BLOCK_FILTER_STATUSES);
  if (status === 'WAITING_FOR_APPROVAL') return 'none';
  set('status', status as BlockStatus | undefined);
  const number = filterValue(query, 'versionNumber');
  if (number !== undefined) {
    if (!/^v?[1-9][0-9]{0,8}$/.test(number)) throw badRequest(`versionNumber: must be a version number such as 3 or v3, got "${number}"`);
    filter.versionNumber = Number(number.replace(/^v/, ''));
  }
  const managedByWorkspace = filterValue(query, 'managedByWorkspaceIdentifier');
  const managedByDefinition = uuidParam(query, 'managedByDefinitionUuid');
  return {
    filter,
    ...(managedByWorkspace !== undefined ? { managedByWorkspace } : {}),
    ...(managedByDefinition !== undefined ? { managedByDefinition } : {}),
  };
}
