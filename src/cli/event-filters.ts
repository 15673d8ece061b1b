/**
 * `blockyard events` options → the list's query parameters (the event log's filters, spec §2.9);
 * apart from events.ts, so that declaring the options loads no codec.
 */
export const EVENT_FILTERS = [
  { option: 'title', parameter: 'title', description: 'title contains (case-insensitive)' },
  { option: 'description', parameter: 'description', description: 'description contains (case-insensitive)' },
  { option: 'author-type', parameter: 'authorType', description: 'ApiKey, ApiUser, System or User' },
  { option: 'author', parameter: 'authorIdentifier', description: "the author's identifier" },
  { option: 'event-type', parameter: 'eventType', description: 'Created, Changed, Deleted, …' },
  { option: 'workspace', parameter: 'workspaceIdentifier', description: 'the workspace identifier' },
  { option: 'workspace-name', parameter: 'workspaceName', description: 'workspace name contains' },
  { option: 'from', parameter: 'from', description: 'not before this instant' },
  { option: 'until', parameter: 'until', description: 'not after this instant' },
] as const;
