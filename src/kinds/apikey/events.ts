import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const API_KEY_TITLES = {
  apiKeyCreated: { title: 'API Key Created', eventType: 'Created' },
  apiKeyChanged: { title: 'API Key Changed', eventType: 'Changed' },
  /** new (like "API User Password Rotated") */
  apiKeySecretRotated: { title: 'API Key Secret Rotated', eventType: 'Changed' },
  apiKeyDeleted: { title: 'API Key Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
