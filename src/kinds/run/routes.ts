import { badRequest, notFound } from '../../lib/errors.js';
import { Type } from '@sinclair/typebox';
import { MAX_STRING } from '../../lib/limits.js';
import { answersOf, empty, ok, type Call, type Operation, type Reply } from '../operation.js';
import { listOperation } from '../resource.js';
import type { AuthorizedRunService } from './authorized-service.js';
import { parseClaimForNode, parseClaimForRunner, parseRunFilter, RUN_FILTERS } from './query.js';
import type { ClaimedRun } from './service.js';
import { RUN_CODECS } from './wire/index.js';
import { RUNS_PATH } from './model.js';

const PATH = RUNS_PATH;

/** Runs (spec endpoints 17, 18 and the index's claim template; COMPAT §10). */
export function runOperations(runs: AuthorizedRunService): Operation[] {
  const produces = RUN_CODECS.media;
  const one = answersOf(RUN_CODECS.codecs);
  const claimedRun = { 201: { description: 'the claimed run, with its run token and runner-encrypted values', body: one } };
  const nodeIdHeader = Type.Object({
    'x-block-runner-node-id': Type.Optional(Type.String({ description: 'the claiming runner node (wins over runnerNodeId)' })),
  });
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
      doc: {
        summary: 'Claim the next run of a runner',
        description: 'No body. 404 when no run is waiting (what runners poll for).',
        query: Type.Object({ forRunnerUuid: Type.String({ format: 'uuid', description: 'the runner claiming (required)' }) }),
        headers: nodeIdHeader,
        responses: claimedRun,
      },
      handle: async (call) => {
        return claimed(call, await runs.claimForRunner(call.ctx, parseClaimForRunner(call.query), nodeHeader(call)));
      },
    },
    {
      method: 'POST',
      path: PATH,
      media: { produces },
      access: { managed: 'BUILDINGBLOCKRUN_SAVE' },
      doc: {
        summary: 'Claim the next run for a runner node',
        description: 'No body. 404 when no run is waiting.',
        query: Type.Object({
          runnerNodeId: Type.String({ description: 'the claiming runner node (required)' }),
          selector: Type.Optional(Type.String({ description: 'only runs of definitions whose implementation matches' })),
        }),
        headers: nodeIdHeader,
        responses: claimedRun,
      },
      handle: async (call) => {
        const { nodeId, selector } = parseClaimForNode(call.query);
        return claimed(call, await runs.claimForNode(call.ctx, nodeHeader(call) ?? nodeId.slice(0, MAX_STRING), selector));
      },
    },
    listOperation({
      path: PATH,
      codecs: RUN_CODECS.codecs,
      embedded: 'meshBuildingBlockRuns',
      access: { managed: 'BUILDINGBLOCKRUN_LIST' },
      filters: RUN_FILTERS,
      summary: 'List runs',
      description: 'a page of runs',
      list: (call, page) => runs.list(call.ctx, parseRunFilter(call.query), page),
      encode: (run, call) => codec(call).encode(run, call),
    }),
    {
      method: 'GET',
      path: `${PATH}/:id`,
      media: { produces },
      access: 'run',
      doc: { summary: 'Read a run', responses: { 200: { description: 'the run as its reader may see it', body: one } } },
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
      doc: {
        summary: 'Read a run’s step log',
        responses: {
          200: {
            description: 'every step, streamed',
            body: RUN_CODECS.codecs.map((codec) => ({ media: codec.media, schema: codec.logsSchema })),
          },
        },
      },
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
      doc: {
        summary: 'Register a run’s source and its steps',
        body: RUN_CODECS.codecs.map((codec) => ({ media: codec.media, schema: codec.registrationSchema })),
        responses: { 200: { description: 'registered' } },
      },
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
      doc: {
        summary: 'Report a run’s status, steps and outputs',
        body: RUN_CODECS.codecs.map((codec) => ({ media: codec.media, schema: codec.updateSchema })),
        responses: {
          200: {
            description: 'whether the run was aborted meanwhile',
            body: RUN_CODECS.codecs.map((codec) => ({ media: codec.media, schema: Type.Object({ runAborted: Type.Boolean() }) })),
          },
        },
      },
      handle: async (call) =>
        ok({ runAborted: await runs.updateSource(call.ctx, call.params.id!, sourceId(call), codec(call).decodeUpdate(call.body)) }),
    },
  ];
}
