import { column, type KindManifest } from '../manifest.js';
import { AuthorizedEventLogService } from './authorized-service.js';
import { eventLogOperations } from './routes.js';
import { EventLogService } from './service.js';
import { EVENTLOG_CODECS } from './wire/index.js';
import { EVENT_LOGS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    events: AuthorizedEventLogService;
  }
  interface PlainServices {
    events: EventLogService;
  }
}

export const eventLogKind: KindManifest<'events'> = {
  name: 'events',
  resources: [
    {
      path: EVENT_LOGS_PATH,
      codecs: EVENTLOG_CODECS,
      index: [
        'from',
        'until',
        'title',
        'description',
        'authorType',
        'authorIdentifier',
        'eventType',
        'workspaceName',
        'workspaceIdentifier',
        'excludeTitle',
      ],
      cli: {
        aliases: ['events', 'event'],
        columns: [
          column('TIME', 'metadata.createdAt'),
          column('TITLE', 'spec.title'),
          column('AUTHOR', 'spec.author.identifier'),
          column('WORKSPACE', 'spec.workspaceRef.name'),
        ],
        wide: [column('DESCRIPTION', 'spec.description')],
      },
    },
  ],
  build(context) {
    const plain = new EventLogService(context.db, context.plain('workspaces'), context.durable);
    return { plain, authorized: new AuthorizedEventLogService(plain) };
  },
  operations: (services) => eventLogOperations(services.events),
};
