/**
 * Wire exactness (issue 17): what a client generated from the published OpenAPI, or a new user
 * following the README, meets — methods a path does not have, the CLI's help.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import type { Response } from './support/client.js';
import { describeEachDatabase } from './support/server.js';

/** Asserts the status and the `{message, errorCode, errorId}` error body; optionally what the message names. */
function assertError(response: Response, status: number, message?: RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.json).sort(), ['errorCode', 'errorId', 'message'], response.text);
  if (message) assert.match(response.json.message, message);
}

describe('the command line', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });

  it('prints its usage for --help, -h and help (exit 0), and for an unknown command on stderr (exit 2)', () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = run(flag);
      assert.equal(result.status, 0, `${flag}: ${result.stderr}`);
      assert.match(result.stdout, /^usage:/);
      assert.match(result.stdout, /blockyard \[serve\]/);
      assert.match(result.stdout, /blockyard admin create-key/);
    }
    const unknown = run('frobnicate');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    assert.match(unknown.stderr, /usage:/);
  });
});

describeEachDatabase('wire exactness', (ctx) => {
  describe('methods a path does not have', () => {
    it('answers 405 with Allow for GET /api/login (no credentials needed), not 401', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await ctx.client.request(method, '/api/login', { anonymous: true });
        assertError(response, 405, /not allowed on \/api\/login; use POST/);
        assert.equal(response.headers.allow, 'POST');
        assert.equal(response.json.errorCode, 'MethodNotAllowed');
        assert.equal(response.headers['x-content-type-options'], 'nosniff', 'the security headers of every answer');
      }
      const head = await ctx.client.request('HEAD', '/api/login', { anonymous: true });
      assert.equal(head.status, 405);
    });

    it('answers 405 for any method a route path lacks, listing the ones it has', async () => {
      const patch = await ctx.client.request('PATCH', '/api/meshobjects/meshworkspaces/any-name', { anonymous: true, body: '{}' });
      assertError(patch, 405, /meshworkspaces\/\{id\}/);
      assert.equal(patch.headers.allow, 'GET, HEAD, PUT, DELETE');
      const post = await ctx.client.request('POST', '/api/meshobjects/meshtenants/x', { body: '{}' });
      assertError(post, 405);
      assert.equal(post.headers.allow, 'GET, HEAD, DELETE');
      // Paths that do not exist stay 404 (after authentication, as before).
      assertError(await ctx.client.get('/api/meshobjects/nothing-here', { headers: { accept: 'application/json' } }), 404);
      assertError(await ctx.client.get('/api/meshobjects/nothing-here', { anonymous: true }), 401);
    });
  });
});
