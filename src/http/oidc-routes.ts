import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PENDING_COOKIE, PENDING_SECONDS, type PersonSignIn } from '../auth/oidc.js';
import { clearedCookie, cookieValue, SESSION_COOKIE, type Session, type Sessions } from '../auth/sessions.js';
import { badRequest, notFound, unprocessable } from '../lib/errors.js';
import type { AppContext } from './app.js';
import { routeSchema } from './route-schemas.js';

const JSON_TYPE = 'application/json';
const SignedIn = Type.Object({
  username: Type.String({ description: 'the meshUser signed in' }),
  workspace: Type.Union([Type.String(), Type.Null()], {
    description: 'the workspace the session acts in (null: the person holds no binding yet)',
  }),
  workspaces: Type.Array(Type.String(), { description: 'the workspaces the person holds a role binding in' }),
  permissions: Type.Array(Type.String(), { description: 'what the person may do in the workspace, by its role bindings' }),
  admin: Type.Boolean({ description: 'whether the person holds a role in the admin workspace (ADM_ codes)' }),
});
const SessionState = Type.Object({
  oidc: Type.Boolean({ description: 'whether single sign-on is configured (GET /auth/oidc/login signs in)' }),
  session: Type.Union([SignedIn, Type.Null()], {
    description: 'the session the cookie names; null: none (never signed in, signed out, or ended)',
  }),
});
const WorkspaceChoice = Type.Object({ workspace: Type.String({ description: 'a workspace the person holds a role binding in' }) });
const sessionAnswer = { description: 'single sign-on and the session', body: [{ media: JSON_TYPE, schema: SessionState }] };

type Doc = Omit<Parameters<typeof routeSchema>[2], 'summary'>;
const schema = (method: string, path: string, summary: string, doc: Doc, access: 'public' | 'authenticated') =>
  routeSchema(method, path, { summary, ...doc }, access, method === 'POST' && doc.body ? { plainBodies: [JSON_TYPE] } : undefined, []);

/** The request's live session and its cookie's id, or undefined. */
async function sessionOf(sessions: Sessions, request: FastifyRequest): Promise<{ id: string; session: Session } | undefined> {
  const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
  const session = id === undefined ? undefined : await sessions.find(id);
  return id !== undefined && session ? { id, session } : undefined;
}

/** The console's view of a session: who, where, and what the person may do there. */
async function signedIn(signIn: PersonSignIn, session: Session) {
  const [workspaces, principal] = await Promise.all([
    signIn.access.workspacesOf(session.username),
    signIn.access.principalFor(session.username, session.workspace),
  ]);
  return {
    username: session.username,
    workspace: session.workspace ?? null,
    workspaces,
    permissions: [...principal.permissions].sort(),
    admin: principal.admin,
  };
}

/**
 * Whether single sign-on is configured and who is signed in: always served, and always 200, so the
 * console's sign-in page learns both without an error answer.
 */
export async function sessionStateRoute(app: FastifyInstance, signIn: PersonSignIn | undefined): Promise<void> {
  app.get(
    '/auth/session',
    {
      config: { access: 'public' },
      schema: schema('GET', '/auth/session', 'Single sign-on: configured? signed in?', { responses: { 200: sessionAnswer } }, 'public'),
    },
    async (request, reply) => {
      const found = signIn ? await sessionOf(signIn.sessions, request) : undefined;
      return reply
        .type(JSON_TYPE)
        .send({ oidc: signIn !== undefined, session: signIn && found ? await signedIn(signIn, found.session) : null });
    },
  );
}

/**
 * Single sign-on for people (docs/sso.md), served when BLOCKYARD_OIDC_ISSUER is set: the login
 * redirects to the identity provider, the callback opens a session (an HttpOnly cookie naming it),
 * `/auth/session/workspace` switches the session's workspace, and the logout ends the session. API
 * requests take the cookie as a credential (auth/authenticate.ts).
 */
