import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Server as TlsServer } from 'node:tls';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { PersonSignIn } from '../auth/oidc.js';
import type { KeyringState } from '../crypto/keyring.js';
import type { Principal } from '../auth/principal.js';
import { CollectionPermissions, mayCall, routeDenial, type RouteAccess, type ServedRouteAccess } from '../auth/route-access.js';
import type { TokenService } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { AccessLog } from '../logging.js';
import type { Relation } from '../kinds/relations.js';
import type { AuthorizedServices } from '../kinds/services.js';
import { badRequest, notFound, serviceUnavailable } from '../lib/errors.js';
import { formatMediaType, type MediaRef } from '../lib/media-types.js';
import { parseQueryString } from '../lib/query.js';
import { LocalRateCounter } from '../lib/rate-counter.js';
import { deprecationHeaders } from '../lib/versions.js';
import type { SharedRateCounter } from '../store/shared-rate-counter.js';
import { LazyRequestLogger, registerAccessLog } from './access-log.js';
import { CONSOLE_PATH, isBrowserAtRoot } from './browser-root.js';
import { registerContentParsers } from './content-parsers.js';
import { registerErrorHandling, sendError, writeClientError } from './error-handler.js';
import './fastify-types.js';
import { negotiateRemembered } from './negotiation.js';
import { answerPlainHttpOnTlsPort } from './plain-http-on-tls.js';
import { rateLimiter } from './rate-limit.js';
import { registerOpenApi } from './openapi.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { serializerFor } from './serialization.js';
import type { TlsMaterial } from './tls.js';

/** The embedded identity provider's parts the transport needs: who is calling, and the login. */
export interface Identity {
  authenticator: Authenticator;
  tokens: TokenService;
  /** Single sign-on for people, when configured (BLOCKYARD_OIDC_ISSUER). */
  signIn?: PersonSignIn;
}

/** What the HTTP layer is given: configuration, the kinds (authorized only), identity and the public base URL. */
export interface AppContext {
  config: Config;
  /** The authorized services: the only way routes, the import and the index reach the kinds. */
  services: AuthorizedServices;
  identity: Identity;
  /** A cheap round trip to the database (readiness). */
  ping(): Promise<void>;
  /** Whether the master key opened the stored keys (readiness). */
  keyring: KeyringState;
  /** `BLOCKYARD_PUBLIC_URL`, or `https://localhost:<listening port>`. */
  baseUrl(): string;
  /** Every (kind, version) some route produces or consumes, filled as routes register. */
  served: Map<string, MediaRef>;
  /** Access rule of every route, by `METHOD path` (indexes and the access-control tests read it). */
  access: Map<string, RouteAccess>;
  /** Paths that answer only for retired versions of a kind not served here (http/retired-paths.ts). */
  unservedPaths: Set<string>;
  /** Which collections this caller may list or create in, by the route table (one per request: links ask it). */
  collectionPermissions(principal: Principal | undefined): CollectionPermissions;
  /** The meshObjects index's relations, from the kinds served. */
  relations: readonly Relation[];
}

export interface AppParts {
  identity: Identity;
  services: AuthorizedServices;
  /** The meshObjects index's relations (kinds/relations.ts `relationsOf`). */
  relations: readonly Relation[];
  ping(): Promise<void>;
  keyring: KeyringState;
  /** Instances sharing a PostgreSQL database share their rate-limit counts through this. */
  sharedRateCounter?: SharedRateCounter;
  /** Where the one line per request goes (logging.ts). */
  accessLog: AccessLog;
}

/**
 * TLS 1.2 suites: forward secrecy (ECDHE) and AEAD (AES-GCM, ChaCha20-Poly1305)
 * only; no CBC, no SHA-1 MAC, no static RSA or finite-field DHE key exchange. ECDSA for the generated
 * certificate, RSA for a given one. TLS 1.3 keeps Node's defaults, which must be listed too: a cipher
 * string naming no TLS 1.3 suite would switch TLS 1.3 off.
 */
