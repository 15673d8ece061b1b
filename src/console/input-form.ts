/**
 * The order form generated from a definition version's inputs: which fields, which controls, what is
 * required, how the filled-in values become the block's `spec.inputs`, and which field a server
 * message names. Pure, so it is tested without a browser (input-form.test.ts).
 */
import { messagePath } from './field-errors.js';

export type ValueType = 'STRING' | 'CODE' | 'INTEGER' | 'BOOLEAN' | 'FILE' | 'LIST' | 'SINGLE_SELECT' | 'MULTI_SELECT';

/** A version's input as the API returns it (COMPAT §8); the fields the form uses. */
export interface VersionInput {
  displayName?: string;
  type: ValueType;
  assignmentType: string;
  isSensitive?: boolean;
  defaultValue?: unknown;
  /** An offered version hides a sensitive default (`defaultValue: null`) and says it has one. */
  hasDefaultValue?: boolean;
  /** Consumers may change it on a block that has it (a missing one they may always give). */
  updateableByConsumer?: boolean;
  selectableValues?: string[];
  description?: string;
  valueValidationRegex?: string;
  validationRegexErrorMessage?: string;
  displayOrder?: number;
}

export type Control = 'text' | 'password' | 'textarea' | 'number' | 'checkbox' | 'select' | 'multiselect' | 'list';

export interface FormField {
  key: string;
  label: string;
  type: ValueType;
  control: Control;
  /** A user input without a default: without it the block would wait for input. */
  required: boolean;
  sensitive: boolean;
  options: string[];
  description?: string;
  /** The regex the server checks, in words when the definition gives them. */
  hint?: string;
  /** The default as people read it; never a sensitive one. */
  defaultText?: string;
  /** Set by the platform operator (shown only to operators). */
  operatorOnly: boolean;
}

export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;

function controlOf(input: VersionInput): Control {
  switch (input.type) {
    case 'BOOLEAN':
      return 'checkbox';
    case 'INTEGER':
      return 'number';
    case 'SINGLE_SELECT':
      return 'select';
    case 'MULTI_SELECT':
      return 'multiselect';
    case 'LIST':
      return 'list';
    case 'CODE':
    case 'FILE':
      return input.isSensitive ? 'password' : 'textarea';
    default:
      return input.isSensitive ? 'password' : 'text';
  }
}

const TYPE_LABELS: Record<ValueType, string> = {
  STRING: 'text',
  CODE: 'code',
  INTEGER: 'whole number',
  BOOLEAN: 'yes or no',
  FILE: 'file content',
  LIST: 'list',
  SINGLE_SELECT: 'one of a list',
  MULTI_SELECT: 'several of a list',
};

/** An input's type in words. */
export const typeLabel = (type: ValueType): string => TYPE_LABELS[type] ?? type.toLowerCase();

const hasDefault = (input: VersionInput) =>
  (input.defaultValue !== undefined && input.defaultValue !== null) || input.hasDefaultValue === true;

function defaultTextOf(input: VersionInput): string | undefined {
  const given = input.defaultValue;
  if (input.isSensitive && hasDefault(input)) return 'set, not shown';
  if (input.isSensitive || given === undefined || given === null || given === '') return undefined;
  if (Array.isArray(given)) return given.length > 0 ? given.map(String).join(', ') : undefined;
  if (typeof given === 'boolean') return given ? 'yes' : 'no';
  return typeof given === 'object' ? undefined : String(given);
}

