import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiError } from '../../lib/errors.js';
import { parseQueryString } from '../../lib/query.js';
import { parseTenantFilter } from './query.js';

const bad = (name: string) => (error: ApiError) => error.status === 400 && error.message.startsWith(`${name}:`);

describe('parseTenantFilter', () => {
  it('defaults to live tenants and maps every documented parameter', () => {
    assert.deepEqual(parseTenantFilter({}), { states: ['ACTIVE'] });
    assert.deepEqual(
      parseTenantFilter({
        workspaceIdentifier: 'ws',
        projectIdentifier: 'p',
        platformIdentifier: 'aws.eu',
        platformTypeIdentifier: 'aws',
        landingZoneIdentifier: 'lz',
        platformTenantId: '123',
        deletionState: 'ALL',
      }),
      {
        states: ['ACTIVE', 'DELETED'],
        workspace: 'ws',
        project: 'p',
        platform: { name: 'aws', location: 'eu' },
        platformType: 'AWS',
        landingZone: 'lz',
        platformTenantId: '123',
      },
    );
  });

  it('takes every state (any of them); DELETED alone is DELETED; MARKED_FOR_DELETION alone matches nothing', () => {
    assert.deepEqual(parseTenantFilter(parseQueryString('state=DELETED')), { states: ['DELETED'] });
    assert.deepEqual(parseTenantFilter(parseQueryString('state=ACTIVE&state=DELETED')), { states: ['ACTIVE', 'DELETED'] });
    assert.deepEqual(parseTenantFilter(parseQueryString('state=DELETED&state=MARKED_FOR_DELETION')), { states: ['DELETED'] });
    assert.equal(parseTenantFilter(parseQueryString('state=MARKED_FOR_DELETION')), 'none');
    assert.equal(parseTenantFilter({ deletionState: 'MARKED_FOR_DELETION' }), 'none');
  });

  it('combines state and deletionState: a tenant must be in both', () => {
    assert.deepEqual(parseTenantFilter(parseQueryString('state=ACTIVE&state=DELETED&deletionState=DELETED')), { states: ['DELETED'] });
    assert.deepEqual(parseTenantFilter(parseQueryString('state=DELETED&deletionState=ALL')), { states: ['DELETED'] });
    assert.equal(parseTenantFilter(parseQueryString('state=ACTIVE&deletionState=DELETED')), 'none');
  });

  it('ignores empty parameters', () => {
    assert.deepEqual(parseTenantFilter({ state: '', deletionState: '', landingZoneIdentifier: '', platformTenantId: '' }), {
      states: ['ACTIVE'],
    });
  });

  it('matches nothing for a platform identifier of another shape; 400 naming the parameter for unknown states', () => {
    assert.equal(parseTenantFilter({ platformIdentifier: 'aws' }), 'none');
    assert.throws(() => parseTenantFilter({ deletionState: 'GONE' }), bad('deletionState'));
    assert.throws(() => parseTenantFilter(parseQueryString('state=ACTIVE&state=deleted')), bad('state'));
    assert.throws(() => parseTenantFilter({ state: 'ALL' }), bad('state'));
  });
});
