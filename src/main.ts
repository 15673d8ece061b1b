import { ADMIN_USAGE, runAdminCommand } from './admin-cli.js';
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

export const USAGE = `usage:
  blockyard [serve]            run the server (every setting is a BLOCKYARD_* environment variable, see the README)
  blockyard admin <command>    operator commands against the configured database
  blockyard help | --help | -h this text
${ADMIN_USAGE.replace(/^usage:\n/, '')}`;

/** CLI: `blockyard serve` (default) runs the server. */
async function serve(): Promise<void> {
  const config = loadConfig();
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

async function main(argv: string[]): Promise<void> {
  const [command = 'serve'] = argv;
  switch (command) {
    case 'serve':
      return serve();
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'admin':
      try {
        return await runAdminCommand(loadConfig(), argv.slice(1), (line) => process.stdout.write(line));
      } catch (error) {
        if (error instanceof ConfigError) throw error;
        throw new UsageError((error as Error).message);
      }
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`blockyard: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`blockyard: failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
