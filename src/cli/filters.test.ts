import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CliError } from './errors.js';
import { filterQuery } from './filters.js';

describe('filterQuery', () => {
  const allowed = ['workspaceIdentifier', 'excludeTitle'];

  it('turns key=value pairs into the query, keeping repeated keys and "=" in values', () => {
    const query = filterQuery(['workspaceIdentifier=likvid', 'excludeTitle=a', 'excludeTitle=b=c'], allowed, 'projects');
    assert.equal(query.toString(), 'workspaceIdentifier=likvid&excludeTitle=a&excludeTitle=b%3Dc');
  });

  it('refuses a key the list does not take, naming the ones it does', () => {
    assert.throws(
      () => filterQuery(['workspace=likvid'], allowed, 'projects'),
      (error: Error) =>
        error instanceof CliError && /--filter workspace: projects take only workspaceIdentifier, excludeTitle/.test(error.message),
    );
    assert.throws(() => filterQuery(['name=x'], [], 'workspaces'), /workspaces take no filters/);
  });

  it('refuses a filter without "=" or without a key', () => {
    assert.throws(() => filterQuery(['likvid'], allowed, 'projects'), /--filter "likvid": expected key=value/);
    assert.throws(() => filterQuery(['=likvid'], allowed, 'projects'), /expected key=value/);
  });
});
