import { BlockLifecycle } from '../block/lifecycle.js';
import type { EventDraft } from '../eventlog/model.js';
import { column, type KindManifest } from '../manifest.js';
import type { Db } from '../../store/transaction.js';
import { AuthorizedRunService } from './authorized-service.js';
import { runOperations } from './routes.js';
import { RunService } from './service.js';
import { runUnit } from './unit.js';
import { RUN_CODECS, RUN_EVENTS } from './wire/index.js';
import { RUNS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    runs: AuthorizedRunService;
  }
  interface PlainServices {
    runs: RunService;
  }
}

export const runKind: KindManifest<'runs'> = {
  name: 'runs',
  resources: [
    {
      path: RUNS_PATH,
      codecs: RUN_CODECS,
      // "runnerNodeId (required, in the path's query), selector (appended)"
      index: '?runnerNodeId={runnerNodeId}{&selector}',
      cli: {
        aliases: ['runs', 'run'],
        extraFilters: ['buildingBlockUuid'],
        // The block by its name where the answer gives it (to operators), else by its uuid.
        columns: [
          column('RUN', 'spec.runNumber'),
          column('BEHAVIOR', 'spec.behavior'),
          column('STATUS', 'status'),
          column('BLOCK', 'spec.buildingBlock.spec.displayName', 'spec.buildingBlock.uuid'),
        ],
        wide: [column('BLOCK UUID', 'spec.buildingBlock.uuid'), column('ENDED', 'metadata.endedOn')],
      },
    },
  ],
  references: [
    {
      to: 'runner',
      kind: 'waiting or running meshBuildingBlockRuns',
      table: 'runs',
      columns: ['runner_uuid'],
      unlessSet: 'ended_on',
    },
  ],
  build(context) {
    const { db, dialect, config } = context;
    const unitOf = (trx: Db, events?: EventDraft[]) => runUnit(trx, dialect, events);
    const lifecycle = new BlockLifecycle(context.secrets, RUN_EVENTS);
    const plain = new RunService(db, unitOf, lifecycle, context.plain('runners'), context.secrets, context.tokens, context.recorder, {
      runTimeoutSeconds: config.runTimeoutSeconds,
      logMaxBytes: config.runLogMaxBytes,
    });
    return { plain, authorized: new AuthorizedRunService(plain, context.authorized('runners')) };
  },
  operations: (services) => runOperations(services.runs),
};
