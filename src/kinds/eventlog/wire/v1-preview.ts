import { Type } from '@sinclair/typebox';
import { AnyValue, DateTime, Identifier, Links, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { objectUrl } from '../../paths.js';
import type { EventRecord } from '../model.js';
import { EVENT_LOGS_PATH } from '../model.js';

const Answer = Type.Object({
  kind: Type.Literal('meshEventLog'),
  apiVersion: Type.Literal('v1-preview'),
  metadata: Type.Object({ uuid: Uuid, createdAt: DateTime }),
  spec: Type.Object({
    title: Type.String(),
    eventType: Type.String(),
    description: Type.String(),
    workspaceRef: Type.Optional(Type.Object({ name: Identifier, kind: Type.Literal('meshWorkspace') })),
    content: AnyValue,
    previousContent: Type.Optional(AnyValue),
    author: AnyValue,
  }),
  _links: Links,
});

/** meshEventLog v1-preview (OpenAPI `meshEventLog`): read-only. */
export const eventLogV1Preview = {
  media: { kind: 'mesheventlog', version: 'v1-preview' } as const,
  schema: Answer,
  encode(event: EventRecord, { baseUrl }: EncodeView) {
    return {
      kind: 'meshEventLog',
      apiVersion: 'v1-preview',
      metadata: { uuid: event.uuid, createdAt: event.createdAt },
      spec: {
        title: event.title,
        eventType: event.eventType,
        description: event.description,
        ...(event.workspace !== undefined ? { workspaceRef: { name: event.workspace, kind: 'meshWorkspace' } } : {}),
        content: event.content ?? {},
        ...(event.previousContent !== undefined ? { previousContent: event.previousContent } : {}),
        author: event.author,
      },
      _links: { self: { href: objectUrl(baseUrl, EVENT_LOGS_PATH, event.uuid) } },
    };
  },
};
