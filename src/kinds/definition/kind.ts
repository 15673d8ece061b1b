import { badRequest } from '../../lib/errors.js';
import { isUuid } from '../../lib/validation.js';
import { importable, rawField, rawText } from '../importable.js';
import { column, type KindManifest, example } from '../manifest.js';
import { taggedBy } from '../tags.js';
import { AuthorizedDefinitionService } from './authorized-service.js';
import { DEFINITION_TITLES } from './events.js';
import { definitionOperations } from './routes.js';
import { DefinitionService } from './service.js';
import { DEFINITION_CODECS, VERSION_CODECS } from './wire/index.js';
import { DEFINITIONS_PATH, DEFINITION_VERSIONS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    definitions: AuthorizedDefinitionService;
  }
}

export const definitionKind: KindManifest<'definitions'> = {
  name: 'definitions',
  resources: [
    {
      path: DEFINITIONS_PATH,
      codecs: DEFINITION_CODECS,
      index: ['workspaceIdentifier'],
      cli: {
        aliases: ['definitions', 'definition', 'bbd'],
        columns: [column('TARGET', 'spec.targetType'), column('RELEASED', 'status.latestReleasedVersion')],
      },
    },
    {
      path: DEFINITION_VERSIONS_PATH,
      codecs: VERSION_CODECS,
      index: ['buildingBlockDefinitionUuid'],
      cli: {
        aliases: ['versions', 'version'],
        columns: [
          column('DEFINITION', 'spec.buildingBlockDefinitionRef.uuid'),
          column('VERSION', 'spec.versionNumber'),
          column('STATE', 'spec.state'),
        ],
      },
    },
  ],
  events: DEFINITION_TITLES,
  examples: [
    example('meshBuildingBlockDefinition.v1-preview', {
      metadata: { ownedByWorkspace: 'platform-team' },
      spec: { displayName: 'A building block', description: 'Created by the black-box tests', targetType: 'WORKSPACE_LEVEL' },
    }),
  ],
  references: [
    taggedBy({ kind: 'meshBuildingBlockDefinition', table: 'definitions', keys: ['uuid'], section: 'metadata' }),
    { to: 'workspace', kind: 'meshBuildingBlockDefinitions', table: 'definitions', columns: ['owned_by_workspace'] },
    { to: 'runner', kind: 'meshBuildingBlockDefinitionVersions', table: 'definition_versions', columns: ['runner_uuid'] },
  ],
  build(context) {
    const plain = new DefinitionService(context.db, context.plain('workspaces'), context.secrets, context.recorder, context.references);
    const authorized = new AuthorizedDefinitionService(
      plain,
      context.authorized('runners'),
      context.authorized('tagDefinitions'),
      context.authorized('integrations'),
    );
    return { authorized };
  },
  operations: (services) => definitionOperations(services.definitions),
  importable: ({ definitions }) => [
    // Imported definitions name their uuid, so importing the same file again updates them.
    importable(
      DEFINITION_CODECS,
      (object) => rawText(rawField(object, 'metadata', 'uuid')),
      async (ctx, { input, uuid }) => {
        if (uuid === undefined || !isUuid(uuid)) throw badRequest('metadata.uuid: an imported definition names its uuid');
        const { definition, created } = await definitions.save(ctx, input, uuid);
        return { name: definition.uuid, created };
      },
    ),
    importable(
      VERSION_CODECS,
      (object) => {
        const ref = rawField(object, 'spec', 'buildingBlockDefinitionRef') as { uuid?: unknown } | undefined;
        return `${rawText(ref?.uuid)}.v${String(rawField(object, 'spec', 'versionNumber'))}`;
      },
      async (ctx, { definitionUuid, spec }) => {
        const { version, created } = await definitions.saveVersion(ctx, definitionUuid, spec);
        return { name: `${version.definitionUuid}.v${version.spec.versionNumber}`, created };
      },
    ),
  ],
};
