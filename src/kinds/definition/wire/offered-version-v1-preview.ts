import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../lib/validation.js';
import { AnyValue, DateTime, Echoed, Identifier, Links, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
import { DELETION_MODES, INPUT_ASSIGNMENT_TYPES, VALUE_TYPES, VERSION_STATES } from '../enums.js';
import type { OfferedVersion } from '../model.js';
import { DEFINITION_VERSIONS_PATH } from '../model.js';

/**
 * meshBuildingBlockDefinitionVersion v1-preview as the workspaces a published version is offered to
 * read it (model.ts `offeredVersion`): the owner's answer without `implementation`, `runnerRef`,
 * input arguments and secrets; a sensitive input's default is null beside `hasDefaultValue`.
 */
const Answer = Type.Object(
  {
    apiVersion: Type.Literal('v1-preview'),
    kind: Type.Literal('meshBuildingBlockDefinitionVersion'),
    metadata: Type.Object({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Echoed({
      buildingBlockDefinitionRef: Type.Object({ uuid: Uuid, kind: Type.Literal('meshBuildingBlockDefinition') }),
      versionNumber: Type.Integer(),
      state: StringEnum(VERSION_STATES),
      onlyApplyOncePerTenant: Type.Boolean(),
      deletionMode: StringEnum(DELETION_MODES),
      dependencyDefinitionRefs: Type.Array(Type.Object({ uuid: Uuid, kind: Type.Literal('meshBuildingBlockDefinition') })),
      permissions: Type.Array(Type.String()),
      inputs: Type.Record(
        Type.String(),
        Echoed({
          displayName: Type.String(),
          type: StringEnum(VALUE_TYPES),
          assignmentType: StringEnum(INPUT_ASSIGNMENT_TYPES),
          defaultValue: AnyValue,
          hasDefaultValue: Type.Optional(Type.Literal(true, { description: 'a sensitive input has a default (never shown)' })),
        }),
      ),
      outputs: Type.Record(Type.String(), Echoed({})),
    }),
    status: Type.Object({ reviewState: Type.Literal('APPROVED') }),
    _links: Links,
  },
  { description: 'the version as offered to other workspaces (for ordering): no implementation, runner, arguments or secrets' },
);

export const offeredVersionV1Preview = {
  schema: Answer,
  encode(version: OfferedVersion, view: RelationsView) {
    const { spec } = version;
    return {
      apiVersion: 'v1-preview',
      kind: 'meshBuildingBlockDefinitionVersion',
      metadata: { uuid: version.uuid, ownedByWorkspace: version.ownedByWorkspace, createdOn: version.createdOn },
      spec: { buildingBlockDefinitionRef: { uuid: version.definitionUuid, kind: 'meshBuildingBlockDefinition' }, ...spec },
      status: { reviewState: 'APPROVED' },
      _links: {
        self: { href: objectUrl(view.baseUrl, DEFINITION_VERSIONS_PATH, version.uuid) },
        ...relatedLinks(view, { buildingBlockDefinition: { rel: 'meshbuildingblockdefinitions', id: version.definitionUuid } }),
      },
    };
  },
};
