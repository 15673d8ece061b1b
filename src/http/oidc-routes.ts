import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PENDING_COOKIE, PENDING_SECONDS, type PersonSignIn } from '../auth/oidc.js';
import { clearedCookie, cookieValue, SESSION_COOKIE, type Session } from '../auth/sessions.js';
import { ApiError, badRequest, notFound, unprocessable } from '../lib/errors.js';
import { ErrorBody } from '../lib/wire-schemas.js';
import type { AppContext } from './app.js';
import { routeSchema } from './route-schemas.js';

const JSON_TYPE = 'application/json';
const SessionAnswer = Type.Object({
  username: Type.String({ description: 'the meshUser signed in' }),
  workspace: Type.Union([Type.String(), Type.Null()], { description: 'the workspace the session acts in (null: the person holds no binding yet)' }),
  workspaces: Type.Array(Type.String(), { description: 'the workspaces the person holds a role binding in' }),
});
const WorkspaceChoice = Type.Object({ workspace: Type.String({ description: 'a workspace the person holds a role binding in' }) });
const sessionAnswer = { description: 'the session', body: [{ media: JSON_TYPE, schema: SessionAnswer }] };

/** Signed out (or never signed in): no Basic challenge, which a browser would answer with its own dialog. */
const noSession = () => new ApiError('Unauthorized', 'not signed in: sign in with single sign-on at /auth/oidc/login', { 'www-authenticate': 'Bearer realm="blockyard"' });

/**
 * Single sign-on for people (docs/sso.md), served when BLOCKYARD_OIDC_ISSUER is set: the login
 * redirects to the identity provider, the callback opens a session (an HttpOnly cookie naming it),
 * `/auth/session` tells the console who is signed in and lets it switch the session's workspace, and
 * the logout ends the session. API requests take the cookie as a credential (auth/authenticate.ts).
 */
export async function oidcRoutes(app: FastifyInstance, context: AppContext, signIn: PersonSignIn): Promise<void> {
  const { sessions } = signIn;
  const redirectUri = () => `${context.baseUrl()}/auth/oidc/callback`;
  const schema = (method: string, path: string, summary: string, doc: Omit<Parameters<typeof routeSchema>[2], 'summary'>, access: 'public' | 'authenticated') =>
    routeSchema(method, path, { summary, ...doc }, access, method === 'POST' && doc.body ? { plainBodies: [JSON_TYPE] } : undefined, []);

  /** The request's live session and its cookie's id, or undefined. */
  const sessionOf = async (request: FastifyRequest): Promise<{ id: string; session: Session } | undefined> => {
    const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
    const session = id === undefined ? undefined : await sessions.find(id);
    return id !== undefined && session ? { id, session } : undefined;
  };
  const answer = async (reply: FastifyReply, session: Session) =>
    reply.type(JSON_TYPE).send({ username: session.username, workspace: session.workspace ?? null, workspaces: await signIn.workspacesOf(session.username) });

  app.get('/auth/oidc/login', { config: { access: 'public' }, schema: schema('GET', '/auth/oidc/login', 'Sign in with single sign-on', { description: 'Redirects to the identity provider (authorization code flow with PKCE).', responses: { 302: { description: 'to the identity provider (Location)' } } }, 'public') }, async (_request, reply) => {
    const { url, pending } = await signIn.begin(redirectUri());
    return reply.code(302).header('set-cookie', `${PENDING_COOKIE}=${pending}; Path=/; Max-Age=${PENDING_SECONDS}; HttpOnly; Secure; SameSite=Lax`).header('location', url).send();
  });

  const callbackDoc = { description: 'Where the identity provider sends the browser back: opens the session and goes on to the console.', responses: { 303: { description: 'to the console, with the session cookie (Set-Cookie)' } } };
  app.get('/auth/oidc/callback', { config: { access: 'public' }, schema: schema('GET', '/auth/oidc/callback', 'Single sign-on callback', callbackDoc, 'public') }, async (request, reply) => {
    const query = request.url.indexOf('?');
    const callbackUrl = new URL(`${redirectUri()}${query === -1 ? '' : request.url.slice(query)}`);
    // The sign-in under way is spent whatever the outcome: a failed one starts again.
    reply.header('set-cookie', clearedCookie(PENDING_COOKIE));
    const id = await signIn.finish(callbackUrl, cookieValue(request.headers.cookie, PENDING_COOKIE));
    return reply.code(303).header('set-cookie', [clearedCookie(PENDING_COOKIE), sessions.cookie(id)]).header('location', '/console/').send();
  });

  app.get('/auth/session', { config: { access: 'public' }, schema: schema('GET', '/auth/session', 'Who is signed in with single sign-on', { responses: { 200: sessionAnswer, 401: { description: 'not signed in (or the session ended)', body: [{ media: JSON_TYPE, schema: ErrorBody }] } } }, 'public') }, async (request, reply) => {
    const found = await sessionOf(request);
    if (!found) throw noSession();
    return answer(reply, found.session);
  });

  const switchDoc = { description: 'The session acts in this workspace from now on.', body: [{ media: JSON_TYPE, schema: WorkspaceChoice }], responses: { 200: sessionAnswer } };
  app.post('/auth/session/workspace', { config: { access: 'authenticated', media: { plainBodies: [JSON_TYPE] } }, schema: schema('POST', '/auth/session/workspace', 'Switch the workspace of the session', switchDoc, 'authenticated') }, async (request, reply) => {
    const found = await sessionOf(request);
    if (!found) throw notFound('no single sign-on session in this request (API keys and users act where they are)');
    const body = request.body as Record<string, unknown> | null | undefined;
    const workspace = body?.workspace;
    if (typeof workspace !== 'string' || workspace === '') throw badRequest('workspace: a workspace name is required');
    if (!(await signIn.workspacesOf(found.session.username)).includes(workspace)) throw unprocessable(`workspace: you hold no role in a workspace "${workspace.slice(0, 255)}" (or it does not exist)`);
    await sessions.setWorkspace(found.id, workspace);
    return answer(reply, { ...found.session, workspace });
  });

  app.post('/auth/logout', { config: { access: 'authenticated' }, schema: schema('POST', '/auth/logout', 'Sign out (ends the session)', { responses: { 204: { description: 'signed out; the cookie is cleared' } } }, 'authenticated') }, async (request, reply) => {
    const id = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (id !== undefined) await sessions.end(id);
    return reply.code(204).header('set-cookie', clearedCookie(SESSION_COOKIE)).send();
  });
}
