import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseQueryString } from '../../lib/query.js';
import { parseEventQuery } from './query.js';

const bad = (name: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${name}:`);

describe('parseEventQuery', () => {
  it('maps every documented filter; instants are normalised to UTC with milliseconds', () => {
    assert.deepEqual(
      parseEventQuery(
        parseQueryString(
          'from=2025-05-29T02:00:00%2B02:00&until=2025-05-30&title=Created&description=ws&authorType=ApiKey&authorIdentifier=k&eventType=Changed&workspaceIdentifier=ws&excludeTitle=A&excludeTitle=B&excludeTitle=A',
        ),
      ),
      {
        from: '2025-05-29T00:00:00.000Z',
        until: '2025-05-30T00:00:00.000Z',
        title: 'Created',
        description: 'ws',
        authorType: 'ApiKey',
        authorIdentifier: 'k',
        eventType: 'Changed',
        workspaceIdentifier: 'ws',
        excludeTitles: ['A', 'B'],
      },
    );
    assert.deepEqual(parseEventQuery({ workspaceName: 'Team' }), { workspaceName: 'Team' });
  });

  it('ignores empty parameters', () => {
    assert.deepEqual(
      parseEventQuery(parseQueryString('from=&until=&title=&authorType=&eventType=&workspaceName=&workspaceIdentifier=&excludeTitle=')),
      {},
    );
  });

  it('answers 400 naming the parameter', () => {
    assert.throws(() => parseEventQuery({ from: 'yesterday' }), bad('from'));
    assert.throws(() => parseEventQuery({ until: '2025-02-30T00:00:00Z' }), bad('until'));
    assert.throws(() => parseEventQuery({ until: '2025-05-29T00:00:00' }), bad('until'));
    assert.throws(() => parseEventQuery({ authorType: 'Unknown' }), bad('authorType'));
    assert.throws(() => parseEventQuery({ eventType: 'created' }), bad('eventType'));
    assert.throws(() => parseEventQuery({ workspaceName: 'a', workspaceIdentifier: 'b' }), bad('workspaceName'));
  });
});
