import { Type } from '@sinclair/typebox';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedEventLogService } from './authorized-service.js';
import type { EventRecord } from './model.js';
import { EVENT_FILTERS, parseEventQuery } from './query.js';
import { EVENTLOG_CODECS } from './wire/index.js';
import { EVENT_LOGS_PATH } from './model.js';

/** `GET /api/meshobjects/mesheventlogs` (newest first) and `/{uuid}`; read-only. */
export function eventLogOperations(events: AuthorizedEventLogService): Operation[] {
  return resourceOperations<EventRecord>({
    path: EVENT_LOGS_PATH,
    codecs: EVENTLOG_CODECS.codecs,
    embedded: 'meshEventLogs',
    filters: EVENT_FILTERS,
    // Accept: text/event-stream (http/event-stream.ts, README "Event stream").
    listAlso: [
      {
        media: 'text/event-stream',
        schema: Type.String({
          description:
            'Server-sent events: `id: <uuid>`, `event: meshEventLog`, `data: <the v1-preview JSON>`, heartbeat comments; resume with Last-Event-ID. Same filters and visibility as the list.',
        }),
      },
    ],
    resource: 'EVENTLOG',
    encode: (event, call) => EVENTLOG_CODECS.of(versionOf(call)).encode(event, call),
    get: (call, uuid) => events.get(call.ctx, uuid),
    list: (call, page) => events.list(call.ctx, parseEventQuery(call.query), page),
  });
}
