import { ADMIN_USAGE, adminHelp } from './admin-usage.js';
import { runCli } from './cli/program.js';
import { inspect } from 'node:util';
import { loadConfig } from './config.js';
import { EXIT_CODES, StartFailure } from './lib/start-failure.js';

// The server and the operator commands are loaded only when run: the client commands start faster.

/** CLI: `blockyard serve` (default) runs the server. */
async function serve(): Promise<void> {
  const config = loadConfig();
  const { startServer } = await import('./server.js');
  const server = await startServer(config);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Armed first: nothing below (a log line to a closed stdout included) may keep the process alive.
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    server.log.info({ signal }, 'shutting down: finishing in-flight requests');
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

/** `blockyard admin …`: its failures are usage errors (exit 2), except a start failure (configuration, database, master key). */
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
    if (error instanceof StartFailure) throw error;
    throw new StartFailure(EXIT_CODES.configuration, (error as Error).message);
  }
}

/** Every way the server or an operator command ends in failure: one line on stderr, and its exit code (lib/start-failure.ts). */
function fail(error: unknown): never {
  const known = error instanceof StartFailure;
  // A start failure is one line by construction (a usage error may add the usage); anything else shows its first line.
  const message = known
    ? error.message
    : `failed to start: ${String((error as Error).message ?? error).split('\n')[0]} (BLOCKYARD_LOG_LEVEL=debug shows where)`;
  process.stderr.write(`blockyard: ${message}\n`);
  if (['debug', 'trace'].includes(process.env.BLOCKYARD_LOG_LEVEL?.trim().toLowerCase() ?? ''))
    process.stderr.write(`${inspect(error, { depth: 4 })}\n`);
  process.exit(known ? error.exitCode : EXIT_CODES.unexpected);
}

runCli(process.argv.slice(2), { serve, admin, adminUsage: ADMIN_USAGE }).catch(fail);
