import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { filterValue, registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import type { Runner } from './model.js';
import { decodeRunner, encodeRunner, RUNNER_VERSIONS, RUNNERS_PATH } from './wire.js';

export async function runnerRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const runners = context.services.runners;
  registerResourceRoutes<Runner>(app, context, {
    path: RUNNERS_PATH,
    versions: RUNNER_VERSIONS,
    embedded: 'meshBuildingBlockRunners',
    resource: 'BUILDINGBLOCKRUNNER',
    encode: (runner, request) => encodeRunner(runner, versionOf(request), context.baseUrl()),
    get: (request, uuid) => runners.get(request.principal, uuid),
    list: (request, query, page) => runners.list(request.principal, filterValue(query, 'workspaceIdentifier'), page),
    create: (request, body) => runners.create(request.principal, decodeRunner(body).input),
    update: (request, uuid, body) => {
      const { input, sentRestriction, uuid: sentUuid } = decodeRunner(body);
      return runners.update(request.principal, uuid, input, sentRestriction, sentUuid);
    },
    remove: { status: 204, run: (request, uuid) => runners.delete(request.principal, uuid) },
  });
}
