import { ADMIN_USAGE, adminHelp } from './admin-usage.js';
import { runCli } from './cli/program.js';
import { ConfigError, loadConfig } from './config.js';

// The server and the operator commands are loaded only when run: the client commands start faster.

/** CLI: `blockyard serve` (default) runs the server. */
async function serve(): Promise<void> {
  const config = loadConfig();
  const { startServer } = await import('./server.js');
  const server = await startServer(config);
  const port = new URL(server.context.baseUrl()).port;
  process.stdout.write(`Blockyard listening on https://localhost:${port} (${server.database.dialect}); public URL ${server.url}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error) => {
        server.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** `blockyard admin …`: its failures are usage errors (exit 2), except a server configuration that does not load. */
async function admin(args: string[]): Promise<void> {
  try {
    // Help needs neither the configuration nor the database: it works before either is set up.
    const help = adminHelp(args);
    if (help !== undefined) {
      process.stdout.write(help);
      return;
    }
    const { runAdminCommand } = await import('./admin-cli.js');
    await runAdminCommand(loadConfig(), args, (line) => process.stdout.write(line));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new UsageError((error as Error).message);
  }
}

class UsageError extends Error {}

runCli(process.argv.slice(2), { serve, admin, adminUsage: ADMIN_USAGE }).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`blockyard: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`blockyard: failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
