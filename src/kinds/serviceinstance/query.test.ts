import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseServiceInstanceFilter } from './query.js';

describe('parseServiceInstanceFilter', () => {
  it('maps the documented parameters and ignores empty and unknown ones', () => {
    assert.deepEqual(parseServiceInstanceFilter({}), {});
    assert.deepEqual(
      parseServiceInstanceFilter({
        workspaceIdentifier: 'ws',
        projectIdentifier: 'web',
        marketplaceIdentifier: 'eu',
        serviceIdentifier: 's1',
        planIdentifier: 'p1',
        page: '2',
        other: 'x',
      }),
      {
        workspace: 'ws',
        project: 'web',
        marketplace: 'eu',
        serviceId: 's1',
        planId: 'p1',
      },
    );
    assert.deepEqual(parseServiceInstanceFilter({ workspaceIdentifier: '', marketplaceIdentifier: 'eu' }), { marketplace: 'eu' });
  });

  it('requires workspaceIdentifier with projectIdentifier and serviceIdentifier with planIdentifier (400 naming the parameter)', () => {
    assert.throws(
      () => parseServiceInstanceFilter({ projectIdentifier: 'web' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('projectIdentifier:'),
    );
    assert.throws(
      () => parseServiceInstanceFilter({ planIdentifier: 'p1', workspaceIdentifier: 'ws' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('planIdentifier:'),
    );
  });
});
