import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app.js';
import { registerResourceRoutes, versionOf } from '../../http/resource-routes.js';
import type { Definition, DefinitionVersion } from './model.js';
import { parseDefinitionQuery, parseVersionQuery } from './parse-definition-query.js';
import { decodeDefinition, DEFINITION_VERSIONS, DEFINITIONS_PATH, encodeDefinition } from './wire/definition-v1-preview.js';
import { decodeVersion, DEFINITION_VERSION_VERSIONS, DEFINITION_VERSIONS_PATH, encodeVersion } from './wire/version-v1-preview.js';

export async function definitionRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const definitions = context.services.definitions;

  registerResourceRoutes<Definition>(app, context, {
    path: DEFINITIONS_PATH,
    versions: DEFINITION_VERSIONS,
    embedded: 'meshBuildingBlockDefinitions',
    resource: 'BUILDINGBLOCKDEFINITION',
    encode: (definition, request) => encodeDefinition(definition, versionOf(request), context.baseUrl()),
    get: (request, uuid) => definitions.get(request.principal, uuid),
    list: (request, query, page) => definitions.list(request.principal, parseDefinitionQuery(query), page),
    create: (request, body) => definitions.create(request.principal, decodeDefinition(body).input),
    update: (request, uuid, body) => {
      const { input, uuid: sentUuid } = decodeDefinition(body);
      return definitions.update(request.principal, uuid, input, sentUuid);
    },
    remove: { status: 202, run: (request, uuid) => definitions.delete(request.principal, uuid) },
  });

  registerResourceRoutes<DefinitionVersion>(app, context, {
    path: DEFINITION_VERSIONS_PATH,
    versions: DEFINITION_VERSION_VERSIONS,
    embedded: 'meshBuildingBlockDefinitionVersions',
    resource: 'BUILDINGBLOCKDEFINITION',
    encode: (version, request) => encodeVersion(version, versionOf(request), context.baseUrl()),
    get: (request, uuid) => definitions.getVersion(request.principal, uuid),
    list: (request, query, page) => definitions.listVersions(request.principal, parseVersionQuery(query).definitionUuid, page),
    create: (request, body) => definitions.createVersion(request.principal, decodeVersion(body)),
    update: (request, uuid, body) => definitions.updateVersion(request.principal, uuid, decodeVersion(body)),
  });
}