/** The fields of the form: user inputs, and operator inputs for operators, in display order. */
export function formFields(inputs: Record<string, VersionInput>, operator: boolean): FormField[] {
  return Object.entries(inputs)
    .filter(([, input]) => input.assignmentType === 'USER_INPUT' || (operator && input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT'))
    .sort(
      ([a, x], [b, y]) => (x.displayOrder ?? Number.MAX_SAFE_INTEGER) - (y.displayOrder ?? Number.MAX_SAFE_INTEGER) || a.localeCompare(b),
    )
    .map(([key, input]) => {
      const hint =
        input.valueValidationRegex === undefined
          ? undefined
          : (input.validationRegexErrorMessage ?? `must match ${input.valueValidationRegex}`);
      const defaultText = defaultTextOf(input);
      return {
        key,
        label: input.displayName || key,
        type: input.type,
        control: controlOf(input),
        required: input.assignmentType === 'USER_INPUT' && !hasDefault(input),
        sensitive: input.isSensitive ?? false,
        options: input.selectableValues ?? [],
        ...(input.description ? { description: input.description } : {}),
        ...(hint ? { hint } : {}),
        ...(defaultText !== undefined ? { defaultText } : {}),
        operatorOnly: input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT',
      };
    });
}

/** A value in the form of its field's control (a sensitive one, shown only as its hash, starts empty). */
function valueFor(field: FormField, given: unknown): FieldValue {
  if (field.control === 'checkbox') return given === true || given === 'true';
  if (field.control === 'multiselect') return Array.isArray(given) ? given.map(String) : [];
  if (given === undefined || given === null || field.sensitive || (typeof given === 'object' && !Array.isArray(given))) return '';
  if (field.control === 'list') return Array.isArray(given) ? given.map(String).join('\n') : String(given);
  return String(given);
}

/** The form's starting values: each input's default in the form of its control. */
export function initialValues(fields: FormField[], inputs: Record<string, VersionInput>): FormValues {
  return Object.fromEntries(fields.map((field) => [field.key, valueFor(field, inputs[field.key]?.defaultValue)]));
}

/** A block's form (to give a waiting block its inputs): the values it has, else the defaults. */
export function blockValues(
  fields: FormField[],
  inputs: Record<string, VersionInput>,
  rows: readonly { key: string; value: unknown }[],
): FormValues {
  const values = initialValues(fields, inputs);
  for (const row of rows) {
    const field = fields.find((candidate) => candidate.key === row.key);
    if (field && row.value !== null && row.value !== undefined) values[field.key] = valueFor(field, row.value);
  }
  return values;
}

/**
 * The fields a waiting block's form offers: those it lacks a value for that have no default (what it
 * waits for) and those consumers may change; operators may change their own inputs.
 */
export function waitingFields(
  fields: FormField[],
  inputs: Record<string, VersionInput>,
  rows: readonly { key: string; value: unknown }[],
): FormField[] {
  const valued = new Set(rows.filter((row) => row.value !== null && row.value !== undefined).map((row) => row.key));
  return fields.filter((field) => {
    const input = inputs[field.key]!;
    return (!valued.has(field.key) && !hasDefault(input)) || input.updateableByConsumer === true || field.operatorOnly;
  });
}

/**
 * The block's `spec.inputs` for a PUT: the required ones (what a waiting block lacks) and the others
 * changed from where the form started; the rest the block keeps.
 */
export function changedInputs(fields: FormField[], before: FormValues, after: FormValues): ReturnType<typeof blockInputs> {
  const changed = fields.filter((field) => field.required || JSON.stringify(before[field.key]) !== JSON.stringify(after[field.key]));
  return blockInputs(changed, after);
}

const isEmpty = (value: FieldValue | undefined) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * What the server would refuse, by key, before sending: required fields left empty (checkboxes always
 * have a value) and numbers that are not whole. The input's regex is the server's to check (on RE2):
 * another team's pattern run on the browser's backtracking engine could hang the page.
 */
export function formErrors(fields: FormField[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (field.control === 'checkbox') continue;
    if (isEmpty(value)) {
      if (field.required) errors[field.key] = `${field.label} is required`;
    } else if (field.control === 'number' && typeof value === 'string' && !/^-?\d+$/.test(value.trim()))
      errors[field.key] = `${field.label} must be a whole number`;
  }
  return errors;
}

/** The block's `spec.inputs`: every filled-in field with its type, in the value's native JSON form. */
export function blockInputs(fields: FormField[], values: FormValues): { key: string; value: unknown; valueType: ValueType }[] {
  const inputs: { key: string; value: unknown; valueType: ValueType }[] = [];
  for (const field of fields) {
    const value = values[field.key];
    if (field.control !== 'checkbox' && isEmpty(value)) continue;
    let native: unknown = value;
    if (field.control === 'number' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) native = Number(value.trim());
    if (field.control === 'list' && typeof value === 'string')
      native = value
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
    inputs.push({ key: field.key, value: native, valueType: field.type });
  }
  return inputs;
}

/**
 * The form field a server message names (`spec.inputs.<key>: …`, `spec.inputs[2].value: …` by the
 * position sent, `spec.displayName: …`), or undefined for a message about the whole request.
 */
export function fieldOfMessage(message: string, sentKeys: readonly string[]): string | undefined {
  const path = messagePath(message);
  if (!path) return undefined;
  const byPosition = /^spec\.inputs(?:\[(\d+)\]|\.(\d+))(?:[.[]|$)/.exec(path);
  if (byPosition) return sentKeys[Number(byPosition[1] ?? byPosition[2])];
  const byKey = /^spec\.inputs\.([^.[]+)/.exec(path);
  if (byKey) return byKey[1];
  if (path.startsWith('spec.displayName')) return 'displayName';
  if (path.startsWith('spec.targetRef')) return 'target';
  if (path.startsWith('spec.parentBuildingBlocks')) return 'parents';
  return undefined;
}
