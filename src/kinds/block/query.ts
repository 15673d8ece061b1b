import { badRequest } from '../../errors.js';
import { filterValue, type Query } from '../../http/resource-routes.js';
import { isUuid } from '../../http/validation.js';
import { BLOCK_FILTER_STATUSES, TARGET_KINDS, type BlockStatus, type TargetKind } from './model.js';
import type { BlockFilter } from './store.js';

/** The list request of spec endpoints 4 (v1) and 9 (v2-preview), parsed; `managedBy*` need their own permission. */
export interface BlockQuery {
  filter: BlockFilter;
  managedByWorkspace?: string;
  managedByDefinition?: string;
}

function uuidParam(query: Query, name: string): string | undefined {
  const value = filterValue(query, name);
  if (value !== undefined && !isUuid(value)) throw badRequest(`${name}: must be a uuid, got "${value}"`);
  return value?.toLowerCase();
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = filterValue(query, name);
  if (value !== undefined && !(allowed as readonly string[]).includes(value)) throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T | undefined;
}

/**
 * Each version's filters (spec §4 endpoints 4 and 9), combined with AND; parameters of the other
 * version are ignored like any unknown parameter. v1 lists hold tenant blocks only. `'none'`: a
 * filter that no block can match (`WAITING_FOR_APPROVAL`: there is no approval step here).
 */
export function parseBlockFilter(query: Query, version: string): BlockQuery | 'none' {
  const filter: BlockFilter = {};
  const set = <K extends keyof BlockFilter>(key: K, value: BlockFilter[K] | undefined) => {
    if (value !== undefined) filter[key] = value;
  };
  set('workspace', filterValue(query, 'workspaceIdentifier'));
  set('project', filterValue(query, 'projectIdentifier'));
  set('platformIdentifier', filterValue(query, 'platformIdentifier'));
  set('displayName', filterValue(query, 'name'));
  set('definitionUuid', uuidParam(query, 'definitionUuid'));
  const status = oneOf(query, 'status', BLOCK_FILTER_STATUSES);
  if (status === 'WAITING_FOR_APPROVAL') return 'none';
  set('status', status as BlockStatus | undefined);
  if (version === 'v1') {
    filter.targetKind = 'meshTenant';
    set('definitionName', filterValue(query, 'definitionName'));
    const number = filterValue(query, 'versionNumber');
    if (number !== undefined) {
      if (!/^v?[1-9][0-9]{0,8}$/.test(number)) throw badRequest(`versionNumber: must be a version number such as 3 or v3, got "${number}"`);
      filter.versionNumber = Number(number.replace(/^v/, ''));
    }
    return { filter };
  }
  set('versionUuid', uuidParam(query, 'versionUuid'));
  set('tenantUuid', uuidParam(query, 'tenantUuid'));
  set('targetKind', oneOf<TargetKind>(query, 'targetRefKind', TARGET_KINDS));
  const managedByWorkspace = filterValue(query, 'managedByWorkspaceIdentifier');
  const managedByDefinition = uuidParam(query, 'managedByDefinitionUuid');
  return { filter, ...(managedByWorkspace !== undefined ? { managedByWorkspace } : {}), ...(managedByDefinition !== undefined ? { managedByDefinition } : {}) };
}
