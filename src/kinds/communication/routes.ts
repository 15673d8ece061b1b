import { answersOf, ok, versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedCommunicationService } from './authorized-service.js';
import type { Communication } from './model.js';
import { COMMUNICATION_FILTERS, parseCommunicationFilter } from './query.js';
import { COMMUNICATION_CODECS } from './wire/index.js';
import { COMMUNICATIONS_PATH } from './model.js';

/**
 * The published operations (admins send and delete) and one of this server's: `POST …/{uuid}/resolve`
 * (no body) resolves an OPEN communication for its workspace and answers it (README, "Service
 * instances and communications").
 */
export function communicationOperations(communications: AuthorizedCommunicationService): Operation[] {
  const encode = (communication: Communication, call: Parameters<Operation['handle']>[0]) =>
    COMMUNICATION_CODECS.of(versionOf(call)).encode(communication, call);
  return [
    ...resourceOperations<Communication>({
      path: COMMUNICATIONS_PATH,
      codecs: COMMUNICATION_CODECS.codecs,
      filters: COMMUNICATION_FILTERS,
      embedded: 'meshCommunications',
      resource: 'COMMUNICATION',
      adminOnly: 'writes',
      encode,
      get: (call, uuid) => communications.get(call.ctx, uuid),
      list: (call, page) => communications.list(call.ctx, parseCommunicationFilter(call.query), page),
      create: (call) => communications.create(call.ctx, COMMUNICATION_CODECS.of(call.consumes?.version).decode(call.body)),
      remove: { status: 204, run: (call, uuid) => communications.delete(call.ctx, uuid) },
    }),
    {
      method: 'POST',
      path: `${COMMUNICATIONS_PATH}/:id/resolve`,
      media: { produces: COMMUNICATION_CODECS.media },
      access: { resource: 'COMMUNICATION', action: 'SAVE' },
      doc: {
        summary: 'Resolve a communication',
        description:
          'No body. The target workspace’s COMMUNICATION_SAVE holders resolve an OPEN ACTION_REQUIRED communication; resolving a resolved one changes nothing.',
        responses: { 200: { description: 'the resolved communication', body: answersOf(COMMUNICATION_CODECS.codecs) } },
      },
      handle: async (call) => ok(encode(await communications.markResolved(call.ctx, call.params.id!), call)),
    },
  ];
}
