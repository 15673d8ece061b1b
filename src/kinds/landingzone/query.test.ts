import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseLandingZoneFilter } from './query.js';

describe('parseLandingZoneFilter', () => {
  it('maps the documented parameters and ignores empty ones', () => {
    assert.deepEqual(parseLandingZoneFilter({}), {});
    const uuid = '6E4E8AFE-5E90-4E29-AF2B-609EB687E890';
    assert.deepEqual(
      parseLandingZoneFilter({
        identifier: 'lz',
        displayName: 'LZ',
        platformUuid: uuid,
        disabled: 'true',
        restricted: 'false',
        ownedByWorkspace: 'ws',
      }),
      {
        name: 'lz',
        displayName: 'LZ',
        platformUuid: uuid.toLowerCase(),
        disabled: true,
        restricted: false,
        ownedByWorkspace: 'ws',
      },
    );
    assert.deepEqual(parseLandingZoneFilter({ identifier: '', disabled: '' }), {});
  });

  it('matches nothing for a platform uuid that is no uuid; refuses flags other than true/false', () => {
    assert.equal(parseLandingZoneFilter({ platformUuid: 'nope' }), 'none');
    assert.throws(
      () => parseLandingZoneFilter({ disabled: 'yes' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('disabled:'),
    );
    assert.throws(
      () => parseLandingZoneFilter({ restricted: '1' }),
      (error: ApiError) => error.status === 400 && error.message.startsWith('restricted:'),
    );
  });
});
