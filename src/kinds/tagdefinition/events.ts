import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const TAG_DEFINITION_TITLES = {
  tagDefinitionCreated: { title: 'Tag Definition Created', eventType: 'Created' },
  tagDefinitionChanged: { title: 'Tag Definition Changed', eventType: 'Changed' },
  tagDefinitionDeleted: { title: 'Tag Definition Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
