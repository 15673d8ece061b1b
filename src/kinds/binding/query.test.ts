import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseBindingFilter } from './query.js';

describe('parseBindingFilter', () => {
  it('maps the workspace bindings’ filters', () => {
    assert.deepEqual(parseBindingFilter({}, 'workspace'), {});
    assert.deepEqual(parseBindingFilter({ workspaceIdentifier: 'ws', workspaceRole: 'Workspace Manager', username: 'jane' }, 'workspace'), {
      workspace: 'ws',
      role: 'Workspace Manager',
      username: 'jane',
    });
  });

  it('requires both identifiers of project bindings (400 naming the missing one)', () => {
    assert.deepEqual(parseBindingFilter({ workspaceIdentifier: 'ws', projectIdentifier: 'web' }, 'project'), {
      workspace: 'ws',
      project: 'web',
    });
    assert.throws(
      () => parseBindingFilter({ projectIdentifier: 'web' }, 'project'),
      (error: ApiError) => error.status === 400 && error.message.startsWith('workspaceIdentifier:'),
    );
    assert.throws(
      () => parseBindingFilter({ workspaceIdentifier: 'ws' }, 'project'),
      (error: ApiError) => error.status === 400 && error.message.startsWith('projectIdentifier:'),
    );
  });
});
