import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, type Query } from '../../lib/query.js';
import { canonicalUuid } from '../../lib/validation.js';

/** The run list's filters, as its route documents them. */
export const RUN_FILTERS = {
  buildingBlockUuid: Filter('only the runs of this building block', { format: 'uuid' }),
  runnerNodeId: Filter('only the runs claimed by this runner node'),
};

export interface RunFilter {
  blockUuid?: string;
  nodeId?: string;
}

/** The run list's filters: `buildingBlockUuid` (a uuid, 400 otherwise; compared in its canonical form) and `runnerNodeId`, exact. */
export function parseRunFilter(query: Query): RunFilter {
  const sent = filterValue(query, 'buildingBlockUuid');
  const blockUuid = sent === undefined ? undefined : canonicalUuid(sent);
  if (sent !== undefined && !blockUuid) throw badRequest(`buildingBlockUuid: must be a uuid, got "${sent}"`);
  const nodeId = filterValue(query, 'runnerNodeId');
  return { ...(blockUuid ? { blockUuid } : {}), ...(nodeId ? { nodeId } : {}) };
}

/** A runner's claim by its uuid: `forRunnerUuid`, required. */
export function parseClaimForRunner(query: Query): string {
  const runnerUuid = filterValue(query, 'forRunnerUuid');
  if (runnerUuid === undefined) throw badRequest('forRunnerUuid: required');
  return runnerUuid;
}

/** A runner node's claim: `runnerNodeId` (required) and `selector`, the implementation the runs' definitions match. */
export function parseClaimForNode(query: Query): { nodeId: string; selector?: string } {
  const nodeId = filterValue(query, 'runnerNodeId');
  if (nodeId === undefined) throw badRequest('runnerNodeId: required');
  const selector = filterValue(query, 'selector');
  return { nodeId, ...(selector !== undefined ? { selector } : {}) };
}
