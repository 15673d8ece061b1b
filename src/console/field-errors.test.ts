import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeMessage } from './field-errors.js';

describe('placeMessage', () => {
  const fields = {
    'spec.inputs': 'inputs',
    'spec.implementation': 'implementation',
    'spec.implementation.terraform.repositoryUrl': 'repository',
    'metadata.ownedByWorkspace': 'workspace',
  };

  it('places a message beside the field of the most specific prefix, without the path the field names', () => {
    assert.deepEqual(placeMessage('spec.inputs.bucket.argument: required for STATIC input "bucket"', fields), {
      field: 'inputs',
      text: 'bucket.argument: required for STATIC input "bucket"',
    });
    assert.deepEqual(placeMessage('spec.implementation.terraform.repositoryUrl: must not be empty', fields), {
      field: 'repository',
      text: 'must not be empty',
    });
    assert.deepEqual(placeMessage('spec.implementation.type: must be one of manual, terraform', fields), {
      field: 'implementation',
      text: 'type: must be one of manual, terraform',
    });
    assert.deepEqual(placeMessage('metadata.ownedByWorkspace: workspace "x" does not exist', fields), {
      field: 'workspace',
      text: 'workspace "x" does not exist',
    });
  });

  it('leaves a message about something else, or the whole request, to the form', () => {
    for (const message of ['spec.inputsExtra: no', 'spec.outputs.x.type: required', 'the definition already has a draft']) {
      assert.deepEqual(placeMessage(message, fields), { field: undefined, text: message });
    }
  });
});
