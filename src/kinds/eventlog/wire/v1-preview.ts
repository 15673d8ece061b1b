import type { EncodeView } from '../../codec.js';
import { objectUrl, PATHS } from '../../paths.js';
import type { EventRecord } from '../model.js';

/** meshEventLog v1-preview (OpenAPI `meshEventLog`): read-only. */
export const eventLogV1Preview = {
  media: { kind: 'mesheventlog', version: 'v1-preview' } as const,
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
      _links: { self: { href: objectUrl(baseUrl, PATHS.eventLogs, event.uuid) } },
    };
  },
};
