import { versionOf, type Operation } from '../operation.js';
import { PATHS } from '../paths.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedEventLogService } from './authorized-service.js';
import type { EventRecord } from './model.js';
import { parseEventQuery } from './query.js';
import { EVENTLOG_CODECS } from './wire/index.js';

/** `GET /api/meshobjects/mesheventlogs` (newest first) and `/{uuid}`; read-only. */
export function eventLogOperations(events: AuthorizedEventLogService): Operation[] {
  return resourceOperations<EventRecord>({
    path: PATHS.eventLogs,
    codecs: EVENTLOG_CODECS.codecs,
    embedded: 'meshEventLogs',
    resource: 'EVENTLOG',
    encode: (event, call) => EVENTLOG_CODECS.of(versionOf(call)).encode(event, call),
    get: (call, uuid) => events.get(call.ctx, uuid),
    list: (call, page) => events.list(call.ctx, parseEventQuery(call.query), page),
  });
}