const TLS_CIPHERS = [
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_AES_128_GCM_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

const accessOf = (request: FastifyRequest): RouteAccess => request.routeOptions.config?.access ?? 'authenticated';

export async function createApp(
  config: Config,
  tls: TlsMaterial,
  parts: AppParts,
  logger: Logger,
): Promise<{ app: FastifyInstance; context: AppContext }> {
  const app = Fastify({
    loggerInstance: logger,
    https: {
      cert: tls.cert,
      key: tls.key,
      minVersion: 'TLSv1.2',
      ciphers: TLS_CIPHERS,
      honorCipherOrder: true,
      ...slowClientLimits(config),
    },
    bodyLimit: config.bodyLimitBytes,
    routerOptions: {
      // Path ids go up to a full tenant name: four 255-character identifiers and three dots.
      maxParamLength: 1100,
      // A repeated query parameter counts once (the last), so every filter and paging value is a
      // string; the repeatable filters read every value (lib/query.ts).
      querystringParser: parseQueryString,
    },
    // Slow or stalled clients cannot hold a connection forever (the rest is in slowClientLimits).
    requestTimeout: config.clientTimeouts.requestSeconds * 1000,
    connectionTimeout: 60_000,
    keepAliveTimeout: config.clientTimeouts.idleSeconds * 1000,
    forceCloseConnections: 'idle',
    // While closing, requests still arriving on open connections get the house's 503 (the first hook
    // below), not Fastify's own body; Fastify adds `Connection: close` to them.
    return503OnClosing: false,
    genReqId: () => crypto.randomUUID(),
    // One access line per request instead of Fastify's two (http/access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger, bindings, options) => new LazyRequestLogger(logger as Logger, bindings, options) as unknown as Logger,
    // request.ip is the client's address (the failed-attempt and anonymous rate limits key on it).
    ...(config.trustedProxies.length > 0 ? { trustProxy: [...config.trustedProxies] } : {}),
    // Malformed percent-escapes and over-long path ids answer in the error format, like every error.
    frameworkErrors: (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
      const api =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? notFound('no object has an id that long')
          : badRequest('the URL is malformed (an invalid percent-escape)');
      sendError(request, reply, api);
    },
    // Requests the HTTP parser refuses (oversized headers, garbage) get a JSON error before closing.
    clientErrorHandler: (error: Error & { code?: string }, socket: Duplex) => writeClientError(error, socket),
  }) as unknown as FastifyInstance; // an HTTPS server with a pino logger: same surface for route modules
  answerPlainHttpOnTlsPort(app.server as unknown as TlsServer, slowClientLimits(config).handshakeTimeout);

  let baseUrl: string | undefined = config.publicUrl;
  // Links ask the route table; a path answering only for retired versions is not served.
  const relationPaths = new Map(parts.relations.map((relation) => [relation.rel, relation.path]));
  const servedRouteAccess: ServedRouteAccess = (method, path) =>
    context.unservedPaths.has(path) ? undefined : context.access.get(`${method} ${path}`);
  const context: AppContext = {
    config,
    services: parts.services,
    identity: parts.identity,
    ping: parts.ping,
    keyring: parts.keyring,
    baseUrl: () => (baseUrl ??= `https://localhost:${(app.server.address() as AddressInfo).port}`),
    served: new Map(),
    access: new Map(),
    unservedPaths: new Set(),
    collectionPermissions: (principal) => new CollectionPermissions(principal, servedRouteAccess, relationPaths),
    relations: parts.relations,
  };

  app.decorateRequest('negotiated', undefined as never);
  app.decorateRequest('principal', undefined as never);
  registerContentParsers(app);
  registerErrorHandling(app);
  registerAccessLog(app, parts.accessLog);
  // Route schemas document and serialise (http/route-schemas.ts). Requests are validated by the
  // codecs and query parsers, whose 400s name the field in the house wording; Fastify's own
  // validation would answer first and otherwise.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(({ schema }) => serializerFor(schema));
  await registerOpenApi(app);

  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    if (route.config?.unservedKind) context.unservedPaths.add(route.url);
    for (const method of [route.method].flat()) context.access.set(`${method} ${route.url}`, route.config?.access ?? 'authenticated');
    const media = route.config?.media;
    for (const ref of [...(media?.produces ?? []), ...(media?.consumes ?? [])])
      context.served.set(`${ref.kind}.${ref.version}.${ref.format ?? 'hal+json'}`, ref);
  });

  // One hook, in this order (each hook is a turn of Fastify's hook runner per request): 1. Who is
  // calling (401 before anything else is looked at). NUL characters cannot be stored or looked up
  // (PostgreSQL refuses them): URLs with them are refused first. 2. The rate limit per credential (per
  // address for anonymous calls); instances sharing a PostgreSQL database share their counts.
  // 3. Media-type negotiation before the body is read: 406 and 415 cost no parsing. 4. The
  // route-level permission (the per-object rules are in the Authorized* services).
  const limit = rateLimiter(
    parts.sharedRateCounter ?? new LocalRateCounter(config.rateLimit.windowSeconds * 1000),
    config.rateLimit.max,
    config.rateLimit.windowSeconds,
  );
  let shuttingDown = false;
  let origin: string | undefined;
  const publicOrigin = () => (origin ??= new URL(context.baseUrl()).origin);
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (shuttingDown) throw serviceUnavailable('the server is shutting down: retry (another instance, or this one once restarted)', 1);
    if (request.url.includes('\u0000') || /%00/i.test(request.url)) throw badRequest('the URL must not contain NUL characters');
    // A browser opening `/` goes to the console, signed in or not (it signs people in itself).
    if (isBrowserAtRoot(request.method, request.url, request.headers.accept))
      return reply.header('vary', 'Accept').redirect(CONSOLE_PATH, 303);
    const access = accessOf(request);
    if (access === 'scim')
      request.principal = await parts.identity.authenticator.authenticateScim(request.headers.authorization, request.ip);
    else if (access === 'tfstate')
      request.principal = await parts.identity.authenticator.authenticateStateBackend(request.headers.authorization, request.ip);
    else if (access !== 'public')
      request.principal = await parts.identity.authenticator.authenticateRequest(request, request.ip, publicOrigin);
    const counted = limit(request, reply);
    if (counted) await counted;
    const media = request.routeOptions.config?.media;
    if (media) {
      const negotiated = negotiateRemembered(request.headers, media, config.mediaVendors);
      request.negotiated = negotiated;
      if (negotiated.answerType) reply.type(negotiated.answerType);
      for (const entry of negotiated.deprecated) {
        const url = `${context.baseUrl()}${canonicalPath(request)}`;
        reply.headers(deprecationHeaders(entry, url, (ref) => formatMediaType(negotiated.vendor, ref.kind, ref.version)));
      }
    }
    if (!mayCall(request.principal, access)) throw routeDenial(request.principal, access);
  });

  // Every answer carries the security headers: set on the raw response before
  // Fastify sees the request, so replies, errors, the not-found handler and Fastify's own 503 while
  // closing all have them (a reply may still override one). Requests the HTTP parser refuses never
  // get here: writeClientError writes the same headers.
  const securityHeaders = Object.entries(SECURITY_HEADERS);
  app.server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of securityHeaders) response.setHeader(name, value);
  });

  return { app, context };
}

