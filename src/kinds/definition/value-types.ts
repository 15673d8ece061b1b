import { secretInput } from '../../crypto/secret-values.js';
import type { ValueType } from './enums.js';
import type { VersionInput } from './model.js';

const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether `value` is a valid value of an input of type `type` in its native JSON form (COMPAT §10
 * "Input encodings"): STRING, CODE, SINGLE_SELECT → string; INTEGER → integer; BOOLEAN → boolean;
 * FILE → `data:<mime>;base64,…`; LIST, MULTI_SELECT → array. Returns what is wrong, or undefined.
 */
export function valueProblem(type: ValueType, value: unknown, selectableValues?: readonly string[]): string | undefined {
  switch (type) {
    case 'STRING':
    case 'CODE':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'INTEGER':
      return Number.isSafeInteger(value) ? undefined : 'must be an integer';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'FILE':
      return typeof value === 'string' && DATA_URL.test(value) ? undefined : 'must be a data URL (data:<mime type>;base64,<content>)';
    case 'LIST':
      return Array.isArray(value) ? undefined : 'must be a list';
    case 'SINGLE_SELECT':
      if (typeof value !== 'string') return 'must be a string';
      return selectableValues && !selectableValues.includes(value)
        ? `must be one of the selectable values (${selectableValues.join(', ')})`
        : undefined;
    case 'MULTI_SELECT':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return 'must be a list of strings';
      return selectableValues && value.some((item) => !selectableValues.includes(item as string))
        ? `must hold only selectable values (${selectableValues.join(', ')})`
        : undefined;
  }
}

/**
 * What is wrong with a value given for an input (an argument, a default, a block's value), or
 * undefined. A sensitive input's value is a secret: its plaintext (bare, or in `{"plaintext": …}`)
 * must be of the input's type like any value; a kept secret (`{"hash": …}`) was checked when set.
 */
export function inputValueProblem(
  input: Pick<VersionInput, 'type' | 'isSensitive' | 'selectableValues'>,
  value: unknown,
): string | undefined {
  const secret = input.isSensitive ? secretInput(value) : undefined;
  if (secret && 'hash' in secret) return undefined;
  return valueProblem(input.type, secret ? secret.plaintext : value, input.selectableValues);
}
