import { Type } from '@sinclair/typebox';
import { Echoed, ObjectAnswer, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import type { OfferedVersion } from '../model.js';
import { definitionRef, InputAnswer, VersionSpecHead, VersionMetadata, versionLinks, versionMetadata } from './version-v1-preview.js';

/**
 * meshBuildingBlockDefinitionVersion v1-preview as the workspaces a published version is offered to
 * read it (model.ts `offeredVersion`): the owner's answer without `implementation`, `runnerRef`,
 * input arguments and secrets; a sensitive input's default is null beside `hasDefaultValue`.
 */
const Answer = ObjectAnswer(
  'v1-preview',
  'meshBuildingBlockDefinitionVersion',
  {
    metadata: VersionMetadata,
    spec: Echoed({
      ...VersionSpecHead,
      dependencyDefinitionRefs: Type.Array(Type.Object({ uuid: Uuid, kind: Type.Literal('meshBuildingBlockDefinition') })),
      permissions: Type.Array(Type.String()),
      inputs: Type.Record(
        Type.String(),
        Echoed({
          ...InputAnswer,
          hasDefaultValue: Type.Optional(Type.Literal(true, { description: 'a sensitive input has a default (never shown)' })),
        }),
      ),
      outputs: Type.Record(Type.String(), Echoed({})),
    }),
    status: Type.Object({ reviewState: Type.Literal('APPROVED') }),
  },
  { description: 'the version as offered to other workspaces (for ordering): no implementation, runner, arguments or secrets' },
);

export const offeredVersionV1Preview = {
  schema: Answer,
  encode: (version: OfferedVersion, view: RelationsView) => ({
    apiVersion: 'v1-preview',
    kind: 'meshBuildingBlockDefinitionVersion',
    metadata: versionMetadata(version),
    spec: { buildingBlockDefinitionRef: definitionRef(version), ...version.spec },
    status: { reviewState: 'APPROVED' },
    _links: versionLinks(version, view),
  }),
};
