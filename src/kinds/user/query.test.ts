import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseUserFilter } from './query.js';

describe('parseUserFilter', () => {
  it('maps the documented parameters and ignores empty ones', () => {
    assert.deepEqual(parseUserFilter({}), {});
    assert.deepEqual(parseUserFilter({ username: 'jane', email: '', firstName: 'Jane', euid: 'e1', uuid: 'u1', lastName: 'Doe' }), {
      username: 'jane',
      firstName: 'Jane',
      euid: 'e1',
      uuid: 'u1',
      lastName: 'Doe',
    });
    assert.deepEqual(
      parseUserFilter({
        workspaceIdentifier: 'ws',
        projectIdentifier: 'web',
        projectRole: 'Project Admin',
        workspaceRole: 'Workspace Member',
      }),
      {
        workspace: 'ws',
        project: 'web',
        projectRole: 'Project Admin',
        workspaceRole: 'Workspace Member',
      },
    );
  });

  it('takes the platform as <platform>.<location>; another shape matches nothing', () => {
    assert.deepEqual(parseUserFilter({ platformIdentifier: 'azure.eu-west' }), { platform: { name: 'azure', location: 'eu-west' } });
    assert.equal(parseUserFilter({ platformIdentifier: 'azure' }), 'none');
  });

  it('requires workspaceIdentifier with projectIdentifier (400 naming it)', () => {
    assert.throws(
      () => parseUserFilter({ projectIdentifier: 'web' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('projectIdentifier:'),
    );
  });

  it('takes workspaceUserGroupIdentifier only alone, full or bare', () => {
    assert.deepEqual(parseUserFilter({ workspaceUserGroupIdentifier: 'ws.devs' }), { group: { workspace: 'ws', name: 'devs' } });
    assert.deepEqual(parseUserFilter({ workspaceUserGroupIdentifier: 'devs', page: '1' }), { group: { name: 'devs' } });
    assert.throws(
      () => parseUserFilter({ workspaceUserGroupIdentifier: 'ws.devs', username: 'jane' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('workspaceUserGroupIdentifier:'),
    );
  });
});
