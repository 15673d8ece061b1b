import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedTagDefinitionService } from './authorized-service.js';
import type { TagDefinition } from './model.js';
import { TAG_DEFINITION_CODECS } from './wire/index.js';
import { TAG_DEFINITIONS_PATH } from './model.js';

export function tagDefinitionOperations(definitions: AuthorizedTagDefinitionService): Operation[] {
  const decode = (version: string | undefined, body: unknown) => TAG_DEFINITION_CODECS.of(version).decode(body);
  return resourceOperations<TagDefinition>({
    path: TAG_DEFINITIONS_PATH,
    codecs: TAG_DEFINITION_CODECS.codecs,
    embedded: 'meshTagDefinitions',
    resource: 'TAGDEFINITION',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    encode: (definition, call) => TAG_DEFINITION_CODECS.of(versionOf(call)).encode(definition, call),
    get: (call, name) => definitions.get(call.ctx, name),
    list: (call, page) => definitions.list(call.ctx, page),
    create: (call) => definitions.create(call.ctx, decode(call.consumes?.version, call.body)),
    update: (call, name) => definitions.save(call.ctx, name, decode(call.consumes?.version, call.body)),
    remove: { status: 204, run: (call, name) => definitions.delete(call.ctx, name) },
  });
}
