import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import type { TagDefinition, TagValueType } from './model.js';
import { enforceTags, valueProblem, valueTypeProblem } from './rules.js';

const definition = (
  key: string,
  valueType: TagValueType,
  flags: Partial<Pick<TagDefinition, 'mandatory' | 'immutable' | 'restricted'>> = {},
): TagDefinition => ({
  name: `meshProject.${key}`,
  targetKind: 'meshProject',
  key,
  displayName: key.toUpperCase(),
  valueType,
  mandatory: false,
  immutable: false,
  restricted: false,
  createdOn: '2026-01-01T00:00:00Z',
  document: { metadata: {}, spec: {} },
  ...flags,
});

const rejects = (run: () => unknown, field: RegExp) =>
  assert.throws(run, (error: ApiError) => error.status === 400 && field.test(error.message), String(field));
const create = { creating: true, admin: false, field: 'spec.tags' };
const update = { creating: false, admin: false, field: 'spec.tags' };

describe('tag value types', () => {
  it('checks each type', () => {
    assert.equal(valueProblem({ string: { validationRegex: '^\\d{4}$' } }, ['1234']), undefined);
    assert.match(valueProblem({ string: { validationRegex: '^\\d{4}$' } }, ['12345'])!, /does not match/);
    assert.match(valueProblem({ string: {} }, ['a', 'b'])!, /exactly one/);
    assert.equal(valueProblem({ email: {} }, ['a@b.example']), undefined);
    assert.match(valueProblem({ email: {} }, ['nobody'])!, /e-mail/);
    assert.equal(valueProblem({ integer: {} }, ['-42']), undefined);
    assert.match(valueProblem({ integer: {} }, ['4.2'])!, /integer/);
    assert.equal(valueProblem({ number: {} }, ['4.2']), undefined);
    assert.match(valueProblem({ number: {} }, ['four'])!, /number/);
    assert.equal(valueProblem({ singleSelect: { options: ['dev', 'prod'] } }, ['dev']), undefined);
    assert.match(valueProblem({ singleSelect: { options: ['dev', 'prod'] } }, ['qa'])!, /not one of/);
    assert.equal(valueProblem({ multiSelect: { options: ['a', 'b', 'c'] } }, ['a', 'c']), undefined);
    assert.match(valueProblem({ multiSelect: { options: ['a', 'b'] } }, ['a', 'x'])!, /"x"/);
  });

  it('refuses patterns RE2 cannot run, duplicate options and defaults of the wrong type', () => {
    assert.equal(valueTypeProblem({ string: { validationRegex: '^\\d{4}$', defaultValue: '1001' } }), undefined);
    assert.equal(valueTypeProblem({ string: { validationRegex: '(a)\\1' } })?.field, 'spec.valueType.string.validationRegex');
    assert.equal(valueTypeProblem({ singleSelect: { options: ['a', 'a'] } })?.field, 'spec.valueType.singleSelect.options');
    assert.equal(
      valueTypeProblem({ singleSelect: { options: ['a'], defaultValue: 'b' } })?.field,
      'spec.valueType.singleSelect.defaultValue',
    );
    assert.equal(
      valueTypeProblem({ string: { validationRegex: '^\\d{4}$', defaultValue: 'abc' } })?.field,
      'spec.valueType.string.defaultValue',
    );
  });
});

describe('enforceTags', () => {
  const env = definition('environment', { singleSelect: { options: ['dev', 'prod'], defaultValue: 'dev' } }, { mandatory: true });
  const cost = definition('costCenter', { string: { validationRegex: '^\\d{4}$' } }, { mandatory: true });

  it('keeps free-form tags and applies defaults on create', () => {
    assert.deepEqual(enforceTags([env], { team: ['x'] }, undefined, create), { team: ['x'], environment: ['dev'] });
  });

  it('refuses a missing mandatory tag without a default, naming it', () => {
    rejects(() => enforceTags([cost], {}, undefined, create), /^spec\.tags\.costCenter: .*mandatory/);
    rejects(() => enforceTags([cost], { costCenter: [] }, undefined, create), /spec\.tags\.costCenter/);
  });

  it('refuses a value failing its type', () => {
    rejects(() => enforceTags([cost], { costCenter: ['12'] }, undefined, create), /^spec\.tags\.costCenter: "12" does not match/);
  });

  it('keeps an omitted mandatory or immutable tag on update, removes other omitted ones', () => {
    const note = definition('note', { string: {} });
    assert.deepEqual(enforceTags([cost, note], {}, { costCenter: ['1234'], note: ['x'] }, update), { costCenter: ['1234'] });
  });

  it('refuses a change of an immutable tag', () => {
    const owner = definition('owner', { string: {} }, { immutable: true });
    assert.deepEqual(enforceTags([owner], { owner: ['a'] }, { owner: ['a'] }, update), { owner: ['a'] });
    assert.deepEqual(enforceTags([owner], { owner: ['a'] }, {}, update), { owner: ['a'] }, 'set for the first time');
    rejects(() => enforceTags([owner], { owner: ['b'] }, { owner: ['a'] }, update), /^spec\.tags\.owner: .*immutable/);
  });

  it('lets only admins set a restricted tag', () => {
    const tier = definition('tier', { singleSelect: { options: ['gold', 'silver'], defaultValue: 'silver' } }, { restricted: true });
    rejects(() => enforceTags([tier], { tier: ['gold'] }, undefined, create), /^spec\.tags\.tier: .*restricted/);
    assert.deepEqual(enforceTags([tier], {}, undefined, create), { tier: ['silver'] }, 'the default is not set by the caller');
    assert.deepEqual(enforceTags([tier], { tier: ['gold'] }, undefined, { ...create, admin: true }), { tier: ['gold'] });
    assert.deepEqual(enforceTags([tier], { tier: ['gold'] }, { tier: ['gold'] }, update), { tier: ['gold'] }, 'unchanged');
    rejects(() => enforceTags([tier], { tier: ['silver'] }, { tier: ['gold'] }, update), /restricted/);
  });
});
