import { ADMIN_USAGE, runAdminCommand } from './admin-cli.js';
import { ConfigError, loadConfig } from './config.js';
import { CliError, EVENTS_USAGE, runEventsCommand } from './events-cli.js';
import { startServer } from './server.js';

export const USAGE = `usage:
  blockyard [serve]            run the server (every setting is a BLOCKYARD_* environment variable, see the README)
  blockyard admin <command>    operator commands against the configured database
  blockyard events [--follow]  the event log for people, followed live with --follow (blockyard events --help)
  blockyard help | --help | -h this text
${ADMIN_USAGE.replace(/^usage:\n/, '')}
${EVENTS_USAGE.replace(/^usage:\n/, '')}`;

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
    case 'events':
      try {
        return await runEventsCommand(argv.slice(1), (line) => process.stdout.write(line));
      } catch (error) {
        if (error instanceof CliError) {
          process.stderr.write(`blockyard events: ${error.message}\n`);
          process.exit(1);
        }
        if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${(error as Error).message}\n${EVENTS_USAGE}`);
        throw error;
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
