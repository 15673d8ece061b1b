import { Type, type TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.js';

/**
 * A request's query parameters. A repeated parameter counts once (the last), so every value is a
 * string; the documented repeatable filters (tenants' `state`, platforms' `contributingWorkspace`)
 * read every value with `filterValues`.
 */
export type Query = Record<string, string | undefined>;

const EVERY_VALUE = Symbol('every value of each parameter');
type WithEveryValue = Query & { [EVERY_VALUE]?: Record<string, string[]> };

/** At most this many values of one repeatable filter (each becomes a bound parameter of a query). */
export const MAX_FILTER_VALUES = 100;

/** The query string as a `Query` (the last value of each name), keeping every value for `filterValues`. */
export function parseQueryString(text: string): Query {
  // Most reads have no query at all (Fastify asks for every request).
  if (text === '') return {};
  const params = new URLSearchParams(text);
  const query: WithEveryValue = Object.fromEntries(params);
  const every: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of params) (every[name] ??= []).push(value);
  Object.defineProperty(query, EVERY_VALUE, { value: every, enumerable: false });
  return query;
}

/** An exact-match filter value: empty parameters are ignored (COMPAT §4). */
export const filterValue = (query: Query, name: string) => (query[name] === undefined || query[name] === '' ? undefined : query[name]);

/**
 * Every value of a repeatable filter (`state=ACTIVE&state=DELETED`: either matches), empty ones
 * ignored, each once, in the order sent; undefined when there is none. 400 above MAX_FILTER_VALUES.
 */
export function filterValues(query: Query, name: string): string[] | undefined {
  const sent = (query as WithEveryValue)[EVERY_VALUE]?.[name] ?? (query[name] === undefined ? [] : [query[name]]);
  const values = [...new Set(sent.filter((value) => value !== ''))];
  if (values.length > MAX_FILTER_VALUES) throw badRequest(`${name}: at most ${MAX_FILTER_VALUES} values, got ${values.length}`);
  return values.length === 0 ? undefined : values;
}

/** A documented filter (route schemas): an optional string parameter with its description. */
export const Filter = (description: string, options: { enum?: readonly string[]; format?: string } = {}): TSchema =>
  Type.Optional(
    Type.String({
      description,
      ...(options.enum ? { enum: [...options.enum] } : {}),
      ...(options.format ? { format: options.format } : {}),
    }),
  );

/** A documented repeatable filter (`name=a&name=b`: any of them). */
export const RepeatableFilter = (description: string, options: { enum?: readonly string[] } = {}): TSchema =>
  Type.Optional(Type.Array(Type.String(options.enum ? { enum: [...options.enum] } : {}), { description }));
