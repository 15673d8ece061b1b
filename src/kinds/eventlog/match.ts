import type { EventFilter, EventRecord } from './model.js';

/** Case-insensitive "contains", as the list's SQL filter reads it. */
const contains = (value: string, part: string) => value.toLowerCase().includes(part.toLowerCase());

/**
 * Whether an event passes a filter: what a stream delivers, in memory. The same semantics as the
 * list's SQL (`model.ts` EventFilter): `from` inclusive, `until` exclusive, `title`/`description`
 * contain (case-insensitive), exact `excludeTitles` left out, `workspaces` (a filter and the caller's
 * visibility) keeps only events of those workspaces (never an event of no workspace).
 */
export function matchesFilter(event: EventRecord, filter: EventFilter): boolean {
  if (filter.from !== undefined || filter.until !== undefined) {
    const at = Date.parse(event.createdAt);
    if (filter.from !== undefined && at < Date.parse(filter.from)) return false;
    if (filter.until !== undefined && at >= Date.parse(filter.until)) return false;
  }
  if (filter.title !== undefined && !contains(event.title, filter.title)) return false;
  if (filter.description !== undefined && !contains(event.description, filter.description)) return false;
  if (filter.authorType !== undefined && event.author.authorType !== filter.authorType) return false;
  if (filter.authorIdentifier !== undefined && event.author.identifier !== filter.authorIdentifier) return false;
  if (filter.eventType !== undefined && event.eventType !== filter.eventType) return false;
  if (filter.workspaces !== undefined && (event.workspace === undefined || !filter.workspaces.includes(event.workspace))) return false;
  if (filter.excludeTitles !== undefined && filter.excludeTitles.includes(event.title)) return false;
  return true;
}
