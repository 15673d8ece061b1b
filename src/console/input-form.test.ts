import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { besideField } from './field-errors.js';
import {
  blockInputs,
  blockValues,
  changedInputs,
  fieldOfMessage,
  formErrors,
  formFields,
  initialValues,
  typeLabel,
  waitingFields,
  type VersionInput,
} from './input-form.js';

const INPUTS: Record<string, VersionInput> = {
  region: { displayName: 'Region', type: 'SINGLE_SELECT', assignmentType: 'USER_INPUT', selectableValues: ['eu', 'us'], displayOrder: 2 },
  name: {
    displayName: 'Bucket name',
    type: 'STRING',
    assignmentType: 'USER_INPUT',
    valueValidationRegex: '^[a-z]+$',
    validationRegexErrorMessage: 'lower-case letters only',
    displayOrder: 1,
  },
  size: { displayName: 'Size', type: 'INTEGER', assignmentType: 'USER_INPUT', defaultValue: 16, displayOrder: 3 },
  token: { displayName: 'Token', type: 'STRING', assignmentType: 'USER_INPUT', isSensitive: true, defaultValue: 'x', displayOrder: 4 },
  flags: { displayName: 'Flags', type: 'MULTI_SELECT', assignmentType: 'USER_INPUT', selectableValues: ['a', 'b'], defaultValue: ['b'] },
  tags: { displayName: 'Tags', type: 'LIST', assignmentType: 'USER_INPUT', defaultValue: [] },
  public: { displayName: 'Public', type: 'BOOLEAN', assignmentType: 'USER_INPUT' },
  approver: { displayName: 'Approver', type: 'STRING', assignmentType: 'PLATFORM_OPERATOR_MANUAL_INPUT' },
  fixed: { displayName: 'Fixed', type: 'STRING', assignmentType: 'STATIC' },
};

