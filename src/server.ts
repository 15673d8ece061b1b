import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { announceGeneratedKey } from './announce.js';
import { bootstrapCredentials, type GeneratedAdminKey } from './auth/bootstrap.js';
import { loadIssuerCa } from './auth/oidc.js';
import { apiAddress, assertListenable, listenFailure } from './http/listen-address.js';
import type { ScryptCost } from './auth/passwords.js';
import type { Config } from './config.js';
import { createApp, type AppContext } from './http/app.js';
import { consoleRoutes } from './http/console-routes.js';
import { registerEventStream } from './http/event-stream.js';
import { healthRoutes } from './http/health.js';
import { indexRoutes } from './http/index-routes.js';
import { loginRoutes } from './http/login-routes.js';
import { listenForMetrics, type MetricsListener } from './http/metrics-listener.js';
import { metricsRoutes, registerRequestMetrics } from './http/metrics-routes.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { registerRetiredPaths } from './http/retired-paths.js';
import { registerApiReference, registerOpenApiRoutes } from './http/openapi.js';
import { registerOperations } from './http/operations.js';
import { scimRoutes } from './http/scim-routes.js';
import { loadTlsMaterial } from './http/tls.js';
import { importOperations } from './import/routes.js';
import { EventFeed } from './kinds/eventlog/feed.js';
import { EVENTS_CHANNEL } from './kinds/eventlog/recorder.js';
import { EventRetention } from './kinds/eventlog/retention.js';
import type { KindManifest } from './kinds/manifest.js';
import type { Operation } from './kinds/operation.js';
import { relationsOf } from './kinds/relations.js';
import type { AuthorizedServices } from './kinds/services.js';
import { createLoggers } from './logging.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { createServices, openServiceDatabase } from './services.js';
import type { Database } from './store/database.js';
import { listen, type Listening } from './store/notifications.js';
import { SharedRateCounter } from './store/shared-rate-counter.js';
import type { UnitOfWork } from './store/transaction.js';

