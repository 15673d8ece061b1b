import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from './config.js';
import { createApp, type AppContext } from './http/app.js';
import { healthRoutes } from './http/health.js';
import { loadTlsMaterial } from './http/tls.js';
import { bootstrapCredentials } from './auth/bootstrap.js';
import { loginRoutes } from './auth/login-routes.js';
import { indexRoutes } from './index/routes.js';
import { apiKeyRoutes } from './kinds/apikey/routes.js';
import { apiUserRoutes } from './kinds/apiuser/routes.js';
import { workspaceRoutes } from './kinds/workspace/routes.js';
import { projectRoutes } from './kinds/project/routes.js';
import { locationRoutes } from './kinds/location/routes.js';
import { platformRoutes } from './kinds/platform/routes.js';
import { tenantRoutes } from './kinds/tenant/routes.js';
import { importRoutes } from './import/routes.js';
import { definitionRoutes } from './kinds/definition/routes.js';
import { blockRoutes } from './kinds/block/routes.js';
import { runRoutes } from './runs/routes.js';
import { runnerRoutes } from './kinds/runner/routes.js';
import { createServices } from './services.js';
import { createLogger } from './logging.js';
import { openDatabase, type Database } from './store/database.js';

export interface RunningServer {
  /** The URL the server listens on, e.g. `https://localhost:8443`. */
  url: string;
  app: FastifyInstance;
  context: AppContext;
  database: Database;
  log: Logger;
  /** Stops accepting, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

/** Every route module, in registration order. */
const ROUTES = [healthRoutes, loginRoutes, indexRoutes, apiKeyRoutes, apiUserRoutes, workspaceRoutes, projectRoutes, locationRoutes, platformRoutes, tenantRoutes, definitionRoutes, blockRoutes, runnerRoutes, runRoutes, importRoutes];

export interface StartOptions {
  logDestination?: DestinationStream;
  /** Where one-time messages (generated credentials) go; stdout by default. */
  print?: (line: string) => void;
}

/** The composition root: TLS, storage, services, routes, listen. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = createLogger(config, options.logDestination);
  const tls = await loadTlsMaterial(config);
  const database = await openDatabase(config, log);
  let app: FastifyInstance;
  let context: AppContext;
  try {
    const services = await createServices(config, database, log);
    await bootstrapCredentials(config, services.apiKeyService, services.apiUsers, log, options.print ?? ((line) => process.stdout.write(line)));
    ({ app, context } = await createApp(config, tls, database, services, log));
    for (const routes of ROUTES) await app.register(routes, context);
  } catch (error) {
    await database.close();
    throw error;
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Runs whose runner went silent fail after the run timeout (issue 7); every instance sweeps.
  const sweepMs = Math.min(60_000, Math.max(500, (config.runTimeoutSeconds * 1000) / 2));
  const sweeper = setInterval(() => {
    context.services.runService.expireSilentRuns().catch((error: unknown) => log.warn({ err: error }, 'expiring silent runs failed'));
  }, sweepMs);
  sweeper.unref();
  let closing: Promise<void> | undefined;
  return {
    url: context.baseUrl(),
    app,
    context,
    database,
    log,
    close: () =>
      (closing ??= (async () => {
        clearInterval(sweeper);
        await app.close();
        await database.close();
      })()),
  };
}
