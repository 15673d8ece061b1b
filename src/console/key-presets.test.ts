import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PERMISSION_CODES } from '../auth/permissions.js';
import { KEY_PRESETS, presetOf } from './key-presets.js';

describe('key presets', () => {
  it('grant only existing workspace codes, never an admin one', () => {
    for (const preset of KEY_PRESETS) {
      for (const code of preset.permissions) {
        assert.ok(PERMISSION_CODES.has(code), `${preset.id}: ${code} exists`);
        assert.ok(!code.startsWith('ADM_'), `${preset.id}: ${code} is not an admin code`);
      }
    }
  });

  it('recognises a preset by its exact set', () => {
    assert.equal(presetOf(new Set(KEY_PRESETS[1]!.permissions))?.id, 'runner');
    assert.equal(presetOf(new Set([...KEY_PRESETS[1]!.permissions, 'EVENTLOG_LIST'])), undefined);
  });
});
