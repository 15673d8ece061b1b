import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const COMMUNICATION_DEFINITION_TITLES = {
  communicationDefinitionCreated: { title: 'Communication Definition Created', eventType: 'Created' },
  communicationDefinitionUpdated: { title: 'Communication Definition Updated', eventType: 'Changed' },
  communicationDefinitionDeleted: { title: 'Communication Definition Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
