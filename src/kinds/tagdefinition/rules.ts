import { badRequest } from '../../lib/errors.js';
import { matchesPattern, patternProblem } from '../../lib/patterns.js';
import type { TagDefinition, Tags, TagValueType } from './model.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The one value type set (the decoder makes sure there is exactly one). */
export function typeOf(valueType: TagValueType): keyof TagValueType {
  return (Object.keys(valueType) as (keyof TagValueType)[]).find((key) => valueType[key] !== undefined)!;
}

/** Why `values` is no valid value of the tag, or undefined. Pure: tested beside it. */
export function valueProblem(valueType: TagValueType, values: readonly string[]): string | undefined {
  const type = typeOf(valueType);
  if (type === 'multiSelect') {
    const options = valueType.multiSelect!.options;
    const wrong = values.find((value) => !options.includes(value));
    return wrong === undefined ? undefined : `"${wrong}" is not one of ${options.join(', ')}`;
  }
  if (values.length !== 1) return `takes exactly one value, got ${values.length}`;
  const value = values[0]!;
  switch (type) {
    case 'string':
    case 'email': {
      const rules = valueType[type]!;
      if (type === 'email' && !EMAIL.test(value)) return `"${value}" is not an e-mail address`;
      if (rules.validationRegex !== undefined && !matchesPattern(rules.validationRegex, value))
        return `"${value}" does not match ${rules.validationRegex}`;
      return undefined;
    }
    case 'integer':
      return INTEGER.test(value) ? undefined : `"${value}" is not an integer`;
    case 'number':
      return NUMBER.test(value) && Number.isFinite(Number(value)) ? undefined : `"${value}" is not a number`;
    case 'singleSelect':
      return valueType.singleSelect!.options.includes(value)
        ? undefined
        : `"${value}" is not one of ${valueType.singleSelect!.options.join(', ')}`;
  }
}

/** The default of a tag as tag values, or undefined. */
export function defaultOf(valueType: TagValueType): string[] | undefined {
  const type = typeOf(valueType);
  const value = valueType[type]?.defaultValue;
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** Why a definition's value type cannot be saved (regex RE2 cannot run, a default not of its type), or undefined. */
export function valueTypeProblem(valueType: TagValueType): { field: string; problem: string } | undefined {
  const type = typeOf(valueType);
  const field = `spec.valueType.${type}`;
  const regex = type === 'string' || type === 'email' ? valueType[type]!.validationRegex : undefined;
  if (regex !== undefined) {
    const problem = patternProblem(regex);
    if (problem) return { field: `${field}.validationRegex`, problem };
  }
  if (type === 'singleSelect' || type === 'multiSelect') {
    const options = valueType[type]!.options;
    if (new Set(options).size !== options.length) return { field: `${field}.options`, problem: 'options must be distinct' };
  }
  const fallback = defaultOf(valueType);
  if (fallback !== undefined) {
    const problem = valueProblem(valueType, fallback);
    if (problem) return { field: `${field}.defaultValue`, problem };
  }
  return undefined;
}

const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const present = (values: readonly string[] | undefined): values is string[] => values !== undefined && values.length > 0;

/**
 * Applies the kind's tag definitions to the tags a write sends. Tags without a definition
 * stay free-form. On create a missing tag gets its default. On update a missing tag that is
 * mandatory or immutable keeps its value (it cannot be removed), otherwise it is removed. Then: a
 * mandatory tag without a value, a value failing its type, regex or options, a change of an immutable
 * tag, or a restricted tag set or changed by a non-admin → 400 naming `<field>.<key>`.
 */
export function enforceTags(
  definitions: readonly TagDefinition[],
  sent: Tags | undefined,
  previous: Tags | undefined,
  options: { creating: boolean; admin: boolean; field: string },
): Tags {
  const tags: Tags = { ...(sent ?? {}) };
  for (const definition of definitions) {
    const key = definition.key;
    const field = `${options.field}.${key}`;
    const before = previous?.[key];
    if (!present(tags[key])) {
      delete tags[key];
      if (options.creating) {
        const fallback = defaultOf(definition.valueType);
        if (fallback !== undefined) tags[key] = fallback;
      } else if (present(before) && (definition.mandatory || definition.immutable)) {
        tags[key] = before;
      }
    }
    const value = tags[key];
    if (!present(value)) {
      if (definition.mandatory) throw badRequest(`${field}: the tag "${definition.displayName}" (${key}) is mandatory`);
      continue;
    }
    const problem = valueProblem(definition.valueType, value);
    if (problem) throw badRequest(`${field}: ${problem}`);
    if (definition.immutable && !options.creating && present(before) && !same(before, value))
      throw badRequest(`${field}: the tag "${definition.displayName}" (${key}) is immutable`);
    const setByCaller = options.creating ? present(sent?.[key]) : !same(before, value);
    if (definition.restricted && !options.admin && setByCaller)
      throw badRequest(`${field}: the tag "${definition.displayName}" (${key}) is restricted: only admins set it`);
  }
  return tags;
}
