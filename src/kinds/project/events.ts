import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const PROJECT_TITLES = {
  projectCreated: { title: 'Project Created', eventType: 'Created' },
  projectNameChanged: { title: 'Project Name Changed', eventType: 'Changed' },
  projectTagsChanged: { title: 'Project Tags Changed', eventType: 'Changed' },
  /** new */
  projectChanged: { title: 'Project Changed', eventType: 'Changed' },
  projectDeleted: { title: 'Project Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
