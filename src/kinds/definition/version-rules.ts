import { PERMISSION_CODES, isAdminCode } from '../../auth/permissions.js';
import { secretInput } from '../../crypto/secret-values.js';
import { badRequest } from '../../lib/errors.js';
import { patternProblem } from '../../lib/patterns.js';
import {
  ARGUMENT_ASSIGNMENT_TYPES,
  IMPLEMENTATIONS,
  SELECT_VALUE_TYPES,
  SENSITIVE_VALUE_TYPES,
  SUPPLIED_ASSIGNMENT_TYPES,
  type OutputType,
  type ValueType,
} from './enums.js';
import { dependencyUuids, type Implementation, type VersionInput, type VersionOutput, type VersionSpec } from './model.js';
import { inputValueProblem } from './value-types.js';

/** A value of an input (argument or default): of the input's type, a secret when it is sensitive. */
function checkValue(field: string, input: VersionInput, value: unknown): void {
  const problem = inputValueProblem(input, value);
  if (problem) throw badRequest(`${field}: ${problem} (the input is of type ${input.type}${input.isSensitive ? ', sensitive' : ''})`);
}

function checkInput(key: string, input: VersionInput, dependencies: readonly string[]): void {
  const field = `spec.inputs.${key}`;
  const assignment = input.assignmentType;
  const hasArgument = ARGUMENT_ASSIGNMENT_TYPES.includes(assignment);
  if (input.argument !== undefined && !hasArgument)
    throw badRequest(`${field}.argument: only STATIC and BUILDING_BLOCK_OUTPUT inputs have an argument (input "${key}" is ${assignment})`);
  if (input.argument === undefined && hasArgument) throw badRequest(`${field}.argument: required for ${assignment} input "${key}"`);
  if (input.defaultValue !== undefined && !SUPPLIED_ASSIGNMENT_TYPES.includes(assignment)) {
    throw badRequest(
      `${field}.defaultValue: only USER_INPUT and PLATFORM_OPERATOR_MANUAL_INPUT inputs have a default (input "${key}" is ${assignment})`,
    );
  }
  if (input.isSensitive) {
    if (!SENSITIVE_VALUE_TYPES.includes(input.type))
      throw badRequest(`${field}.isSensitive: only STRING, CODE and FILE inputs can be sensitive (input "${key}" is ${input.type})`);
    if (![...SUPPLIED_ASSIGNMENT_TYPES, 'STATIC'].includes(assignment))
      throw badRequest(`${field}.isSensitive: only user, operator and STATIC inputs can be sensitive (input "${key}" is ${assignment})`);
  }
  if (input.type === 'FILE' && input.isEnvironment)
    throw badRequest(`${field}.isEnvironment: a FILE input cannot be an environment variable`);
  const isSelect = SELECT_VALUE_TYPES.includes(input.type);
  if (isSelect && (input.selectableValues === undefined || input.selectableValues.length === 0))
    throw badRequest(`${field}.selectableValues: required for ${input.type} input "${key}"`);
  if (!isSelect && input.selectableValues !== undefined)
    throw badRequest(`${field}.selectableValues: only SINGLE_SELECT and MULTI_SELECT inputs have selectable values`);
  const regexProblem = input.valueValidationRegex === undefined ? undefined : patternProblem(input.valueValidationRegex);
  if (regexProblem) throw badRequest(`${field}.valueValidationRegex: ${regexProblem}`);
  if (assignment === 'BUILDING_BLOCK_OUTPUT') {
    const match = typeof input.argument === 'string' ? /^([0-9a-f-]{36})\.(.+)$/i.exec(input.argument) : null;
    if (!match) throw badRequest(`${field}.argument: "<definitionUuid>.<outputName>" of a dependency definition is required`);
    if (!dependencies.includes(match[1]!.toLowerCase()))
      throw badRequest(`${field}.argument: definition ${match[1]} is not in spec.dependencyDefinitionRefs`);
  } else if (input.argument !== undefined) checkValue(`${field}.argument`, input, input.argument);
  if (input.defaultValue !== undefined) checkValue(`${field}.defaultValue`, input, input.defaultValue);
}

