import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest, unauthorized } from '../lib/errors.js';
import { JSON_CONTENT_TYPE } from '../lib/media-types.js';
import type { AppContext } from './app.js';
import { oidcRoutes, sessionStateRoute } from './oidc-routes.js';
import { routeSchema } from './route-schemas.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const Credentials = Type.Object({
  grant_type: Type.Optional(Type.Literal('client_credentials', { description: 'required in the form of /oauth/token' })),
  client_id: Type.Optional(Type.String({ description: 'the API key’s uuid (or clientId; or HTTP Basic client authentication)' })),
  client_secret: Type.Optional(Type.String({ description: 'the API key’s secret (or clientSecret)' })),
});
const Token = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer(),
  refresh_expires_in: Type.Integer(),
  'not-before-policy': Type.Integer(),
  scope: Type.String(),
  token_type: Type.Literal('Bearer'),
});
const credentialBodies = [
  { media: FORM, schema: Credentials },
  { media: JSON_TYPE, schema: Credentials },
];
const tokenAnswer = { description: 'an access token', body: [{ media: JSON_TYPE, schema: Token }] };
const Discovery = Type.Object(
  {},
  { additionalProperties: true, description: 'OpenID Connect discovery (issuer, token_endpoint, jwks_uri, …)' },
);
const Jwks = Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) });

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Client credentials from the spec's form, a JSON body, or HTTP Basic client authentication. */
function credentialsOf(body: unknown, authorization: string | undefined, requireGrantType: boolean): ClientCredentials {
  const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  if (requireGrantType) {
    const grantType = str(fields.grant_type);
    if (grantType === undefined) throw badRequest('grant_type: is required and must be client_credentials');
    if (grantType !== 'client_credentials') throw badRequest(`grant_type: unsupported grant type "${grantType}"; use client_credentials`);
  }
  let clientId = str(fields.client_id) ?? str(fields.clientId);
  let clientSecret = str(fields.client_secret) ?? str(fields.clientSecret);
  if (clientId === undefined && authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1));
      } catch {
        throw unauthorized('malformed Basic client credentials');
      }
    }
  }
  if (clientId === undefined) throw badRequest('client_id: is required');
  if (clientId.includes('\u0000')) throw unauthorized('invalid client credentials');
  if (clientSecret === undefined) throw badRequest('client_secret: is required');
  return { clientId, clientSecret };
}

/**
 * Endpoint 2 (`POST /api/login`, spec 5.2) and the embedded identity provider: the token endpoint,
 * OpenID discovery and the JWKS with the signing keys; and, when configured, single sign-on for people.
 */
export async function loginRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const { tokens, authenticator } = context.identity;

  const issue = async (sent: ClientCredentials, address: string) => {
    const key = await authenticator.authenticateClient(sent.clientId, sent.clientSecret, address);
    const token = await tokens.issueForKey(key);
    return { ...token, refresh_expires_in: 0, 'not-before-policy': 0, scope: 'profile email', token_type: 'Bearer' };
  };

  const media = { plainBodies: [FORM, JSON_TYPE] };
  const schema = (path: string, summary: string, doc: Omit<Parameters<typeof routeSchema>[2], 'summary'>, method = 'POST') =>
    routeSchema(method, path, { summary, ...doc }, 'public', method === 'POST' ? media : undefined, []);

  // The spec's form answers 307 (method and body kept) to the token endpoint; the JSON form of real
  // runners, which follow no redirects, gets the token directly (COMPAT §2).
  const login = schema('/api/login', 'Log in with an API key (spec 5.2)', {
    description: 'The form answers 307 to /oauth/token (method and body kept); a JSON body gets the token directly.',
    body: credentialBodies,
    responses: { 200: tokenAnswer, 307: { description: 'to /oauth/token (Location)' } },
  });
  app.post('/api/login', { config: { media, access: 'public' }, schema: login }, async (request, reply) => {
    if (request.headers['content-type']?.toLowerCase().startsWith(JSON_TYPE)) {
      return reply.type(JSON_CONTENT_TYPE).send(await issue(credentialsOf(request.body, request.headers.authorization, false), request.ip));
    }
    return reply.code(307).header('location', `${context.baseUrl()}/oauth/token`).send();
  });

  app.post(
    '/oauth/token',
    {
      config: { media, access: 'public' },
      schema: schema('/oauth/token', 'Token endpoint (client credentials)', { body: credentialBodies, responses: { 200: tokenAnswer } }),
    },
    async (request, reply) => {
      const isForm = request.headers['content-type']?.toLowerCase().startsWith(FORM) ?? false;
      return reply
        .type(JSON_CONTENT_TYPE)
        .send(await issue(credentialsOf(request.body, request.headers.authorization, isForm), request.ip));
    },
  );

  const discovery = schema(
    '/.well-known/openid-configuration',
    'OpenID Connect discovery',
    { responses: { 200: { description: 'the provider metadata', body: [{ media: JSON_TYPE, schema: Discovery }] } } },
    'GET',
  );
  app.get('/.well-known/openid-configuration', { config: { access: 'public' }, schema: discovery }, async (_request, reply) =>
    reply.type(JSON_CONTENT_TYPE).send({
      issuer: tokens.issuer,
      token_endpoint: `${context.baseUrl()}/oauth/token`,
      jwks_uri: `${context.baseUrl()}/oauth/jwks`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      id_token_signing_alg_values_supported: ['ES256'],
      response_types_supported: ['token'],
      scopes_supported: ['profile', 'email'],
    }),
  );

  const jwks = schema(
    '/oauth/jwks',
    'The token signing keys (JWKS)',
    { responses: { 200: { description: 'the public keys', body: [{ media: 'application/jwk-set+json', schema: Jwks }] } } },
    'GET',
  );
  app.get('/oauth/jwks', { config: { access: 'public' }, schema: jwks }, async (_request, reply) =>
    reply.type('application/jwk-set+json').send(tokens.jwks()),
  );

  await sessionStateRoute(app, context.identity.signIn);
  if (context.identity.signIn) await oidcRoutes(app, context, context.identity.signIn);
}
