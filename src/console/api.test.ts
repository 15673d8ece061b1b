import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { query, Session, type ApiError } from './api.js';

/** A server double answering login and two API paths; counts logins and records Authorization headers. */
function fakeServer(options: { expiresIn: number; rejectToken?: string }) {
  let logins = 0;
  const seen: string[] = [];
  const fetchFn = (async (url: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    if (url === '/api/login') {
      const body = JSON.parse(String(init.body)) as { clientId: string; clientSecret: string };
      if (body.clientSecret !== 'right')
        return new Response(JSON.stringify({ message: 'invalid client credentials', errorCode: 'Unauthorized' }), { status: 401 });
      logins++;
      return new Response(JSON.stringify({ access_token: `token-${logins}`, expires_in: options.expiresIn }), { status: 200 });
    }
    seen.push(headers.authorization ?? '');
    if (headers.authorization === `Bearer ${options.rejectToken}`)
      return new Response('{"message":"the access token is invalid or expired"}', { status: 401 });
    if (url === '/api/meshobjects')
      return new Response(
        JSON.stringify({
          _links: {
            meshbuildingblocks: { href: 'https://x/api/meshobjects/meshbuildingblocks' },
            self: { href: 'https://x/api/meshobjects' },
          },
        }),
        { status: 200 },
      );
    if (url.startsWith('/api/meshobjects/meshapikeys/'))
      return new Response(
        JSON.stringify({ metadata: { ownedByWorkspace: 'team' }, spec: { displayName: 'ci', permissions: ['BUILDINGBLOCK_LIST'] } }),
        { status: 200 },
      );
    return new Response(JSON.stringify({ ok: true }), { status: 200 });
  }) as typeof fetch;
  return { fetchFn, seen, logins: () => logins };
}

describe('the console session', () => {
  it('signs in with a key, learns its workspace and permissions, and says why a sign-in fails', async () => {
    const server = fakeServer({ expiresIn: 300 });
    const session = await Session.signIn({ type: 'apiKey', clientId: 'id', clientSecret: 'right' }, server.fetchFn);
    assert.deepEqual(session.identity, {
      type: 'apiKey',
      name: 'ci',
      workspace: 'team',
      permissions: ['BUILDINGBLOCK_LIST'],
      admin: false,
    });
    assert.deepEqual(
      [...session.relations],
      ['meshbuildingblocks', 'self'],
      'the relations the meshObjects index offers it: the navigation shows only these',
    );
    session.signOut();
    await assert.rejects(
      Session.signIn({ type: 'apiKey', clientId: 'id', clientSecret: 'wrong' }, server.fetchFn),
      (error: ApiError) => error.status === 401 && error.message === 'invalid client credentials',
    );
  });

  it('logs in again before the token expires, and once after a 401', async () => {
    const nearlyExpired = fakeServer({ expiresIn: 20 });
    const session = await Session.signIn({ type: 'apiKey', clientId: 'id', clientSecret: 'right' }, nearlyExpired.fetchFn);
    const before = nearlyExpired.logins();
    await session.request('GET', '/api');
    assert.equal(nearlyExpired.logins(), before + 1, 'a token within 30 s of its end is replaced first');
    session.signOut();

    const revoked = fakeServer({ expiresIn: 300, rejectToken: 'token-1' });
    const second = await Session.signIn({ type: 'apiKey', clientId: 'id', clientSecret: 'right' }, revoked.fetchFn);
    // Reading its own key met the 401 with token-1, logged in again and read it with token-2.
    assert.equal(second.identity.workspace, 'team');
    assert.deepEqual(revoked.seen.slice(0, 2), ['Bearer token-1', 'Bearer token-2']);
    second.signOut();
  });

  it('forgets everything on sign-out: no call goes out afterwards', async () => {
    const server = fakeServer({ expiresIn: 300 });
    const session = await Session.signIn({ type: 'apiUser', username: 'ops', password: 'pass' }, server.fetchFn);
    assert.equal(session.identity.admin, true);
    assert.equal(server.seen[0], `Basic ${Buffer.from('ops:pass').toString('base64')}`);
    session.signOut();
    const calls = server.seen.length;
    await assert.rejects(session.request('GET', '/api'), (error: ApiError) => error.status === 401);
    assert.equal(server.seen.length, calls);
  });

  it('builds list queries from the filled-in filters only', () => {
    assert.equal(
      query({ workspaceIdentifier: 'team', status: '', page: 0, name: undefined, title: 'a b&c' }),
      '?workspaceIdentifier=team&page=0&title=a+b%26c',
    );
    assert.equal(query({ status: '' }), '');
  });
});
