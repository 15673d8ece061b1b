import { column, type KindManifest } from '../manifest.js';
import { AuthorizedRunnerService } from './authorized-service.js';
import { RUNNER_TITLES } from './events.js';
import { runnerOperations } from './routes.js';
import { RunnerService } from './service.js';
import { RUNNER_CODECS } from './wire/index.js';
import { RUNNERS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    runners: AuthorizedRunnerService;
  }
  interface PlainServices {
    runners: RunnerService;
  }
}

export const runnerKind: KindManifest<'runners'> = {
  name: 'runners',
  resources: [
    {
      path: RUNNERS_PATH,
      codecs: RUNNER_CODECS,
      index: ['workspaceIdentifier'],
      cli: { aliases: ['runners', 'runner'], columns: [column('TYPE', 'spec.implementationType')] },
    },
  ],
  events: RUNNER_TITLES,
  references: [{ to: 'workspace', kind: 'meshBuildingBlockRunners', table: 'runners', columns: ['owned_by_workspace'] }],
  build(context) {
    const plain = new RunnerService(context.db, context.plain('workspaces'), context.recorder, context.references);
    return { plain, authorized: new AuthorizedRunnerService(plain) };
  },
  operations: (services) => runnerOperations(services.runners),
};
