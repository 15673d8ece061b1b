import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedRunnerService } from './authorized-service.js';
import type { Runner } from './model.js';
import { parseRunnerFilter, RUNNER_FILTERS } from './query.js';
import { RUNNER_CODECS } from './wire/index.js';
import { RUNNERS_PATH } from './model.js';

export function runnerOperations(runners: AuthorizedRunnerService): Operation[] {
  return resourceOperations<Runner>({
    path: RUNNERS_PATH,
    codecs: RUNNER_CODECS.codecs,
    embedded: 'meshBuildingBlockRunners',
    filters: RUNNER_FILTERS,
    resource: 'BUILDINGBLOCKRUNNER',
    encode: (runner, call) => RUNNER_CODECS.of(versionOf(call)).encode(runner, call),
    get: (call, uuid) => runners.get(call.ctx, uuid),
    list: (call, page) => runners.list(call.ctx, parseRunnerFilter(call.query).workspace, page),
    create: (call) => runners.create(call.ctx, RUNNER_CODECS.of(call.consumes?.version).decode(call.body).input),
    update: (call, uuid) => {
      const { input, sentRestriction, uuid: sentUuid } = RUNNER_CODECS.of(call.consumes?.version).decode(call.body);
      return runners.update(call.ctx, uuid, input, sentRestriction, sentUuid);
    },
    remove: { status: 204, run: (call, uuid) => runners.delete(call.ctx, uuid) },
  });
}
