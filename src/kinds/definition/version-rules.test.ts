import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { VALUE_TYPES, type ValueType } from './enums.js';
import type { Implementation, VersionInput, VersionOutput, VersionSpec } from './model.js';
import { checkVersionSpec, deriveManualOutputs, manualOutputType } from './version-rules.js';

const DEP = '4c3e0e30-0000-4000-8000-0000000000d1';
const OTHER = '4c3e0e30-0000-4000-8000-0000000000d2';
const HASH = 'sha256:0000000000000000000000000000000000000000000000000000000000000000';
const FILE_VALUE = 'data:text/plain;base64,aGVsbG8=';

const terraform: Implementation = {
  type: 'terraform',
  terraform: { repositoryUrl: 'https://git.example/infra.git', terraformVersion: '1.9.0' },
};

function specWith(inputs: Record<string, VersionInput>, extra: Partial<VersionSpec> = {}): VersionSpec {
  return { versionNumber: 1, state: 'DRAFT', implementation: terraform, inputs, outputs: {}, ...extra };
}

const input = (type: ValueType, assignmentType: VersionInput['assignmentType'], more: Partial<VersionInput> = {}): VersionInput => ({
  displayName: `A ${type}`,
  type,
  assignmentType,
  ...more,
});

/** Checks a spec with the one input `k`. */
const checkOne = (value: VersionInput, extra: Partial<VersionSpec> = {}) => checkVersionSpec(specWith({ k: value }, extra));

/** A 400 whose message starts with `<field>:` (and matches `pattern` when given). */
const badField = (field: string, pattern?: RegExp) => (error: ApiError) => {
  assert.equal(error.status, 400, error.message);
  assert.ok(error.message.startsWith(`${field}:`), `expected "${error.message}" to start with "${field}:"`);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

describe('checkVersionSpec: arguments', () => {
  it('takes an argument for STATIC and BUILDING_BLOCK_OUTPUT inputs', () => {
    assert.doesNotThrow(() => checkOne(input('STRING', 'STATIC', { argument: 'eu' })));
    assert.doesNotThrow(() =>
      checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.url` }), { dependencyDefinitionRefs: [{ uuid: DEP }] }),
    );
  });

  for (const assignment of [
    'USER_INPUT',
    'PLATFORM_OPERATOR_MANUAL_INPUT',
    'AUTHOR',
    'WORKSPACE_IDENTIFIER',
    'PLATFORM_TENANT_ID',
    'USER_PERMISSIONS',
  ] as const) {
    it(`refuses an argument for a ${assignment} input`, () => {
      assert.throws(
        () => checkOne(input('STRING', assignment, { argument: 'x' })),
        badField('spec.inputs.k.argument', new RegExp(assignment)),
      );
    });
  }

  for (const assignment of ['STATIC', 'BUILDING_BLOCK_OUTPUT'] as const) {
    it(`requires an argument for a ${assignment} input`, () => {
      assert.throws(() => checkOne(input('STRING', assignment)), badField('spec.inputs.k.argument', /required/));
    });
  }

  it('requires a STATIC argument of the input’s type', () => {
    assert.doesNotThrow(() => checkOne(input('INTEGER', 'STATIC', { argument: 3 })));
    assert.throws(() => checkOne(input('INTEGER', 'STATIC', { argument: 'three' })), badField('spec.inputs.k.argument', /integer/));
    assert.throws(() => checkOne(input('BOOLEAN', 'STATIC', { argument: 'true' })), badField('spec.inputs.k.argument', /boolean/));
    assert.throws(() => checkOne(input('FILE', 'STATIC', { argument: 'hello' })), badField('spec.inputs.k.argument', /data URL/));
  });
});

describe('checkVersionSpec: BUILDING_BLOCK_OUTPUT arguments', () => {
  const refs = { dependencyDefinitionRefs: [{ uuid: DEP }] };

  it('requires "<definitionUuid>.<outputName>"', () => {
    for (const argument of ['url', `${DEP}`, `${DEP}.`, 'not-a-uuid.url', 42, { uuid: DEP }]) {
      assert.throws(
        () => checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument }), refs),
        badField('spec.inputs.k.argument', /<definitionUuid>\.<outputName>/),
        JSON.stringify(argument),
      );
    }
  });

  it('requires the definition among the dependencies', () => {
    assert.throws(
      () => checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${OTHER}.url` }), refs),
      badField('spec.inputs.k.argument', /not in spec\.dependencyDefinitionRefs/),
    );
    assert.throws(
      () => checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.url` })),
      badField('spec.inputs.k.argument', /not in spec\.dependencyDefinitionRefs/),
    );
  });

  it('compares uuids in any case and takes the dependencyDefinitionUuids alias', () => {
    assert.doesNotThrow(() => checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP.toUpperCase()}.url` }), refs));
    assert.doesNotThrow(() =>
      checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.url` }), {
        dependencyDefinitionRefs: [{ uuid: DEP.toUpperCase() }],
      }),
    );
    assert.doesNotThrow(() =>
      checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.a.b` }), { dependencyDefinitionUuids: [DEP] }),
    );
  });

  it('keeps the output name after the first dot', () => {
    const checked = checkOne(input('STRING', 'BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.nested.name` }), refs);
    assert.equal(checked.inputs.k!.argument, `${DEP}.nested.name`);
  });
});

