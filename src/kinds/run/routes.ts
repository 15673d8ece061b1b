import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, notFound } from '../errors.js';
import type { AppContext } from '../http/app.js';
import { halPage, pageInfo, pageLinks, parsePagingParams } from '../http/paging.js';
import { filterValue, type Query } from '../http/resource-routes.js';
import { isUuid } from '../http/validation.js';
import type { ClaimedRun } from './service.js';
import { decodeRunRegistration, decodeRunUpdate, encodeRun, RUN_VERSIONS, RUNS_PATH } from './wire.js';

const produces = RUN_VERSIONS;

/** Runs (spec endpoints 17, 18 and the index's claim template; COMPAT §10). */
export async function runRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const runs = context.services.runs;
  const base = context.baseUrl;
  const nodeHeader = (request: FastifyRequest) => {
    const header = request.headers['x-block-runner-node-id'];
    return typeof header === 'string' && header !== '' ? header.slice(0, 255) : undefined;
  };
  /** 201 with the run, or 404 when nothing is waiting (what runners poll for). */
  const answer = (claimed: ClaimedRun | undefined) => {
    if (!claimed) throw notFound('no run is waiting for this runner');
    return encodeRun(claimed.run, base(), claimed);
  };

  // Claims take no body: whatever Content-Type a runner sends is ignored (COMPAT §1).
  app.post(`${RUNS_PATH}/create`, { config: { media: { produces }, access: { managed: 'BUILDINGBLOCKRUN_SAVE' } } }, async (request, reply) => {
    const runnerUuid = filterValue(request.query as Query, 'forRunnerUuid');
    if (runnerUuid === undefined) throw badRequest('forRunnerUuid: required');
    return reply.code(201).send(answer(await runs.claimForRunner(request.principal, runnerUuid, nodeHeader(request))));
  });

  app.post(RUNS_PATH, { config: { media: { produces }, access: { managed: 'BUILDINGBLOCKRUN_SAVE' } } }, async (request, reply) => {
    const query = request.query as Query;
    const nodeId = filterValue(query, 'runnerNodeId');
    if (nodeId === undefined) throw badRequest('runnerNodeId: required');
    return reply.code(201).send(answer(await runs.claimForNode(request.principal, nodeHeader(request) ?? nodeId.slice(0, 255), filterValue(query, 'selector'))));
  });

  app.get(RUNS_PATH, { config: { media: { produces }, access: { managed: 'BUILDINGBLOCKRUN_LIST' } } }, async (request) => {
    const query = request.query as Query;
    const page = parsePagingParams(query);
    const blockUuid = filterValue(query, 'buildingBlockUuid');
    if (blockUuid !== undefined && !isUuid(blockUuid)) throw badRequest(`buildingBlockUuid: must be a uuid, got "${blockUuid}"`);
    const nodeId = filterValue(query, 'runnerNodeId');
    const { items, total } = await runs.list(request.principal, { ...(blockUuid ? { blockUuid: blockUuid.toLowerCase() } : {}), ...(nodeId ? { nodeId } : {}) }, page);
    const info = pageInfo(page, total);
    return halPage('meshBuildingBlockRuns', items.map((run) => encodeRun(run, base())), info, pageLinks(base(), request.url, info));
  });

  app.get(`${RUNS_PATH}/:id`, { config: { media: { produces }, access: 'run' } }, async (request) => encodeRun(await runs.get(request.principal, (request.params as { id: string }).id), base()));

  // The step log the Terraform provider shows for a failed block (COMPAT §9), with each step's source,
  // id and time of its last change: the run's history stays readable after it ended.
  app.get(`${RUNS_PATH}/:id/logs`, { config: { media: { produces }, access: 'run' } }, async (request) => {
    const run = await runs.get(request.principal, (request.params as { id: string }).id);
    const steps = await context.services.repositories.runs.steps(run.uuid);
    return {
      steps: steps.map((step) => ({
        displayName: step.displayName,
        status: step.status,
        userMessage: step.userMessage ?? null,
        systemMessage: step.systemMessage ?? null,
        id: step.stepId,
        sourceId: step.sourceId,
        updatedOn: step.updatedOn,
      })),
    };
  });

  app.post(`${RUNS_PATH}/:id/status/source`, { config: { media: { produces, consumes: produces }, access: 'run' } }, async (request, reply) => {
    await runs.registerSource(request.principal, (request.params as { id: string }).id, decodeRunRegistration(request.body));
    return reply.code(200).send();
  });

  app.patch(`${RUNS_PATH}/:id/status/source/:sourceId`, { config: { media: { produces, consumes: produces }, access: 'run' } }, async (request) => {
    const { id, sourceId } = request.params as { id: string; sourceId: string };
    if (sourceId.length > 255) throw badRequest('sourceId: at most 255 characters');
    return { runAborted: await runs.updateSource(request.principal, id, sourceId, decodeRunUpdate(request.body)) };
  });
}