describe('the order form generator', () => {
  it('offers user inputs in display order (then by key), operator inputs only to operators, never static ones', () => {
    assert.deepEqual(
      formFields(INPUTS, false).map((f) => f.key),
      ['name', 'region', 'size', 'token', 'flags', 'public', 'tags'],
    );
    assert.deepEqual(
      formFields(INPUTS, true).map((f) => f.key),
      ['name', 'region', 'size', 'token', 'approver', 'flags', 'public', 'tags'],
    );
  });

  it('chooses the control by type, masks sensitive inputs, marks inputs without default required and gives the regex hint in words', () => {
    const byKey = Object.fromEntries(formFields(INPUTS, true).map((f) => [f.key, f]));
    assert.equal(byKey.region!.control, 'select');
    assert.deepEqual(byKey.region!.options, ['eu', 'us']);
    assert.equal(byKey.size!.control, 'number');
    assert.equal(byKey.token!.control, 'password');
    assert.equal(byKey.flags!.control, 'multiselect');
    assert.equal(byKey.tags!.control, 'list');
    assert.equal(byKey.public!.control, 'checkbox');
    assert.equal(byKey.name!.required, true);
    assert.equal(byKey.size!.required, false);
    assert.equal(byKey.approver!.required, false, 'operator inputs are the operator’s to supply later');
    assert.equal(byKey.name!.hint, 'lower-case letters only');
    assert.equal(formFields({ n: { ...INPUTS.name!, validationRegexErrorMessage: undefined } }, false)[0]!.hint, 'must match ^[a-z]+$');
  });

  it('starts with the defaults (a sensitive default is never shown)', () => {
    const fields = formFields(INPUTS, false);
    const values = initialValues(fields, INPUTS);
    assert.equal(values.size, '16');
    assert.equal(values.token, '');
    assert.deepEqual(values.flags, ['b']);
    assert.equal(values.public, false);
    assert.equal(values.tags, '');
  });

  it('reports required fields left empty, and only those', () => {
    const fields = formFields(INPUTS, false);
    const values = initialValues(fields, INPUTS);
    assert.deepEqual(formErrors(fields, values), { name: 'Bucket name is required', region: 'Region is required' });
    assert.deepEqual(formErrors(fields, { ...values, name: 'data', region: 'eu' }), {});
  });

  it('checks a whole number before sending, and leaves the regex to the server (never run on the browser’s engine)', () => {
    const fields = formFields(INPUTS, false);
    const values = { ...initialValues(fields, INPUTS), name: 'Data_1', region: 'eu', size: '2.5' };
    assert.deepEqual(formErrors(fields, values), { size: 'Size must be a whole number' });
  });

  it('names each type in words and shows a default unless it is sensitive', () => {
    const byKey = Object.fromEntries(formFields(INPUTS, false).map((f) => [f.key, f]));
    assert.equal(typeLabel(byKey.size!.type), 'whole number');
    assert.equal(typeLabel(byKey.flags!.type), 'several of a list');
    assert.equal(byKey.size!.defaultText, '16');
    assert.equal(byKey.flags!.defaultText, 'b');
    assert.equal(byKey.token!.defaultText, 'set, not shown');
    assert.equal(byKey.name!.defaultText, undefined);
  });

  it('starts a waiting block’s form from the values it has, sensitive ones left empty', () => {
    const fields = formFields(INPUTS, false);
    const rows = [
      { key: 'name', value: 'kept', valueType: 'STRING' },
      { key: 'tags', value: ['x', 'y'], valueType: 'LIST' },
      { key: 'public', value: true, valueType: 'BOOLEAN' },
      { key: 'token', value: { hash: 'sha256:abc' }, valueType: 'STRING' },
    ];
    const values = blockValues(fields, INPUTS, rows);
    assert.equal(values.name, 'kept');
    assert.equal(values.tags, 'x\ny');
    assert.equal(values.public, true);
    assert.equal(values.token, '');
    assert.equal(values.size, '16', 'a value the block lacks starts at its default');
  });

  it('sends filled-in values with their type in native JSON form, leaving out empty optional ones', () => {
    const fields = formFields(INPUTS, false);
    const values = { ...initialValues(fields, INPUTS), name: 'data', region: 'eu', tags: 'one\n\n two \n', size: '32' };
    assert.deepEqual(blockInputs(fields, values), [
      { key: 'name', value: 'data', valueType: 'STRING' },
      { key: 'region', value: 'eu', valueType: 'SINGLE_SELECT' },
      { key: 'size', value: 32, valueType: 'INTEGER' },
      { key: 'flags', value: ['b'], valueType: 'MULTI_SELECT' },
      { key: 'public', value: false, valueType: 'BOOLEAN' },
      { key: 'tags', value: ['one', 'two'], valueType: 'LIST' },
    ]);
  });

  it('finds the field a server message names, by key or by position', () => {
    const sent = ['name', 'region'];
    assert.equal(fieldOfMessage('spec.inputs.name: the value of "name" is invalid: lower-case letters only', sent), 'name');
    assert.equal(fieldOfMessage('spec.inputs.region.valueType: "region" is of type SINGLE_SELECT, not STRING', sent), 'region');
    assert.equal(fieldOfMessage('spec.inputs[1].value: must be a string', sent), 'region');
    assert.equal(fieldOfMessage('spec.displayName: at most 255 characters', sent), 'displayName');
    assert.equal(fieldOfMessage('spec.targetRef.uuid: meshTenant "x" does not exist', sent), 'target');
    assert.equal(fieldOfMessage('the request body is not JSON', sent), undefined);
    assert.equal(fieldOfMessage('spec.inputs[7].value: must be a string', sent), undefined);
    assert.equal(
      besideField('spec.inputs.name: the value of "name" is invalid: lower-case letters only'),
      'the value of "name" is invalid: lower-case letters only',
    );
  });

  it('does not require a sensitive input whose default the offered version hides', () => {
    const [field] = formFields(
      {
        pin: {
          displayName: 'PIN',
          type: 'STRING',
          assignmentType: 'USER_INPUT',
          isSensitive: true,
          defaultValue: null,
          hasDefaultValue: true,
        },
      },
      false,
    );
    assert.equal(field!.required, false);
    assert.equal(field!.defaultText, 'set, not shown');
  });

  it('offers a waiting block the inputs it lacks and those consumers may change, and sends only what changed', () => {
    const inputs: Record<string, VersionInput> = { ...INPUTS, size: { ...INPUTS.size!, updateableByConsumer: true } };
    const fields = formFields(inputs, false);
    const rows = [{ key: 'region', value: 'eu' }];
    assert.deepEqual(
      waitingFields(fields, inputs, rows).map((f) => f.key),
      ['name', 'size', 'public'],
      'lacking a value without default (name, public), or changeable by consumers (size); not region (has a value), token, flags, tags (defaults)',
    );
    const shown = waitingFields(fields, inputs, rows);
    const before = blockValues(shown, inputs, rows);
    const after = { ...before, name: 'data' };
    assert.deepEqual(
      changedInputs(shown, before, after),
      [
        { key: 'name', value: 'data', valueType: 'STRING' },
        { key: 'public', value: false, valueType: 'BOOLEAN' },
      ],
      'what the block lacks is sent; size, unchanged, is not',
    );
    assert.deepEqual(
      changedInputs(shown, before, { ...after, size: '20' }).map((input) => input.key),
      ['name', 'size', 'public'],
    );
  });
});
