import { secretInput } from '../../crypto/secret-values.js';
import { badRequest } from '../../lib/errors.js';
import { matchesPattern } from '../../lib/patterns.js';
import { SUPPLIED_ASSIGNMENT_TYPES, type ValueType } from '../definition/enums.js';
import type { VersionInput, VersionSpec } from '../definition/model.js';
import { inputValueProblem } from '../definition/value-types.js';
import type { SentInputs, ValueRow } from './model.js';

/**
 * A block's input value in its native JSON form. Clients send the spec's string values (`"16"`) or
 * native ones (`16`); both are taken, and the value is kept as sent (COMPAT §3 echo fidelity).
 */
export function nativeValue(type: ValueType, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'INTEGER' && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (type === 'BOOLEAN' && (value === 'true' || value === 'false')) return value === 'true';
  if ((type === 'LIST' || type === 'MULTI_SELECT') && value.trimStart().startsWith('[')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

const definitionInput = (version: VersionSpec, key: string): VersionInput | undefined =>
  Object.hasOwn(version.inputs, key) ? version.inputs[key] : undefined;

function checkValue(field: string, key: string, input: VersionInput, value: unknown): void {
  const problem = inputValueProblem(input, input.isSensitive ? value : nativeValue(input.type, value));
  if (problem)
    throw badRequest(
      `${field}: the value of "${key}" ${problem} (the input is of type ${input.type}${input.isSensitive ? ', sensitive' : ''})`,
    );
}

function checkRegex(field: string, key: string, input: VersionInput, value: unknown): void {
  if (input.valueValidationRegex === undefined) return;
  const secret = input.isSensitive ? secretInput(value) : undefined;
  if (secret && 'hash' in secret) return; // a kept secret was checked when it was set
  const plain = secret ? secret.plaintext : value;
  const text = typeof plain === 'string' ? plain : JSON.stringify(plain);
  if (!matchesPattern(input.valueValidationRegex, text)) {
    throw badRequest(
      `${field}: the value of "${key}" is invalid: ${input.validationRegexErrorMessage ?? `it must match ${input.valueValidationRegex}`}`,
    );
  }
}

/**
 * The inputs a request sets, checked against the definition version: only user and
 * operator inputs may be given, with the input's type, a value of that type matching its regex.
 * Returns rows in the spec's form (sensitive values still as sent: the service seals them).
 */
export function checkBlockInputs(sent: SentInputs, version: VersionSpec): ValueRow[] {
  const rows: ValueRow[] = [];
  for (const [key, given] of Object.entries(sent)) {
    const field = `spec.inputs.${key}`;
    const input = definitionInput(version, key);
    if (!input || !SUPPLIED_ASSIGNMENT_TYPES.includes(input.assignmentType))
      throw badRequest(`${field}: "${key}" is not defined as a customer or platform-operator input`);
    if (given.valueType !== undefined && given.valueType !== input.type)
      throw badRequest(`${field}.valueType: "${key}" is of type ${input.type}, not ${given.valueType}`);
    if (given.value === undefined) continue;
    checkValue(field, key, input, given.value);
    checkRegex(field, key, input, given.value);
    rows.push({
      key,
      value: given.value,
      valueType: input.type,
      isSensitive: input.isSensitive ?? false,
      assignmentType: input.assignmentType,
    });
  }
  return rows;
}

/** Rows of `changes` replace those of `current` with the same key; the others stay (a PUT keeps omitted inputs). */
export function mergeRows(current: readonly ValueRow[], changes: readonly ValueRow[]): ValueRow[] {
  const byKey = new Map(current.map((row) => [row.key, row]));
  for (const row of changes) byKey.set(row.key, row);
  return [...byKey.values()];
}

/**
 * The state a block waits in for lack of inputs: an operator input without a value or default first,
 * then a user input; undefined when every supplied input has a value.
 */
export function missingInputState(
  version: VersionSpec,
  rows: readonly ValueRow[],
): 'WAITING_FOR_OPERATOR_INPUT' | 'WAITING_FOR_USER_INPUT' | undefined {
  const given = new Set(rows.map((row) => row.key));
  const missing = (assignment: string) =>
    Object.entries(version.inputs).some(
      ([key, input]) => input.assignmentType === assignment && !given.has(key) && input.defaultValue === undefined,
    );
  if (missing('PLATFORM_OPERATOR_MANUAL_INPUT')) return 'WAITING_FOR_OPERATOR_INPUT';
  if (missing('USER_INPUT')) return 'WAITING_FOR_USER_INPUT';
  return undefined;
}
