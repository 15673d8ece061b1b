import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { Config } from './config.js';
import { createApp, type AppContext } from './http/app.js';
import { healthRoutes } from './http/health.js';
import { loadTlsMaterial } from './http/tls.js';
import { indexRoutes } from './index/routes.js';
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

/** The composition root: TLS, storage, routes, listen. */
export async function startServer(config: Config, options: { logDestination?: DestinationStream } = {}): Promise<RunningServer> {
  const log = createLogger(config, options.logDestination);
  const tls = await loadTlsMaterial(config);
  const database = await openDatabase(config, log);
  const { app, context } = createApp(config, tls, database, log);

  await app.register(healthRoutes, context);
  await app.register(indexRoutes, context);

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await database.close();
    throw error;
  }
  const url = context.baseUrl();
  let closing: Promise<void> | undefined;
  return {
    url: config.publicUrl ?? url,
    app,
    context,
    database,
    log,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await database.close();
      })()),
  };
}