export async function oidcRoutes(app: FastifyInstance, context: AppContext, signIn: PersonSignIn): Promise<void> {
  const { sessions } = signIn;
  const redirectUri = () => `${context.baseUrl()}/auth/oidc/callback`;
  const answer = async (reply: FastifyReply, session: Session) =>
    reply.type(JSON_TYPE).send({ oidc: true, session: await signedIn(signIn, session) });

  const loginDoc = {
    description: 'Redirects to the identity provider (authorization code flow with PKCE).',
    responses: { 302: { description: 'to the identity provider (Location)' } },
  };
  app.get(
    '/auth/oidc/login',
    { config: { access: 'public' }, schema: schema('GET', '/auth/oidc/login', 'Sign in with single sign-on', loginDoc, 'public') },
    async (_request, reply) => {
      const { url, pending } = await signIn.begin(redirectUri());
      return reply
        .code(302)
        .header('set-cookie', `${PENDING_COOKIE}=${pending}; Path=/; Max-Age=${PENDING_SECONDS}; HttpOnly; Secure; SameSite=Lax`)
        .header('location', url)
        .send();
    },
  );

  const callbackDoc = {
    description: 'Where the identity provider sends the browser back: opens the session and goes on to the console.',
    responses: { 303: { description: 'to the console, with the session cookie (Set-Cookie)' } },
  };
  app.get(
    '/auth/oidc/callback',
    { config: { access: 'public' }, schema: schema('GET', '/auth/oidc/callback', 'Single sign-on callback', callbackDoc, 'public') },
    async (request, reply) => {
      const query = request.url.indexOf('?');
      const callbackUrl = new URL(`${redirectUri()}${query === -1 ? '' : request.url.slice(query)}`);
      // The sign-in under way is spent whatever the outcome: a failed one starts again.
      reply.header('set-cookie', clearedCookie(PENDING_COOKIE));
      const id = await signIn.finish(callbackUrl, cookieValue(request.headers.cookie, PENDING_COOKIE));
      return reply
        .code(303)
        .header('set-cookie', [clearedCookie(PENDING_COOKIE), sessions.cookie(id)])
        .header('location', '/console/')
        .send();
    },
  );

  const switchDoc = {
    description: 'The session acts in this workspace from now on.',
    body: [{ media: JSON_TYPE, schema: WorkspaceChoice }],
    responses: { 200: sessionAnswer },
  };
  app.post(
    '/auth/session/workspace',
    {
      config: { access: 'authenticated', media: { plainBodies: [JSON_TYPE] } },
      schema: schema('POST', '/auth/session/workspace', 'Switch the workspace of the session', switchDoc, 'authenticated'),
    },
    async (request, reply) => {
      const found = await sessionOf(sessions, request);
      if (!found) throw notFound('no single sign-on session in this request (API keys and users act where they are)');
      const body = request.body as Record<string, unknown> | null | undefined;
      const workspace = body?.workspace;
      if (typeof workspace !== 'string' || workspace === '') throw badRequest('workspace: a workspace name is required');
      if (!(await signIn.access.workspacesOf(found.session.username)).includes(workspace))
        throw unprocessable(`workspace: you hold no role in a workspace "${workspace.slice(0, 255)}" (or it does not exist)`);
      await sessions.setWorkspace(found.id, workspace);
      return answer(reply, { ...found.session, workspace });
    },
  );

  const logoutDoc = { responses: { 204: { description: 'signed out; the cookie is cleared' } } };
  app.post(
    '/auth/logout',
    {
      config: { access: 'authenticated' },
      schema: schema('POST', '/auth/logout', 'Sign out (ends the session)', logoutDoc, 'authenticated'),
    },
    async (request, reply) => {
      const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
      if (id !== undefined) await sessions.end(id);
      return reply.code(204).header('set-cookie', clearedCookie(SESSION_COOKIE)).send();
    },
  );
}
