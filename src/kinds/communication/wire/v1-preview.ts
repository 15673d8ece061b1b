import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../lib/validation.js';
import { KindOf, NonEmptyShortString, Uuid } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { COMMUNICATION_TYPES } from '../../communicationdefinition/model.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
import { objectVersion } from '../../wire-helpers.js';
import { COMMUNICATIONS_PATH, RESOLUTION_STATUSES, TARGET_KINDS, type Communication, type CommunicationInput } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshCommunication'),
  spec: Type.Object({
    targetMeshObjectRef: Type.Object({ kind: StringEnum(TARGET_KINDS), name: NonEmptyShortString }),
    communicationDefinitionRef: Type.Object({ kind: KindOf('meshCommunicationDefinition'), uuid: Uuid }),
  }),
});

const Link = Type.Object({ href: Type.String() });

/**
 * meshCommunication v1-preview (OpenAPI): `spec.{targetMeshObjectRef, communicationDefinitionRef}`,
 * `status.{resolutionStatus, meshCommunicationDefinition}`; an OPEN one links its `resolve` operation.
 */
export const communicationV1Preview = objectVersion('meshCommunication', 'v1-preview', {
  answer: {
    metadata: Type.Object({ uuid: Type.String(), ownedByWorkspace: Type.String(), createdOn: Type.String() }),
    spec: Type.Object({
      targetMeshObjectRef: Type.Object({ kind: StringEnum(TARGET_KINDS), name: Type.String() }),
      communicationDefinitionRef: Type.Object({ uuid: Type.String(), kind: Type.Literal('meshCommunicationDefinition') }),
    }),
    status: Type.Object({
      // "only present if the associated communication definition is of type ACTION_REQUIRED"
      resolutionStatus: Type.Optional(StringEnum(RESOLUTION_STATUSES)),
      meshCommunicationDefinition: Type.Object({
        uuid: Type.String(),
        title: Type.String(),
        dueDate: Type.String(),
        communicationType: StringEnum(COMMUNICATION_TYPES),
      }),
    }),
    _links: Type.Object({ self: Link, meshcommunicationdefinition: Type.Optional(Link), resolve: Type.Optional(Link) }),
  },
  body: Body,
  decode: ({ spec }): CommunicationInput => ({
    definitionUuid: spec.communicationDefinitionRef.uuid.toLowerCase(),
    target: { kind: spec.targetMeshObjectRef.kind, name: spec.targetMeshObjectRef.name },
  }),
  encode(communication: Communication, view: RelationsView) {
    const { definition } = communication;
    const self = objectUrl(view.baseUrl, COMMUNICATIONS_PATH, communication.uuid);
    return {
      metadata: { uuid: communication.uuid, ownedByWorkspace: communication.workspace, createdOn: communication.createdOn },
      spec: {
        targetMeshObjectRef: { ...communication.target },
        communicationDefinitionRef: { uuid: definition.uuid, kind: 'meshCommunicationDefinition' as const },
      },
      status: {
        ...(communication.resolutionStatus !== undefined ? { resolutionStatus: communication.resolutionStatus } : {}),
        meshCommunicationDefinition: {
          uuid: definition.uuid,
          title: definition.title,
          dueDate: definition.dueDate,
          communicationType: definition.type,
        },
      },
      _links: {
        self: { href: self },
        ...relatedLinks(view, { meshcommunicationdefinition: { rel: 'meshcommunicationdefinitions', id: definition.uuid } }),
        ...(communication.resolutionStatus === 'OPEN' ? { resolve: { href: `${self}/resolve` } } : {}),
      },
    };
  },
});
