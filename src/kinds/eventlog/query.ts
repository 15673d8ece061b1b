import { badRequest } from '../../lib/errors.js';
import { Filter, filterValue, filterValues, RepeatableFilter, type Query } from '../../lib/query.js';
import { isDate, isDateTime } from '../../lib/validation.js';
import { AUTHOR_TYPES, EVENT_TYPES, type AuthorType, type EventFilter, type EventType } from './model.js';

/**
 * The event log's filters as a client sends them (list and stream alike), checked: everything of an
 * `EventFilter` but the workspaces, and the workspace named either way. The authorized service turns
 * this into an `EventFilter` (`AuthorizedEventLogService.filterFor`): it resolves `workspaceName` and
 * folds in what the caller may see.
 */
export interface EventQuery extends Omit<EventFilter, 'workspaces'> {
  /** Contains, case-insensitive, on the workspace's display name. */
  workspaceName?: string;
  /** Exact workspace identifier (`spec.workspaceRef.name`). */
  workspaceIdentifier?: string;
}

/** An instant as stored (`toISOString`, UTC with milliseconds), so instants compare as strings. */
function instant(name: string, query: Query): string | undefined {
  const value = filterValue(query, name);
  if (value === undefined) return undefined;
  const ok = isDateTime(value) || isDate(value);
  const time = ok ? Date.parse(isDate(value) ? `${value}T00:00:00Z` : value) : Number.NaN;
  if (!ok || Number.isNaN(time))
    throw badRequest(
      `${name}: must be an ISO-8601 instant such as 2025-05-29T00:00:00Z (or a date, meaning its midnight UTC), got "${value}"`,
    );
  return new Date(time).toISOString();
}

function oneOf<T extends string>(name: string, query: Query, allowed: readonly T[]): T | undefined {
  const value = filterValue(query, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** The event log's filters (list and stream), as their routes document them. */
export const EVENT_FILTERS = {
  from: Filter('events at or after this instant (ISO-8601, or a date: its midnight UTC)'),
  until: Filter('events before this instant (ISO-8601, or a date: its midnight UTC)'),
  title: Filter('events whose title contains this (case-insensitive)'),
  description: Filter('events whose description contains this (case-insensitive)'),
  authorType: Filter('events by this kind of author', { enum: AUTHOR_TYPES }),
  authorIdentifier: Filter('events by this author'),
  eventType: Filter('events of this type', { enum: EVENT_TYPES }),
  workspaceName: Filter('events of workspaces whose display name contains this (not with workspaceIdentifier)'),
  workspaceIdentifier: Filter('events of this workspace (not with workspaceName)'),
  excludeTitle: RepeatableFilter('leave out events with any of these titles'),
};

/**
 * The documented filters of `GET /api/meshobjects/mesheventlogs`: `from` (inclusive) and `until`
 * (exclusive) instants, `title` and `description` (contains, case-insensitive), `authorType` (ApiKey,
 * ApiUser, System, User) and `authorIdentifier` (exact), `eventType`, `workspaceName` (contains, on
 * the display name) or `workspaceIdentifier` (exact; both: 400), `excludeTitle` (repeatable, exact).
 * Empty parameters are ignored; a bad value is 400 naming the parameter.
 */
export function parseEventQuery(query: Query): EventQuery {
  const parsed: EventQuery = {};
  const from = instant('from', query);
  const until = instant('until', query);
  if (from !== undefined) parsed.from = from;
  if (until !== undefined) parsed.until = until;
  const title = filterValue(query, 'title');
  const description = filterValue(query, 'description');
  if (title !== undefined) parsed.title = title;
  if (description !== undefined) parsed.description = description;
  const authorType = oneOf<AuthorType>('authorType', query, AUTHOR_TYPES);
  const authorIdentifier = filterValue(query, 'authorIdentifier');
  if (authorType !== undefined) parsed.authorType = authorType;
  if (authorIdentifier !== undefined) parsed.authorIdentifier = authorIdentifier;
  const eventType = oneOf<EventType>('eventType', query, EVENT_TYPES);
  if (eventType !== undefined) parsed.eventType = eventType;
  const workspaceName = filterValue(query, 'workspaceName');
  const workspaceIdentifier = filterValue(query, 'workspaceIdentifier');
  if (workspaceName !== undefined && workspaceIdentifier !== undefined)
    throw badRequest('workspaceName: cannot be combined with workspaceIdentifier; send one of them');
  if (workspaceName !== undefined) parsed.workspaceName = workspaceName;
  if (workspaceIdentifier !== undefined) parsed.workspaceIdentifier = workspaceIdentifier;
  const excluded = filterValues(query, 'excludeTitle');
  if (excluded !== undefined) parsed.excludeTitles = excluded;
  return parsed;
}
