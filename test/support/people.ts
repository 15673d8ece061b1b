/**
 * People in black-box tests: a meshUser bound to a workspace role through the API, and a way to act as
 * that person. People authenticate only by signing in (single sign-on against the OpenID Provider the
 * server is configured with, then a session cookie); there is no test-only door to a person's principal.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiClient } from './client.js';
import { media } from './client.js';
import { signInWithProvider, TestBrowser } from './browser.js';
import type { TestServer } from './server.js';
import { io, unique } from './structure.js';

const SESSION_COOKIE = '__Host-blockyard-session';

/** A new meshUser holding `role` in `workspace` through a user binding (made by `admin`); its username. */
export async function bindPerson(admin: ApiClient, workspace: string, role: string): Promise<string> {
  const username = unique('person');
  const user = await admin.post(
    '/api/meshobjects/meshusers',
    {
      apiVersion: 'v2',
      kind: 'meshUser',
      metadata: { name: username },
      spec: { email: `${username}@example.com`, firstName: 'Test', lastName: role },
    },
    { headers: io(media('meshuser', 'v2')) },
  );
  assert.equal(user.status, 201, user.text);
  const binding = await admin.post(
    '/api/meshobjects/meshworkspacebindings/userbindings',
    {
      apiVersion: 'v2',
      kind: 'meshWorkspaceUserBinding',
      metadata: { name: unique('person-binding') },
      targetRef: { name: workspace },
      roleRef: { name: role },
      subject: { name: username },
    },
    { headers: io(media('meshworkspaceuserbinding', 'v2')) },
  );
  assert.equal(binding.status, 201, binding.text);
  return username;
}

/** What a browser signed in as a person sends: its session cookie, and on state-changing requests its page's Origin. */
export interface SignedInPerson {
  cookie: string;
  /** The server's own origin (its public URL's). */
  origin: string;
}

/**
 * Signs `username` in at `server` through single sign-on (the server's OpenID Provider signs in any
 * login as itself), and switches the session to `workspace` as the console does.
 */
export async function signInAs(server: TestServer, username: string, workspace: string): Promise<SignedInPerson> {
  assert.ok(server.env.BLOCKYARD_OIDC_ISSUER && server.env.BLOCKYARD_OIDC_CA, 'the server has single sign-on configured');
  const cas = await Promise.all([
    readFile(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8'),
    readFile(server.env.BLOCKYARD_OIDC_CA, 'utf8'),
  ]);
  const browser = new TestBrowser(cas);
  try {
    const page = await signInWithProvider(browser, server.url, username);
    const id = browser.cookie(server.url, SESSION_COOKIE);
    assert.ok(id, `${username} is signed in: ${page.status} ${page.url} ${page.text.slice(0, 200)}`);
    const origin = new URL(server.url).origin;
    const switched = await browser.go('POST', `${server.url}/auth/session/workspace`, {
      body: JSON.stringify({ workspace }),
      headers: { 'content-type': 'application/json', origin },
    });
    assert.equal(switched.status, 200, switched.text);
    assert.equal(JSON.parse(switched.text).session.workspace, workspace);
    return { cookie: `${SESSION_COOKIE}=${id}`, origin };
  } finally {
    await browser.close();
  }
}