/**
 * The path of the matched route with each parameter replaced by its encoded value:
 * what goes into a header never contains the client's raw request target, so nothing it sent (`>`,
 * `;`, `"`, spaces) can end the URL or add parameters. The query is not part of it.
 */
function canonicalPath(request: FastifyRequest): string {
  const template = request.routeOptions.url ?? '';
  let fill = pathFillers.get(template);
  if (!fill) {
    fill = pathFiller(template);
    pathFillers.set(template, fill);
  }
  return fill((request.params ?? {}) as Record<string, string | undefined>);
}

/** Route templates, each split once into its fixed parts and parameters (the route table bounds the map). */
const pathFillers = new Map<string, (params: Record<string, string | undefined>) => string>();

/** `/a/:id/b` → `(params) => '/a/' + encode(params.id) + '/b'`; a trailing `*` keeps its slashes. */
function pathFiller(template: string): (params: Record<string, string | undefined>) => string {
  const parts = template
    .split(/(:\w+|\*$)/)
    .map((part) =>
      part === '*'
        ? (params: Record<string, string | undefined>) => (params['*'] ?? '').split('/').map(encodeURIComponent).join('/')
        : part.startsWith(':')
          ? (params: Record<string, string | undefined>) => encodeURIComponent(params[part.slice(1)] ?? '')
          : () => part,
    );
  return (params) => {
    let path = '';
    for (const part of parts) path += part(params);
    return path;
  };
}

/**
 * Node options Fastify does not pass through: the request head within the headers
 * timeout, the whole request within the request timeout, both checked every second at most (Node's
 * default of 30 s would let a slowloris client stay that much longer), and the TLS handshake within
 * the headers timeout (Node's default is 120 s).
 */
function slowClientLimits(config: Config) {
  const headersTimeout = config.clientTimeouts.headersSeconds * 1000;
  return {
    handshakeTimeout: headersTimeout,
    headersTimeout,
    requestTimeout: config.clientTimeouts.requestSeconds * 1000,
    connectionsCheckingInterval: Math.min(1000, Math.max(250, headersTimeout / 4)),
  };
}
