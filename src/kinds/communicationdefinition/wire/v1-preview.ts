import { Type, type TSchema } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder, StringEnum } from '../../../lib/validation.js';
import { KindOf, NonEmptyShortString } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import {
  COMMUNICATION_DEFINITIONS_PATH,
  COMMUNICATION_TYPES,
  isResolvable,
  type CommunicationContent,
  type CommunicationContentUpdate,
  type CommunicationDefinition,
} from '../model.js';

const CommunicationTypeSchema = StringEnum(COMMUNICATION_TYPES);
const contentFields = {
  title: NonEmptyShortString,
  message: Type.String({ minLength: 1, maxLength: TEXT_LIMITS.communicationMessage }),
  dueDate: Type.String({ format: 'date' }),
  skipEmailNotifications: Type.Optional(Type.Boolean()),
};
// `metadata.uuid` may be sent (a PUT names the object of its path); it is never taken from a body.
const envelope = <T extends TSchema>(communication: T) =>
  Type.Object({
    kind: KindOf('meshCommunicationDefinition'),
    metadata: Type.Optional(Type.Object({ uuid: Type.Optional(Type.String()) })),
    spec: Type.Object({ communication }),
  });
const Body = envelope(Type.Object({ ...contentFields, type: CommunicationTypeSchema }));
const decodeUpdate = compileDecoder(envelope(Type.Object({ ...contentFields, type: Type.Optional(CommunicationTypeSchema) })));

const Link = Type.Object({ href: Type.String() });
const Counter = Type.Integer({ minimum: 0 });

/**
 * meshCommunicationDefinition v1-preview (OpenAPI): `spec.communication.{title, message (Markdown),
 * dueDate, type, skipEmailNotifications}` (default false) and the counters in `status`.
 */
export const communicationDefinitionV1Preview = {
  ...objectVersion('meshCommunicationDefinition', 'v1-preview', {
    answer: {
      metadata: Type.Object({ uuid: Type.String(), createdOn: Type.String() }),
      spec: Type.Object({
        communication: Type.Object({
          title: Type.String(),
          message: Type.String(),
          dueDate: Type.String(),
          type: CommunicationTypeSchema,
          skipEmailNotifications: Type.Boolean(),
        }),
      }),
      // The open and resolved counts only for ACTION_REQUIRED: "other types of communications are not meant to be resolved".
      status: Type.Object({
        communicationsTotal: Counter,
        communicationsResolved: Type.Optional(Counter),
        communicationsOpen: Type.Optional(Counter),
      }),
      _links: Type.Object({ self: Link, meshcommunications: Type.Optional(Link) }),
    },
    body: Body,
    decode: (body): CommunicationContent => withDefaults(body.spec.communication),
    encode(definition: CommunicationDefinition, view: RelationsView) {
      const { counters, communication } = definition;
      return {
        metadata: { uuid: definition.uuid, createdOn: definition.createdOn },
        spec: { communication: { ...communication } },
        status: isResolvable(communication.type)
          ? { communicationsTotal: counters.total, communicationsResolved: counters.resolved, communicationsOpen: counters.open }
          : { communicationsTotal: counters.total },
        // Sent to many workspaces: the communications of the caller's.
        _links: objectLinks(view, COMMUNICATION_DEFINITIONS_PATH, definition.uuid, {
          meshcommunications: { rel: 'meshcommunications', query: `?communicationDefinitionUuid=${definition.uuid}` },
        }),
      };
    },
  }),
  decodeUpdate(input: unknown): { uuid?: string; communication: CommunicationContentUpdate } {
    const { metadata, spec } = decodeUpdate(input);
    return { ...(metadata?.uuid !== undefined ? { uuid: metadata.uuid } : {}), communication: withDefaults(spec.communication) };
  },
};

function withDefaults<T extends { skipEmailNotifications?: boolean }>(sent: T): T & { skipEmailNotifications: boolean } {
  return { ...sent, skipEmailNotifications: sent.skipEmailNotifications ?? false };
}
