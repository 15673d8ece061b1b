import { badRequest, notFound } from '../../lib/errors.js';
import { halPage, pageInfo, pageLinks, parsePagingParams } from '../../lib/paging.js';
import { filterValue } from '../../lib/query.js';
import { MAX_STRING } from '../../lib/limits.js';
import { canonicalUuid } from '../../lib/validation.js';
import { empty, ok, type Call, type Operation, type Reply } from '../operation.js';
import { PATHS } from '../paths.js';
import type { AuthorizedRunService } from './authorized-service.js';
import type { ClaimedRun } from './service.js';
import { RUN_CODECS } from './wire/index.js';

const PATH = PATHS.runs;

/** Runs (spec endpoints 17, 18 and the index's claim template; COMPAT §10). */
export function runOperations(runs: AuthorizedRunService): Operation[] {
  const produces = RUN_CODECS.media;
  const codec = (call: Call) => RUN_CODECS.of(call.produces?.version ?? call.consumes?.version);
  const nodeHeader = (call: Call) => {
    const header = call.headers['x-block-runner-node-id'];
    return typeof header === 'string' && header !== '' ? header.slice(0, MAX_STRING) : undefined;
  };
  /** 201 with the run, or 404 when nothing is waiting (what runners poll for). */
  const claimed = (call: Call, claim: ClaimedRun | undefined): Reply => {
    if (!claim) throw notFound('no run is waiting for this runner');
    return { status: 201, body: codec(call).encode(claim.run, { baseUrl: call.baseUrl, claimed: claim }) };
  };
  const sourceId = (call: Call) => {
    const id = call.params.sourceId!;
    if (id.length > MAX_STRING) throw badRequest(`sourceId: at most ${MAX_STRING} characters`);
    return id;
  };

  return [
    {
      // Claims take no body: whatever Content-Type a runner sends is ignored (COMPAT §1).
      method: 'POST',
      path: `${PATH}/create`,
      media: { produces },
      access: { managed: 'BUILDINGBLOCKRUN_SAVE' },
      handle: async (call) => {
        const runnerUuid = filterValue(call.query, 'forRunnerUuid');
        if (runnerUuid === undefined) throw badRequest('forRunnerUuid: required');
        return claimed(call, await runs.claimForRunner(call.ctx, runnerUuid, nodeHeader(call)));
      },
    },
    {
      method: 'POST',
      path: PATH,
      media: { produces },
      access: { managed: 'BUILDINGBLOCKRUN_SAVE' },
      handle: async (call) => {
        const nodeId = filterValue(call.query, 'runnerNodeId');
        if (nodeId === undefined) throw badRequest('runnerNodeId: required');
        return claimed(call, await runs.claimForNode(call.ctx, nodeHeader(call) ?? nodeId.slice(0, MAX_STRING), filterValue(call.query, 'selector')));
      },
    },
    {
      method: 'GET',
      path: PATH,
      media: { produces },
      access: { managed: 'BUILDINGBLOCKRUN_LIST' },
      handle: async (call) => {
        const page = parsePagingParams(call.query);
        const blockUuid = filterValue(call.query, 'buildingBlockUuid');
        const block = blockUuid === undefined ? undefined : canonicalUuid(blockUuid);
        if (blockUuid !== undefined && !block) throw badRequest(`buildingBlockUuid: must be a uuid, got "${blockUuid}"`);
        const nodeId = filterValue(call.query, 'runnerNodeId');
        const { items, total } = await runs.list(call.ctx, { ...(block ? { blockUuid: block } : {}), ...(nodeId ? { nodeId } : {}) }, page);
        const info = pageInfo(page, total);
        return ok(halPage('meshBuildingBlockRuns', items.map((run) => codec(call).encode(run, call)), info, pageLinks(call.baseUrl, call.url, info)));
      },
    },
    {
      method: 'GET',
      path: `${PATH}/:id`,
      media: { produces },
      access: 'run',
      handle: async (call) => {
        const { run, audience } = await runs.read(call.ctx, call.params.id!);
        return ok(codec(call).encode(run, { baseUrl: call.baseUrl, audience }));
      },
    },
    // The step log the Terraform provider shows for a failed block (COMPAT §9), with each step's source,
    // id and time of its last change: the run's history stays readable after it ended.
    {
      method: 'GET',
      path: `${PATH}/:id/logs`,
      media: { produces },
      access: 'run',
      handle: async (call) => {
        const { steps, audience } = await runs.logs(call.ctx, call.params.id!);
        return ok(codec(call).encodeLogs(steps, audience));
      },
    },
    {
      method: 'POST',
      path: `${PATH}/:id/status/source`,
      media: { produces, consumes: produces },
      access: 'run',
      handle: async (call) => {
        await runs.registerSource(call.ctx, call.params.id!, codec(call).decodeRegistration(call.body));
        return empty(200);
      },
    },
    {
      method: 'PATCH',
      path: `${PATH}/:id/status/source/:sourceId`,
      media: { produces, consumes: produces },
      access: 'run',
      handle: async (call) => ok({ runAborted: await runs.updateSource(call.ctx, call.params.id!, sourceId(call), codec(call).decodeUpdate(call.body)) }),
    },
  ];
}
