import type { EventFilter, EventRecord } from './model.js';

/** How letters are folded for "contains": as the database's `lower()` folds them (SQLite: ASCII only). */
export type CaseFolding = 'unicode' | 'ascii';

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
const fold = (text: string, folding: CaseFolding) => (folding === 'ascii' ? asciiLower(text) : text.toLowerCase());
/** Case-insensitive "contains", as the list's SQL filter (`lower(x) like lower('%…%')`) reads it. */
const contains = (value: string, part: string, folding: CaseFolding) => fold(value, folding).includes(fold(part, folding));

/**
 * Whether an event passes a filter: what a stream delivers, in memory. The same semantics as the
 * list's SQL (`model.ts` EventFilter): `from` inclusive, `until` exclusive, `title`/`description`
 * contain (case-insensitive, folded as the database folds: `folding`), exact `excludeTitles` left out, `workspaces` (a filter and the caller's
 * visibility) keeps only events of those workspaces (never an event of no workspace).
 */
export function matchesFilter(event: EventRecord, filter: EventFilter, folding: CaseFolding = 'unicode'): boolean {
  if (filter.from !== undefined || filter.until !== undefined) {
    const at = Date.parse(event.createdAt);
    if (filter.from !== undefined && at < Date.parse(filter.from)) return false;
    if (filter.until !== undefined && at >= Date.parse(filter.until)) return false;
  }
  if (filter.title !== undefined && !contains(event.title, filter.title, folding)) return false;
  if (filter.description !== undefined && !contains(event.description, filter.description, folding)) return false;
  if (filter.authorType !== undefined && event.author.authorType !== filter.authorType) return false;
  if (filter.authorIdentifier !== undefined && event.author.identifier !== filter.authorIdentifier) return false;
  if (filter.eventType !== undefined && event.eventType !== filter.eventType) return false;
  if (filter.workspaces !== undefined && (event.workspace === undefined || !filter.workspaces.includes(event.workspace))) return false;
  if (filter.excludeTitles !== undefined && filter.excludeTitles.includes(event.title)) return false;
  return true;
}
