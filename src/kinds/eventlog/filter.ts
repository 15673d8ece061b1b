import { sql, type Expression, type SqlBool } from 'kysely';
import type { EventFilter, EventRecord } from './model.js';

/** How letters are folded for "contains": as the database's `lower()` folds them (SQLite: ASCII only). */
export type CaseFolding = 'unicode' | 'ascii';

/** How a field compares an event's value with the filter's. */
type Operator = 'atLeast' | 'before' | 'contains' | 'equals' | 'oneOf' | 'noneOf';

interface FieldRule {
  /** The `events` column the list's SQL reads. */
  readonly column: string;
  /** The same value of an event in memory. */
  readonly value: (event: EventRecord) => string | undefined;
  readonly operator: Operator;
}

/**
 * The event filter, described once: each field's column, value and comparison. The list reads it as
 * SQL (`filterConditions`) and the stream in memory (`matchesFilter`), so both admit the same events:
 * `from` inclusive, `until` exclusive, `title`/`description` contain (case-insensitive), exact
 * `excludeTitles` left out, `workspaces` (a filter and the caller's visibility) keeps only events of
 * those workspaces (never an event of no workspace).
 */
const FIELDS: { readonly [K in keyof Required<EventFilter>]: FieldRule } = {
  from: { column: 'created_at', value: (event) => event.createdAt, operator: 'atLeast' },
  until: { column: 'created_at', value: (event) => event.createdAt, operator: 'before' },
  title: { column: 'title', value: (event) => event.title, operator: 'contains' },
  description: { column: 'description', value: (event) => event.description, operator: 'contains' },
  authorType: { column: 'author_type', value: (event) => event.author.authorType, operator: 'equals' },
  authorIdentifier: { column: 'author_identifier', value: (event) => event.author.identifier, operator: 'equals' },
  eventType: { column: 'event_type', value: (event) => event.eventType, operator: 'equals' },
  workspaces: { column: 'workspace', value: (event) => event.workspace, operator: 'oneOf' },
  excludeTitles: { column: 'title', value: (event) => event.title, operator: 'noneOf' },
};

const setFields = (filter: EventFilter) =>
  (Object.keys(FIELDS) as (keyof EventFilter)[]).flatMap((field) => {
    const wanted = filter[field];
    return wanted === undefined ? [] : [{ rule: FIELDS[field], wanted }];
  });

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
const fold = (text: string, folding: CaseFolding) => (folding === 'ascii' ? asciiLower(text) : text.toLowerCase());

function admits(operator: Operator, value: string | undefined, wanted: string | readonly string[], folding: CaseFolding): boolean {
  if (operator === 'oneOf') return value !== undefined && (wanted as readonly string[]).includes(value);
  if (operator === 'noneOf') return value === undefined || !(wanted as readonly string[]).includes(value);
  if (value === undefined) return false;
  const one = wanted as string;
  if (operator === 'atLeast') return Date.parse(value) >= Date.parse(one);
  if (operator === 'before') return Date.parse(value) < Date.parse(one);
  if (operator === 'contains') return fold(value, folding).includes(fold(one, folding));
  return value === one;
}

/** Whether an event passes a filter: what a stream delivers, in memory, folding case as the database does. */
export function matchesFilter(event: EventRecord, filter: EventFilter, folding: CaseFolding = 'unicode'): boolean {
  return setFields(filter).every(({ rule, wanted }) => admits(rule.operator, rule.value(event), wanted, folding));
}

/** A case-insensitive "contains" pattern for LIKE (`\\` escapes the wildcards the text holds). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function condition(operator: Operator, column: string, wanted: string | readonly string[]): Expression<SqlBool> | 'none' | 'all' {
  const ref = sql.ref(column);
  const list = wanted as readonly string[];
  if (operator === 'oneOf') return list.length === 0 ? 'none' : sql<SqlBool>`${ref} in (${sql.join(list)})`;
  if (operator === 'noneOf') return list.length === 0 ? 'all' : sql<SqlBool>`${ref} not in (${sql.join(list)})`;
  const one = wanted as string;
  if (operator === 'atLeast') return sql<SqlBool>`${ref} >= ${one}`;
  if (operator === 'before') return sql<SqlBool>`${ref} < ${one}`;
  if (operator === 'contains') return sql<SqlBool>`lower(${ref}) like lower(${containing(one)}) escape '\\'`;
  return sql<SqlBool>`${ref} = ${one}`;
}

/** The list's SQL conditions of a filter (all must hold), or `none` when no event can pass it. */
export function filterConditions(filter: EventFilter): Expression<SqlBool>[] | 'none' {
  const conditions: Expression<SqlBool>[] = [];
  for (const { rule, wanted } of setFields(filter)) {
    const made = condition(rule.operator, rule.column, wanted);
    if (made === 'none') return 'none';
    if (made !== 'all') conditions.push(made);
  }
  return conditions;
}
