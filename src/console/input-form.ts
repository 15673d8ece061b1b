/**
 * The order form generated from a definition version's inputs: which fields, which controls, what is
 * required, how the filled-in values become the block's `spec.inputs`, and which field a server
 * message names. Pure, so it is tested without a browser (input-form.test.ts).
 */

export type ValueType = 'STRING' | 'CODE' | 'INTEGER' | 'BOOLEAN' | 'FILE' | 'LIST' | 'SINGLE_SELECT' | 'MULTI_SELECT';

/** A version's input as the API returns it (COMPAT §8); the fields the form uses. */
export interface VersionInput {
  displayName?: string;
  type: ValueType;
  assignmentType: string;
  isSensitive?: boolean;
  defaultValue?: unknown;
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

/** The fields of the form: user inputs, and operator inputs for operators, in display order. */
export function formFields(inputs: Record<string, VersionInput>, operator: boolean): FormField[] {
  return Object.entries(inputs)
    .filter(([, input]) => input.assignmentType === 'USER_INPUT' || (operator && input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT'))
    .sort(([a, x], [b, y]) => (x.displayOrder ?? Number.MAX_SAFE_INTEGER) - (y.displayOrder ?? Number.MAX_SAFE_INTEGER) || a.localeCompare(b))
    .map(([key, input]) => {
      const hint = input.valueValidationRegex === undefined ? undefined : (input.validationRegexErrorMessage ?? `must match ${input.valueValidationRegex}`);
      return {
        key,
        label: input.displayName || key,
        type: input.type,
        control: controlOf(input),
        required: input.assignmentType === 'USER_INPUT' && (input.defaultValue === undefined || input.defaultValue === null),
        sensitive: input.isSensitive ?? false,
        options: input.selectableValues ?? [],
        ...(input.description ? { description: input.description } : {}),
        ...(hint ? { hint } : {}),
        operatorOnly: input.assignmentType === 'PLATFORM_OPERATOR_MANUAL_INPUT',
      };
    });
}

/** The form's starting values: each input's default in the form of its control. */
export function initialValues(fields: FormField[], inputs: Record<string, VersionInput>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const given = inputs[field.key]?.defaultValue;
    if (field.control === 'checkbox') values[field.key] = given === true || given === 'true';
    else if (field.control === 'multiselect') values[field.key] = Array.isArray(given) ? given.map(String) : [];
    else if (field.control === 'list') values[field.key] = Array.isArray(given) ? given.map(String).join('\n') : given === undefined || given === null ? '' : String(given);
    else values[field.key] = given === undefined || given === null || field.sensitive ? '' : String(given);
  }
  return values;
}

const isEmpty = (value: FieldValue | undefined) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Errors of required fields left empty, by key (checkboxes always have a value). */
export function missingRequired(fields: FormField[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) if (field.required && field.control !== 'checkbox' && isEmpty(values[field.key])) errors[field.key] = `${field.label} is required`;
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
    if (field.control === 'list' && typeof value === 'string') native = value.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    inputs.push({ key: field.key, value: native, valueType: field.type });
  }
  return inputs;
}

/**
 * The form field a server message names (`spec.inputs.<key>: …`, `spec.inputs[2].value: …` by the
 * position sent, `spec.displayName: …`), or undefined for a message about the whole request.
 */
export function fieldOfMessage(message: string, sentKeys: readonly string[]): string | undefined {
  const path = /^([\w.[\]-]+?):\s/.exec(message)?.[1];
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
