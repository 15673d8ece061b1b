import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { badRequest } from '../errors.js';

/** Every string the spec does not exempt is limited to 255 characters (spec §2.1, §8). */
export const MAX_STRING = 255;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
FormatRegistry.Set('uuid', (value) => UUID.test(value));
FormatRegistry.Set('date-time', (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)));
FormatRegistry.Set('date', (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));

export function isUuid(value: string): boolean {
  return UUID.test(value);
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
      if (item !== null) Object.defineProperty(out, key, { value: withoutNulls(item), enumerable: true, writable: true, configurable: true });
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

/** "Expected union value" says nothing: a union of literals names its allowed values instead. */
function describeError(schema: TSchema, value: unknown, message: string): string {
  const options = (schema as { anyOf?: { const?: unknown }[] }).anyOf;
  if (options && options.length > 0 && options.every((option) => typeof option.const === 'string')) {
    return `must be one of ${options.map((option) => option.const).join(', ')}, got ${JSON.stringify(value) ?? 'nothing'}`;
  }
  return message;
}

/** A string that must be one of `values`. */
export const StringEnum = <const T extends readonly string[]>(values: T) => Type.Union(values.map((value) => Type.Literal(value))) as unknown as TSchema & { static: T[number] };
