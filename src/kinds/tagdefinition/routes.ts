import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedTagDefinitionService } from './authorized-service.js';
import { TAG_DEFINITIONS_PATH } from './model.js';
import { TAG_DEFINITION_CODECS } from './wire/index.js';

export function tagDefinitionOperations(definitions: AuthorizedTagDefinitionService): Operation[] {
  return crudOperations(definitions, TAG_DEFINITION_CODECS, {
    path: TAG_DEFINITIONS_PATH,
    embedded: 'meshTagDefinitions',
    resource: 'TAGDEFINITION',
    readAccess: 'authenticated',
    adminOnly: 'writes',
    put: 'upsert',
  });
}
