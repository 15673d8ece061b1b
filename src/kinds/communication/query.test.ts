import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseCommunicationFilter } from './query.js';

const UUID = '1660cb2f-4c0d-4f72-b8a6-d5fbf2cb9a2d';

describe('parseCommunicationFilter', () => {
  it('maps the documented parameters (the uuid in its canonical lower case) and ignores empty and unknown ones', () => {
    assert.deepEqual(parseCommunicationFilter({}), {});
    assert.deepEqual(
      parseCommunicationFilter({
        communicationDefinitionUuid: UUID.toUpperCase(),
        resolutionStatus: 'OPEN',
        communicationType: 'ACTION_REQUIRED',
        page: '0',
        other: 'x',
      }),
      {
        definitionUuid: UUID,
        resolutionStatus: 'OPEN',
        type: 'ACTION_REQUIRED',
      },
    );
    assert.deepEqual(parseCommunicationFilter({ resolutionStatus: '', communicationType: 'NOTIFICATION' }), { type: 'NOTIFICATION' });
  });

  it('lets a definition uuid that is no uuid match nothing', () => {
    assert.equal(parseCommunicationFilter({ communicationDefinitionUuid: 'not-a-uuid' }), 'none');
  });

  it('answers an undocumented status or type with a 400 naming the parameter', () => {
    assert.throws(
      () => parseCommunicationFilter({ resolutionStatus: 'CLOSED' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('resolutionStatus: must be one of OPEN, RESOLVED'),
    );
    assert.throws(
      () => parseCommunicationFilter({ communicationType: 'INFO' }),
      (error: ApiError) =>
        error.status === 400 && error.message.startsWith('communicationType: must be one of ACTION_REQUIRED, NOTIFICATION'),
    );
  });
});
