import { Type, type TSchema } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { compileDecoder, StringEnum } from '../../../lib/validation.js';
import { KindOf, NonEmptyShortString } from '../../../lib/wire-schemas.js';
import type { RelationsView } from '../../codec.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
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
const decodeCreate = compileDecoder(Body);
const decodeUpdate = compileDecoder(envelope(Type.Object({ ...contentFields, type: Type.Optional(CommunicationTypeSchema) })));

const Link = Type.Object({ href: Type.String() });
const Counter = Type.Integer({ minimum: 0 });

/** What `encode` answers (the served OpenAPI reads it as the response schema). */
const schema = Type.Object({
  apiVersion: Type.Literal('v1-preview'),
  kind: Type.Literal('meshCommunicationDefinition'),
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
});

/**
 * meshCommunicationDefinition v1-preview (OpenAPI): `spec.communication.{title, message (Markdown),
 * dueDate, type, skipEmailNotifications}` (default false) and the counters in `status`.
 */
export const communicationDefinitionV1Preview = {
  media: { kind: 'meshcommunicationdefinition', version: 'v1-preview' } as const,
  schema,
  bodySchema: Body,
  decode(input: unknown): CommunicationContent {
    return withDefaults(decodeCreate(input).spec.communication);
  },
  decodeUpdate(input: unknown): { uuid?: string; communication: CommunicationContentUpdate } {
    const { metadata, spec } = decodeUpdate(input);
    return { ...(metadata?.uuid !== undefined ? { uuid: metadata.uuid } : {}), communication: withDefaults(spec.communication) };
  },
  encode(definition: CommunicationDefinition, view: RelationsView) {
    const { baseUrl } = view;
    const { counters, communication } = definition;
    return {
      apiVersion: 'v1-preview' as const,
      kind: 'meshCommunicationDefinition' as const,
      metadata: { uuid: definition.uuid, createdOn: definition.createdOn },
      spec: { communication: { ...communication } },
      status: isResolvable(communication.type)
        ? { communicationsTotal: counters.total, communicationsResolved: counters.resolved, communicationsOpen: counters.open }
        : { communicationsTotal: counters.total },
      _links: {
        self: { href: objectUrl(baseUrl, COMMUNICATION_DEFINITIONS_PATH, definition.uuid) },
        // Sent to many workspaces: the communications of the caller's.
        ...relatedLinks(view, {
          meshcommunications: { rel: 'meshcommunications', query: `?communicationDefinitionUuid=${definition.uuid}` },
        }),
      },
    };
  },
};

function withDefaults<T extends { skipEmailNotifications?: boolean }>(sent: T): T & { skipEmailNotifications: boolean } {
  return { ...sent, skipEmailNotifications: sent.skipEmailNotifications ?? false };
}
