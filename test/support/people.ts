/**
 * People in black-box tests: a meshUser bound to a workspace role through the API, and a way to act as
 * that person. People authenticate only by signing in (single sign-on, then a session cookie); there is
 * no test-only door to a person's principal.
 */
import assert from 'node:assert/strict';
import type { ApiClient } from './client.js';
import { media } from './client.js';
import { io, unique } from './structure.js';

/** Thrown by `signInAs` while the server has no sign-in sessions to act with. */
export class SessionsUnavailable extends Error {}

/** A new meshUser holding `role` in `workspace` through a user binding (made by `admin`); its username. */
export async function bindPerson(admin: ApiClient, workspace: string, role: string): Promise<string> {
  const username = unique('person');
  const user = await admin.post('/api/meshobjects/meshusers', { apiVersion: 'v2', kind: 'meshUser', metadata: { name: username }, spec: { email: `${username}@example.com`, firstName: 'Test', lastName: role } }, { headers: io(media('meshuser', 'v2')) });
  assert.equal(user.status, 201, user.text);
  const binding = await admin.post(
    '/api/meshobjects/meshworkspacebindings/userbindings',
    { apiVersion: 'v2', kind: 'meshWorkspaceUserBinding', metadata: { name: unique('person-binding') }, targetRef: { name: workspace }, roleRef: { name: role }, subject: { name: username } },
    { headers: io(media('meshworkspaceuserbinding', 'v2')) },
  );
  assert.equal(binding.status, 201, binding.text);
  return username;
}

/**
 * The request headers that act as `username` signed in, with the session switched to `workspace`
 * (the session cookie, and the server's own Origin for state-changing requests). Signing in goes
 * through single sign-on against a real OpenID Provider; until the tests have one to sign in with,
 * this throws SessionsUnavailable and the cases acting as people are skipped, saying so.
 */
export async function signInAs(username: string, workspace: string): Promise<Record<string, string>> {
  throw new SessionsUnavailable(`sessions not available yet (cannot sign in ${username} to ${workspace})`);
}