describe('checkVersionSpec: defaults', () => {
  it('takes a default for user and operator inputs, of the input’s type', () => {
    assert.doesNotThrow(() => checkOne(input('INTEGER', 'USER_INPUT', { defaultValue: 2 })));
    assert.doesNotThrow(() => checkOne(input('STRING', 'PLATFORM_OPERATOR_MANUAL_INPUT', { defaultValue: 'x' })));
    assert.throws(
      () => checkOne(input('INTEGER', 'USER_INPUT', { defaultValue: 'two' })),
      badField('spec.inputs.k.defaultValue', /integer.*INTEGER/),
    );
    assert.throws(() => checkOne(input('LIST', 'USER_INPUT', { defaultValue: 'a,b' })), badField('spec.inputs.k.defaultValue', /list/));
  });

  for (const [assignment, more] of [
    ['STATIC', { argument: 'eu' }],
    ['BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.url` }],
    ['AUTHOR', {}],
    ['WORKSPACE_IDENTIFIER', {}],
  ] as const) {
    it(`refuses a default for a ${assignment} input`, () => {
      assert.throws(
        () => checkOne(input('STRING', assignment, { ...more, defaultValue: 'x' }), { dependencyDefinitionRefs: [{ uuid: DEP }] }),
        badField('spec.inputs.k.defaultValue', new RegExp(assignment)),
      );
    });
  }
});

describe('checkVersionSpec: sensitive inputs', () => {
  for (const type of ['STRING', 'CODE', 'FILE'] as const) {
    for (const assignment of ['USER_INPUT', 'PLATFORM_OPERATOR_MANUAL_INPUT'] as const) {
      it(`takes a sensitive ${type} ${assignment} input`, () => {
        assert.doesNotThrow(() => checkOne(input(type, assignment, { isSensitive: true })));
      });
    }
  }

  it('takes a sensitive STATIC input with an argument of its type', () => {
    assert.doesNotThrow(() => checkOne(input('STRING', 'STATIC', { isSensitive: true, argument: 'secret' })));
    assert.doesNotThrow(() => checkOne(input('FILE', 'STATIC', { isSensitive: true, argument: { plaintext: FILE_VALUE } })));
  });

  for (const type of VALUE_TYPES.filter((t) => !['STRING', 'CODE', 'FILE'].includes(t))) {
    it(`refuses a sensitive ${type} input`, () => {
      const more = type === 'SINGLE_SELECT' || type === 'MULTI_SELECT' ? { selectableValues: ['a'] } : {};
      assert.throws(
        () => checkOne(input(type, 'USER_INPUT', { isSensitive: true, ...more })),
        badField('spec.inputs.k.isSensitive', /only STRING, CODE and FILE/),
      );
    });
  }

  for (const [assignment, more] of [
    ['BUILDING_BLOCK_OUTPUT', { argument: `${DEP}.token` }],
    ['AUTHOR', {}],
    ['PLATFORM_TENANT_ID', {}],
  ] as const) {
    it(`refuses a sensitive ${assignment} input`, () => {
      assert.throws(
        () => checkOne(input('STRING', assignment, { isSensitive: true, ...more }), { dependencyDefinitionRefs: [{ uuid: DEP }] }),
        badField('spec.inputs.k.isSensitive', /user, operator and STATIC/),
      );
    });
  }

  it('requires a sensitive value’s plaintext to have the input’s type: {plaintext: 4242} for STRING is refused', () => {
    assert.throws(
      () => checkOne(input('STRING', 'USER_INPUT', { isSensitive: true, defaultValue: { plaintext: 4242 } })),
      badField('spec.inputs.k.defaultValue', /must be a string.*sensitive/),
    );
    assert.throws(
      () => checkOne(input('STRING', 'STATIC', { isSensitive: true, argument: { plaintext: 4242 } })),
      badField('spec.inputs.k.argument', /must be a string/),
    );
    assert.throws(
      () => checkOne(input('STRING', 'STATIC', { isSensitive: true, argument: 4242 })),
      badField('spec.inputs.k.argument', /must be a string/),
    );
    assert.throws(
      () => checkOne(input('FILE', 'USER_INPUT', { isSensitive: true, defaultValue: { plaintext: 'not a data url' } })),
      badField('spec.inputs.k.defaultValue', /data URL/),
    );
  });

  it('takes a kept secret {hash} as it is', () => {
    const checked = checkOne(input('STRING', 'USER_INPUT', { isSensitive: true, defaultValue: { hash: HASH } }));
    assert.deepEqual(checked.inputs.k!.defaultValue, { hash: HASH });
  });
});

describe('checkVersionSpec: environment, selectable values, regex', () => {
  it('never makes a FILE input an environment variable', () => {
    assert.throws(() => checkOne(input('FILE', 'USER_INPUT', { isEnvironment: true })), badField('spec.inputs.k.isEnvironment'));
    assert.doesNotThrow(() => checkOne(input('FILE', 'USER_INPUT', { isEnvironment: false })));
    assert.doesNotThrow(() => checkOne(input('STRING', 'USER_INPUT', { isEnvironment: true })));
  });

  it('requires selectable values of SINGLE_SELECT and MULTI_SELECT inputs', () => {
    for (const type of ['SINGLE_SELECT', 'MULTI_SELECT'] as const) {
      assert.throws(() => checkOne(input(type, 'USER_INPUT')), badField('spec.inputs.k.selectableValues', /required/));
      assert.throws(
        () => checkOne(input(type, 'USER_INPUT', { selectableValues: [] })),
        badField('spec.inputs.k.selectableValues', /required/),
      );
      assert.doesNotThrow(() => checkOne(input(type, 'USER_INPUT', { selectableValues: ['a', 'b'] })));
    }
  });

  it('refuses selectable values of other inputs', () => {
    for (const type of ['STRING', 'LIST', 'INTEGER'] as const) {
      assert.throws(
        () => checkOne(input(type, 'USER_INPUT', { selectableValues: ['a'] })),
        badField('spec.inputs.k.selectableValues', /only SINGLE_SELECT and MULTI_SELECT/),
      );
    }
  });

  it('requires defaults and arguments among the selectable values', () => {
    assert.doesNotThrow(() => checkOne(input('SINGLE_SELECT', 'USER_INPUT', { selectableValues: ['a', 'b'], defaultValue: 'b' })));
    assert.throws(
      () => checkOne(input('SINGLE_SELECT', 'USER_INPUT', { selectableValues: ['a', 'b'], defaultValue: 'c' })),
      badField('spec.inputs.k.defaultValue', /selectable/),
    );
    assert.doesNotThrow(() => checkOne(input('MULTI_SELECT', 'USER_INPUT', { selectableValues: ['a', 'b'], defaultValue: ['a', 'b'] })));
    assert.throws(
      () => checkOne(input('MULTI_SELECT', 'USER_INPUT', { selectableValues: ['a', 'b'], defaultValue: ['a', 'z'] })),
      badField('spec.inputs.k.defaultValue', /selectable/),
    );
    assert.throws(
      () => checkOne(input('MULTI_SELECT', 'USER_INPUT', { selectableValues: ['a'], defaultValue: 'a' })),
      badField('spec.inputs.k.defaultValue', /list of strings/),
    );
    assert.throws(
      () => checkOne(input('SINGLE_SELECT', 'STATIC', { selectableValues: ['a'], argument: 'b' })),
      badField('spec.inputs.k.argument', /selectable/),
    );
  });

  it('refuses an invalid regular expression, naming valueValidationRegex', () => {
    for (const pattern of ['(', '[a-', '*x', 'a{2,1}']) {
      assert.throws(
        () => checkOne(input('STRING', 'USER_INPUT', { valueValidationRegex: pattern })),
        badField('spec.inputs.k.valueValidationRegex', /not a regular expression RE2 can run/),
        pattern,
      );
    }
    assert.doesNotThrow(() => checkOne(input('STRING', 'USER_INPUT', { valueValidationRegex: '^[a-z]+$' })));
  });
});

describe('checkVersionSpec: run permissions', () => {
  it('takes workspace permission codes', () => {
    assert.doesNotThrow(() => checkVersionSpec(specWith({}, { permissions: ['BUILDINGBLOCK_LIST', 'TENANT_SAVE', 'PROJECT_DELETE'] })));
    assert.doesNotThrow(() => checkVersionSpec(specWith({}, { permissions: [] })));
  });

  it('refuses unknown codes', () => {
    for (const code of ['NOPE', 'tenant_list', 'TENANT_IMPORT', '']) {
      assert.throws(
        () => checkVersionSpec(specWith({}, { permissions: ['TENANT_LIST', code] })),
        badField('spec.permissions', /unknown permission/),
        code,
      );
    }
  });

  it('refuses admin codes', () => {
    for (const code of ['ADM_TENANT_LIST', 'ADM_USER_SAVE', 'ADM_TENANT_IMPORT']) {
      assert.throws(() => checkVersionSpec(specWith({}, { permissions: [code] })), badField('spec.permissions', /admin permission/), code);
    }
  });
});

describe('manualOutputType', () => {
  it('locks each input type to an output type', () => {
    const expected: Record<ValueType, string> = {
      STRING: 'STRING',
      CODE: 'CODE',
      INTEGER: 'INTEGER',
      BOOLEAN: 'BOOLEAN',
      FILE: 'CODE',
      LIST: 'CODE',
      SINGLE_SELECT: 'STRING',
      MULTI_SELECT: 'CODE',
    };
    for (const type of VALUE_TYPES) assert.equal(manualOutputType(type), expected[type], type);
  });
});

describe('deriveManualOutputs', () => {
  const inputs: Record<string, VersionInput> = {
    zone: input('SINGLE_SELECT', 'USER_INPUT', { displayName: 'Zone', selectableValues: ['a'], displayOrder: 2 }),
    count: input('INTEGER', 'USER_INPUT', { displayName: 'Count', displayOrder: 1 }),
    beta: input('LIST', 'PLATFORM_OPERATOR_MANUAL_INPUT', { displayName: 'Beta', displayOrder: 2 }),
    alpha: input('FILE', 'USER_INPUT', { displayName: 'Alpha' }),
  };

  it('derives one output per input: its display name, the locked type, NONE and its rank', () => {
    assert.deepEqual(deriveManualOutputs(inputs, {}), {
      alpha: { displayName: 'Alpha', assignmentType: 'NONE', displayOrder: 0, type: 'CODE' },
      count: { displayName: 'Count', assignmentType: 'NONE', displayOrder: 1, type: 'INTEGER' },
      beta: { displayName: 'Beta', assignmentType: 'NONE', displayOrder: 2, type: 'CODE' },
      zone: { displayName: 'Zone', assignmentType: 'NONE', displayOrder: 3, type: 'STRING' },
    });
  });

  it('ranks by display order, then key', () => {
    assert.deepEqual(Object.keys(deriveManualOutputs(inputs, {})), ['alpha', 'count', 'beta', 'zone']);
  });

  it('takes overrides of display name, assignment type and order, and the locked type when sent', () => {
    const sent: Record<string, VersionOutput> = {
      count: { displayName: 'How many', assignmentType: 'SUMMARY', displayOrder: 9, type: 'INTEGER' },
    };
    assert.deepEqual(deriveManualOutputs(inputs, sent).count, {
      displayName: 'How many',
      assignmentType: 'SUMMARY',
      displayOrder: 9,
      type: 'INTEGER',
    });
  });

  it('refuses another type, naming the output', () => {
    assert.throws(
      () => deriveManualOutputs(inputs, { zone: { type: 'CODE' } }),
      badField('spec.outputs.zone.type', /must be STRING for the SINGLE_SELECT input/),
    );
    assert.throws(() => deriveManualOutputs(inputs, { alpha: { type: 'STRING' } }), badField('spec.outputs.alpha.type', /must be CODE/));
  });

  it('refuses an output without an input', () => {
    assert.throws(
      () => deriveManualOutputs(inputs, { extra: { displayName: 'Extra', type: 'STRING' } }),
      badField('spec.outputs.extra', /no input "extra"/),
    );
    const inherited: Record<string, VersionOutput> = JSON.parse('{"constructor": {"type": "STRING"}}');
    assert.throws(() => deriveManualOutputs(inputs, inherited), badField('spec.outputs.constructor'));
  });

  it('checkVersionSpec derives them for a manual version only', () => {
    const manual = checkVersionSpec(
      specWith({ count: input('INTEGER', 'USER_INPUT', { displayName: 'Count' }) }, { implementation: { type: 'manual' } }),
    );
    assert.deepEqual(manual.outputs, { count: { displayName: 'Count', assignmentType: 'NONE', displayOrder: 0, type: 'INTEGER' } });
    assert.throws(
      () =>
        checkVersionSpec(
          specWith({}, { implementation: { type: 'manual' }, outputs: { ghost: { displayName: 'Ghost', type: 'STRING' } } }),
        ),
      badField('spec.outputs.ghost'),
    );
  });
});

describe('checkVersionSpec: outputs of other implementations', () => {
  it('keeps complete outputs as they are', () => {
    const outputs: Record<string, VersionOutput> = { url: { displayName: 'URL', type: 'STRING', assignmentType: 'RESOURCE_URL' } };
    assert.deepEqual(checkVersionSpec(specWith({}, { outputs })).outputs, outputs);
  });

  it('requires a type and a display name', () => {
    assert.throws(
      () => checkVersionSpec(specWith({}, { outputs: { url: { displayName: 'URL' } } })),
      badField('spec.outputs.url.type', /required/),
    );
    assert.throws(
      () => checkVersionSpec(specWith({}, { outputs: { url: { type: 'STRING' } } })),
      badField('spec.outputs.url.displayName', /required/),
    );
  });
});

describe('checkVersionSpec: secrets become {plaintext}', () => {
  it('wraps bare sensitive arguments and defaults, keeps secret shapes, leaves other inputs alone', () => {
    const checked = checkVersionSpec(
      specWith({
        token: input('STRING', 'STATIC', { isSensitive: true, argument: 'bare-token' }),
        wrapped: input('STRING', 'STATIC', { isSensitive: true, argument: { plaintext: 'p' } }),
        password: input('STRING', 'USER_INPUT', { isSensitive: true, defaultValue: 'bare-default' }),
        kept: input('CODE', 'USER_INPUT', { isSensitive: true, defaultValue: { hash: HASH } }),
        none: input('STRING', 'USER_INPUT', { isSensitive: true }),
        plain: input('STRING', 'STATIC', { argument: 'visible' }),
        plainDefault: input('STRING', 'USER_INPUT', { defaultValue: 'visible' }),
      }),
    );
    assert.deepEqual(checked.inputs.token!.argument, { plaintext: 'bare-token' });
    assert.deepEqual(checked.inputs.wrapped!.argument, { plaintext: 'p' });
    assert.deepEqual(checked.inputs.password!.defaultValue, { plaintext: 'bare-default' });
    assert.deepEqual(checked.inputs.kept!.defaultValue, { hash: HASH });
    assert.equal('argument' in checked.inputs.none!, false);
    assert.equal('defaultValue' in checked.inputs.none!, false);
    assert.equal(checked.inputs.plain!.argument, 'visible');
    assert.equal(checked.inputs.plainDefault!.defaultValue, 'visible');
  });

  it('wraps the terraform sshPrivateKey, of any JSON type', () => {
    for (const value of ['-----BEGIN KEY-----', 42, true, ['a'], { nested: 'x' }]) {
      const checked = checkVersionSpec(
        specWith({}, { implementation: { type: 'terraform', terraform: { repositoryUrl: 'https://git/x', sshPrivateKey: value } } }),
      );
      assert.deepEqual(
        checked.implementation,
        { type: 'terraform', terraform: { repositoryUrl: 'https://git/x', sshPrivateKey: { plaintext: value } } },
        JSON.stringify(value),
      );
    }
  });

  it('keeps secret shapes of implementation secrets', () => {
    for (const secret of [{ plaintext: 'k' }, { plaintext: 7 }, { hash: HASH }]) {
      const checked = checkVersionSpec(specWith({}, { implementation: { type: 'terraform', terraform: { sshPrivateKey: secret } } }));
      assert.deepEqual((checked.implementation.terraform as Record<string, unknown>).sshPrivateKey, secret);
    }
  });

  it('wraps the gitlab pipelineTriggerToken and leaves other fields alone', () => {
    const checked = checkVersionSpec(
      specWith(
        {},
        {
          implementation: { type: 'gitlabPipeline', gitlabPipeline: { projectId: '12', refName: 'main', pipelineTriggerToken: 'glptt-x' } },
        },
      ),
    );
    assert.deepEqual(checked.implementation, {
      type: 'gitlabPipeline',
      gitlabPipeline: { projectId: '12', refName: 'main', pipelineTriggerToken: { plaintext: 'glptt-x' } },
    });
  });

  it('leaves implementations without secrets or without their details alone', () => {
    const github: Implementation = { type: 'githubWorkflows', githubWorkflows: { repository: 'o/r', sshPrivateKey: 'not-a-secret-here' } };
    assert.deepEqual(checkVersionSpec(specWith({}, { implementation: github })).implementation, github);
    assert.deepEqual(checkVersionSpec(specWith({}, { implementation: { type: 'terraform' } })).implementation, { type: 'terraform' });
    const noKey = { type: 'terraform', terraform: { repositoryUrl: 'https://git/x' } } as Implementation;
    assert.deepEqual(checkVersionSpec(specWith({}, { implementation: noKey })).implementation, noKey);
  });

  it('does not change the spec it was given', () => {
    const spec = specWith(
      { token: input('STRING', 'STATIC', { isSensitive: true, argument: 'bare' }) },
      { implementation: { type: 'terraform', terraform: { sshPrivateKey: 'k' } } },
    );
    checkVersionSpec(spec);
    assert.equal(spec.inputs.token!.argument, 'bare');
    assert.equal((spec.implementation.terraform as Record<string, unknown>).sshPrivateKey, 'k');
  });
});
