import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const PLATFORM_TITLES = {
  platformCreated: { title: 'Platform Created', eventType: 'Created' },
  platformNameChanged: { title: 'Platform Name Changed', eventType: 'Changed' },
  platformConfigurationChanged: { title: 'Platform Configuration Changed', eventType: 'Changed' },
  platformSettingsChanged: { title: 'Platform Settings Changed', eventType: 'Changed' },
  platformDeleted: { title: 'Platform Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
