import type { EventTitle } from '../eventlog/titles.js';

/** The events this kind writes: each one's title (the OpenAPI's list where it has one, the same style where it has none — marked "new") and `eventType`. */
export const WORKSPACE_TITLES = {
  workspaceCreated: { title: 'Workspace Created', eventType: 'Created' },
  workspaceNameChanged: { title: 'Workspace Name Changed', eventType: 'Changed' },
  workspaceTagsChanged: { title: 'Workspace Tags Changed', eventType: 'Changed' },
  /** new: a change of neither name nor tags (`platformBuilderAccessEnabled`). */
  workspaceChanged: { title: 'Workspace Changed', eventType: 'Changed' },
  workspaceDeleted: { title: 'Workspace Deleted', eventType: 'Deleted' },
} as const satisfies Record<string, EventTitle>;