/** The output type a manual version's derived output has for an input type (COMPAT §8). */
export function manualOutputType(type: ValueType): OutputType {
  if (type === 'SINGLE_SELECT') return 'STRING';
  if (type === 'MULTI_SELECT' || type === 'LIST' || type === 'FILE') return 'CODE';
  return type;
}

/**
 * A manual version has one output per input (the operator fills them in): derived with the input's
 * display name, the locked type, NONE and the rank of the input; callers may override display name,
 * assignment type and order, not the type, and name no output without an input.
 */
export function deriveManualOutputs(
  inputs: Record<string, VersionInput>,
  sent: Record<string, VersionOutput>,
): Record<string, VersionOutput> {
  for (const [key, output] of Object.entries(sent)) {
    const input = Object.hasOwn(inputs, key) ? inputs[key] : undefined;
    if (!input) throw badRequest(`spec.outputs.${key}: a manual version's outputs mirror its inputs; there is no input "${key}"`);
    if (output.type !== undefined && output.type !== manualOutputType(input.type)) {
      throw badRequest(`spec.outputs.${key}.type: must be ${manualOutputType(input.type)} for the ${input.type} input "${key}"`);
    }
  }
  const ranked = Object.entries(inputs).sort(
    ([a, x], [b, y]) => (x.displayOrder ?? 0) - (y.displayOrder ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const outputs: Record<string, VersionOutput> = {};
  ranked.forEach(([key, input], rank) => {
    outputs[key] = {
      displayName: input.displayName,
      assignmentType: 'NONE',
      displayOrder: rank,
      ...sent[key],
      type: manualOutputType(input.type),
    };
  });
  return outputs;
}

/**
 * Every rule of a version's spec that needs no database (COMPAT §8): input rules, output shapes and
 * the run permissions (the implementation's fields are the codec's). Throws 400 naming the field; returns the spec with
 * the manual outputs derived and bare strings of secret fields turned into `{plaintext}`.
 */
export function checkVersionSpec(spec: VersionSpec): VersionSpec {
  const dependencies = dependencyUuids(spec);
  for (const [key, input] of Object.entries(spec.inputs)) checkInput(key, input, dependencies);
  const type = spec.implementation.type;

  for (const code of spec.permissions ?? []) {
    if (!PERMISSION_CODES.has(code)) throw badRequest(`spec.permissions: unknown permission "${code}"`);
    if (isAdminCode(code)) throw badRequest(`spec.permissions: "${code}" is an admin permission; a run may only get workspace permissions`);
  }

  let outputs = spec.outputs;
  if (type === 'manual') outputs = deriveManualOutputs(spec.inputs, spec.outputs);
  else {
    for (const [key, output] of Object.entries(outputs)) {
      if (output.type === undefined) throw badRequest(`spec.outputs.${key}.type: required`);
      if (output.displayName === undefined) throw badRequest(`spec.outputs.${key}.displayName: required`);
    }
  }
  return { ...spec, outputs, inputs: secretInputs(spec.inputs), implementation: secretImplementation(spec.implementation) };
}

/** A value that is always a secret, sent bare (of any JSON type) or in a secret shape, in the shape sealing takes. */
const asSecret = (value: unknown) => (secretInput(value) ? value : { plaintext: value });

/** Sensitive arguments and defaults sent bare are secrets to seal. */
function secretInputs(inputs: Record<string, VersionInput>): Record<string, VersionInput> {
  const out: Record<string, VersionInput> = {};
  for (const [key, input] of Object.entries(inputs)) {
    out[key] = !input.isSensitive
      ? input
      : {
          ...input,
          ...(input.argument !== undefined ? { argument: asSecret(input.argument) } : {}),
          ...(input.defaultValue !== undefined ? { defaultValue: asSecret(input.defaultValue) } : {}),
        };
  }
  return out;
}

function secretImplementation(implementation: Implementation): Implementation {
  const { type } = implementation;
  const details = implementation[type] as Record<string, unknown> | undefined;
  const secrets: readonly string[] = IMPLEMENTATIONS[type].secrets;
  if (!details || secrets.length === 0) return implementation;
  const sealed = { ...details };
  for (const field of secrets) if (sealed[field] !== undefined) sealed[field] = asSecret(sealed[field]);
  return { ...implementation, [type]: sealed };
}
