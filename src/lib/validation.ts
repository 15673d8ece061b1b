import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { badRequest } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
FormatRegistry.Set('uuid', (value) => UUID.test(value));
FormatRegistry.Set('date-time', (value) => isDateTime(value));
FormatRegistry.Set('date', (value) => isDate(value));

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The one form a uuid is stored and compared in (lower case), or undefined when the text is no uuid:
 * every kind looks objects up by this, so `ABC…` and `abc…` name the same object everywhere.
 */
export function canonicalUuid(value: string): string | undefined {
  return UUID.test(value) ? value.toLowerCase() : undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * An RFC 3339 `full-date` (`2025-12-31`) that exists in the (proleptic Gregorian) calendar. The shape
 * alone is not enough: `Date.parse` accepts `2025-02-30` and silently means March 2nd.
 */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * An RFC 3339 `date-time` (`2025-12-31T23:59:59.5+02:00`, upper-case `T` and `Z`) whose date exists,
 * hours 00–23, minutes and seconds 00–59, offsets up to ±23:59. A leap second (`:60`) is refused:
 * JavaScript dates cannot represent it, and an instant nobody can compute (an API key's expiry) must
 * not pass as valid.
 */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !isDate(match[1]!)) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  const offsetOk = match[5] === undefined || (Number(match[5]) <= 23 && Number(match[6]) <= 59);
  return hour <= 23 && minute <= 59 && second <= 59 && offsetOk && !Number.isNaN(Date.parse(value));
}

/** `/spec/inputs/0/value` → `spec.inputs[0].value`, the form error messages use to name a field. */
export function fieldName(pointer: string): string {
  if (pointer === '' || pointer === '/') return 'body';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`), '');
}

/**
 * Real clients send `null` for "not set" (COMPAT §1): drop null-valued object properties (not array
 * items) before validation, so `null` and absent mean the same thing everywhere.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a key named `__proto__` stays a key and never becomes the prototype.
      if (item !== null)
        Object.defineProperty(out, key, { value: withoutNulls(item), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/**
 * Compiles a TypeBox schema once into a decoder that returns the typed value or throws a 400 whose
 * message names the first offending field.
 */
export function compileDecoder<T extends TSchema>(schema: T): (value: unknown, prefix?: string) => Static<T> {
  const check = TypeCompiler.Compile(schema);
  return (input: unknown, prefix?: string) => {
    const value = withoutNulls(input);
    if (check.Check(value)) return value;
    const first = check.Errors(value).First();
    const field = first ? fieldName(first.path) : 'body';
    const named = prefix === undefined ? field : field === 'body' ? prefix : `${prefix}.${field}`;
    throw badRequest(`${named}: ${first ? describeError(first.schema, first.value, first.message) : 'invalid'}`);
  };
}

const FORMAT_NAMES: Record<string, string> = {
  date: 'a calendar date (YYYY-MM-DD)',
  'date-time': 'an RFC 3339 date-time (YYYY-MM-DDThh:mm:ssZ)',
  uuid: 'a UUID',
};

/** "Expected union value" says nothing: a union of literals names its allowed values, a union of formats the formats. */
function describeError(schema: TSchema, value: unknown, message: string): string {
  const options = (schema as { anyOf?: { const?: unknown; format?: unknown }[] }).anyOf;
  if (options && options.length > 0 && options.every((option) => typeof option.const === 'string')) {
    return `must be one of ${options.map((option) => option.const).join(', ')}, got ${JSON.stringify(value) ?? 'nothing'}`;
  }
  // A union of string formats (a date or a date-time) names the formats; the value is not echoed.
  if (options && options.length > 0 && options.every((option) => typeof option.format === 'string')) {
    return `must be ${options.map((option) => FORMAT_NAMES[option.format as string] ?? `a valid ${option.format as string}`).join(' or ')}`;
  }
  return message;
}

/** A string that must be one of `values`. */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((value) => Type.Literal(value))) as unknown as TSchema & { static: T[number] };
