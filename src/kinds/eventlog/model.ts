import type { RequestContext } from '../../auth/context.js';

/** Its collection path. */
export const EVENT_LOGS_PATH = '/api/meshobjects/mesheventlogs';

/** `spec.eventType` values the OpenAPI lists. */
export const EVENT_TYPES = ['Added', 'Approved', 'Cancelled', 'Changed', 'Created', 'Deleted', 'Rejected', 'Removed', 'Requested'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `spec.author.authorType` values a filter may name (`Unknown` is only ever read, never written here). */
export const AUTHOR_TYPES = ['ApiKey', 'ApiUser', 'System', 'User'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

export interface Author {
  authorType: AuthorType;
  identifier: string;
}

/** What a change says about itself; the recorder adds the uuid, the instant, the author and the order. */
export interface EventDraft {
  title: string;
  eventType: EventType;
  description: string;
  /** The workspace the changed object belongs to: its members (and admins) see the event. */
  workspace?: string;
  /** The object after the change as the kind's GET answers a reader of `workspace` (titles.ts `eventOf`). */
  content: unknown;
  /** The object before the change; only for `Changed`. */
  previousContent?: unknown;
}

/** An event as stored. `seq` is its position: lists and streams are ordered by it (streams read only what is settled: `SettledLog`). */
export interface EventRecord extends EventDraft {
  seq: number;
  uuid: string;
  createdAt: string;
  author: Author;
}

/** Who made a change, as the event log names it. */
export function authorOf(ctx: RequestContext): Author {
  const principal = ctx.principal;
  switch (principal.type) {
    case 'apiKey':
      return { authorType: 'ApiKey', identifier: principal.id };
    case 'apiUser':
      return { authorType: 'ApiUser', identifier: principal.id };
    case 'person':
      return { authorType: 'User', identifier: principal.id };
    case 'runToken': {
      // A run token acts for whoever claimed the run (the runner's key, or an API user).
      const claimedBy = principal.claimedBy ?? '';
      const colon = claimedBy.indexOf(':');
      if (claimedBy.slice(0, colon) === 'apiUser') return { authorType: 'ApiUser', identifier: claimedBy.slice(colon + 1) };
      if (claimedBy.slice(0, colon) === 'apiKey') return { authorType: 'ApiKey', identifier: claimedBy.slice(colon + 1) };
      return { authorType: 'ApiKey', identifier: principal.id };
    }
    case 'system':
      return { authorType: 'System', identifier: 'system' };
    case 'scim':
      // An identity system provisioning through SCIM: a system, named by its SCIM token.
      return { authorType: 'System', identifier: `scim:${principal.id}` };
  }
}

/**
 * A list's or a stream's filters after parsing and resolving (`workspaceName` becomes the identifiers
 * of the workspaces whose display name contains it), with the caller's visibility folded in. The
 * list applies it in SQL, a stream in memory: both read its one description (`filter.ts`).
 */
export interface EventFilter {
  /** Inclusive. */
  from?: string;
  /** Exclusive. */
  until?: string;
  /** Contains, case-insensitive. */
  title?: string;
  /** Contains, case-insensitive. */
  description?: string;
  authorType?: AuthorType;
  authorIdentifier?: string;
  eventType?: EventType;
  /** Only events of these workspaces (a filter, or what the caller may see); undefined: any, and events of no workspace too. */
  workspaces?: readonly string[];
  /** Exact titles left out. */
  excludeTitles?: readonly string[];
}