export interface RunningServer {
  /** The URL the server listens on, e.g. `https://localhost:8443`. */
  url: string;
  app: FastifyInstance;
  context: AppContext;
  database: Database;
  log: Logger;
  /** `http://…/metrics` of the metrics listener, when BLOCKYARD_METRICS_PORT opens one. */
  metricsUrl: string | undefined;
  /** Stops accepting, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

/** Every operation of the API: each kind's, in the registry's order, then the import's. */
function operations(kinds: readonly KindManifest[], services: AuthorizedServices, units: UnitOfWork, log: Logger): Operation[] {
  return [...kinds.flatMap((kind) => kind.operations?.(services) ?? []), ...importOperations(services, kinds, units, log)];
}

export interface StartOptions {
  logDestination?: DestinationStream;
  /** Where the start's announcement goes (the listening line, then a generated admin key); stdout by default. */
  print?: (line: string) => void;
  /**
   * Test servers only: a cheaper scrypt for API user passwords, so suites that send wrong passwords
   * on every route do not spend minutes hashing. No setting or command reaches it (main.ts passes no
   * options): a deployment always hashes at PASSWORD_COST.
   */
  passwordCost?: ScryptCost;
  /** Test servers only: the kinds served instead of the registry's (the registry's and one of the test's own). */
  kinds?: readonly KindManifest[];
}

/** The composition root: TLS, storage, services, routes, listen. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const { log, access } = createLoggers(config, options.logDestination);
  // Everything that can be checked is, before the database is touched.
  const metricsAddress =
    config.metrics.port === undefined
      ? undefined
      : {
          host: config.metrics.host,
          port: config.metrics.port,
          hostVariable: 'BLOCKYARD_METRICS_HOST',
          portVariable: 'BLOCKYARD_METRICS_PORT',
        };
  for (const address of [apiAddress(config), metricsAddress]) if (address) await assertListenable(address);
  const issuerCa = loadIssuerCa(config.oidc);
  const tls = await loadTlsMaterial(config, log);
  const metrics = new ServerMetrics();
  const database = await openServiceDatabase(config, log, metrics.transactions, options.kinds);
  let app: FastifyInstance;
  let context: AppContext;
  let sharedRateCounter: SharedRateCounter | undefined;
  let services: Awaited<ReturnType<typeof createServices>>;
  // The event streams' one reader of new events: woken by this process's commits, by the other
  // instances' (PostgreSQL notifications), and by a slow poll.
  const feed = new EventFeed(database.db, {
    log,
    durable: database.durable,
    pollMs: config.eventStreams.pollSeconds * 1000,
    folding: database.dialect === 'sqlite' ? 'ascii' : 'unicode',
    // PostgreSQL: the other instances notify this one's commits only while it has streams.
    onWatching: (watching) => services.recorder.interest?.watching(watching),
  });
  let listening: Listening | undefined;
  let metricsListener: MetricsListener | undefined;
  let generatedKey: GeneratedAdminKey | undefined;
  try {
    services = await createServices(config, database, log, {
      issuerCa,
      passwordCost: options.passwordCost,
      ...(options.kinds ? { kinds: options.kinds } : {}),
    });
    generatedKey = await bootstrapCredentials(config, services.system.apiKeys, services.system.apiUsers, log);
    if (database.dialect === 'postgres') sharedRateCounter = new SharedRateCounter(database.db, config.rateLimit.windowSeconds * 1000, log);
    ({ app, context } = await createApp(
      config,
      tls,
      {
        identity: services.identity,
        services: services.authorized,
        relations: relationsOf(services.kinds),
        ping: () => database.ping(),
        keyring: services.keyring,
        ...(sharedRateCounter ? { sharedRateCounter } : {}),
        accessLog: access,
      },
      log,
    ));
    registerRequestMetrics(app, metrics);
    services.identity.authenticator.observeFailures(metrics.authFailed);
    metrics.watch({
      connections: () => database.usage(),
      streams: () => feed.size,
      streamLag: () => feed.lag(),
      waitingRuns: () => services.system.runs.waitingByRunner(),
      onError: (what, error) => log.warn({ err: error }, `reading the metrics (${what}) failed`),
    });
    for (const routes of [healthRoutes, loginRoutes, indexRoutes, consoleRoutes]) await app.register(routes, context);
    await app.register(metricsRoutes, { metrics });
    registerOperations(app, operations(services.kinds, services.authorized, services.units, log), context, config.mediaVendors);
    const { eventStreams } = config;
    registerEventStream(app, context, feed, {
      perCredential: eventStreams.perCredential,
      heartbeatMs: eventStreams.heartbeatSeconds * 1000,
      bufferBytes: eventStreams.bufferBytes,
    });
    services.recorder.onCommitted(() => feed.wake());
    const { interest } = services.recorder;
    if (interest && config.databaseUrl)
      listening = listen(
        config.databaseUrl,
        EVENTS_CHANNEL,
        {
          notified: (payload) => {
            interest.heard(payload);
            feed.wake();
          },
          // Whatever was notified while no connection listened; and who watches now.
          connected: () => {
            interest.listening();
            feed.wake();
          },
        },
        log,
        config.dbTimeoutMs,
      );
    await app.register(scimRoutes, { ...context, prefix: '/scim/v2' });
    registerOpenApiRoutes(app);
    await registerApiReference(app, context.access);
    registerRetiredPaths(app, context);
    registerMethodNotAllowed(app, context);
    if (metricsAddress)
      metricsListener = await listenForMetrics(metricsAddress.host, metricsAddress.port, metrics, log).catch((error: unknown) =>
        Promise.reject(listenFailure(error, metricsAddress) ?? error),
      );
  } catch (error) {
    feed.close();
    await listening?.close();
    sharedRateCounter?.close();
    await database.close();
    throw error;
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await metricsListener?.close();
    feed.close();
    await listening?.close();
    sharedRateCounter?.close();
    await database.close();
    throw listenFailure(error, apiAddress(config)) ?? error;
  }
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  // The log lines of the start go out first (they are written in batches), then the announcement.
  await new Promise<void>((resolve) => log.flush(() => resolve()));
  print(
    `Blockyard listening on https://localhost:${(app.server.address() as AddressInfo).port} (${database.dialect}); public URL ${context.baseUrl()}\n`,
  );
  // After every line the start logged, so that it is not scrolled away.
  if (generatedKey) announceGeneratedKey(generatedKey, config.dataDir, print);
  // Runs whose runner went silent fail after the run timeout; every instance sweeps.
  const sweepMs = Math.min(60_000, Math.max(500, (config.runTimeoutSeconds * 1000) / 2));
  const sweeper = setInterval(() => {
    services.system.runs.expireSilentRuns().catch((error: unknown) => log.warn({ err: error }, 'expiring silent runs failed'));
  }, sweepMs);
  sweeper.unref();
  // Events older than the retention go, in bounded batches; every instance prunes.
  const retention = new EventRetention(services.system.events, {
    days: config.eventRetentionDays,
    onError: (error) => log.warn({ err: error }, 'pruning old events failed'),
  });
  retention.start();
  let closing: Promise<void> | undefined;
  return {
    url: context.baseUrl(),
    app,
    context,
    database,
    log,
    metricsUrl: metricsListener?.url,
    close: () =>
      (closing ??= (async () => {
        clearInterval(sweeper);
        await retention.stop();
        // app.close() ends the event streams first (their preClose hook), then waits for requests.
        await app.close();
        await metricsListener?.close();
        feed.close();
        await listening?.close();
        sharedRateCounter?.close();
        await database.close();
      })()),
  };
}
