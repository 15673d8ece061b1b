import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedCommunicationDefinitionService } from './authorized-service.js';
import type { CommunicationDefinition } from './model.js';
import { COMMUNICATION_DEFINITION_FILTERS, parseCommunicationDefinitionFilter } from './query.js';
import { COMMUNICATION_DEFINITION_CODECS } from './wire/index.js';
import { COMMUNICATION_DEFINITIONS_PATH } from './model.js';

/** Reads: `COMMUNICATIONDEFINITION_LIST` (the definitions sent to the key's workspace) or admins; writes: admins. */
export function communicationDefinitionOperations(definitions: AuthorizedCommunicationDefinitionService): Operation[] {
  const codec = (version: string | undefined) => COMMUNICATION_DEFINITION_CODECS.of(version);
  return resourceOperations<CommunicationDefinition>({
    path: COMMUNICATION_DEFINITIONS_PATH,
    codecs: COMMUNICATION_DEFINITION_CODECS.codecs,
    filters: COMMUNICATION_DEFINITION_FILTERS,
    embedded: 'meshCommunicationDefinitions',
    resource: 'COMMUNICATIONDEFINITION',
    adminOnly: 'writes',
    encode: (definition, call) => codec(versionOf(call)).encode(definition, call),
    get: (call, uuid) => definitions.get(call.ctx, uuid),
    list: (call, page) => definitions.list(call.ctx, parseCommunicationDefinitionFilter(call.query), page),
    create: (call) => definitions.create(call.ctx, codec(call.consumes?.version).decode(call.body)),
    update: (call, uuid) => definitions.update(call.ctx, uuid, codec(call.consumes?.version).decodeUpdate(call.body)),
    remove: { status: 204, run: (call, uuid) => definitions.delete(call.ctx, uuid) },
  });
}
