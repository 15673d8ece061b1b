import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { clientFrom } from './client.js';
import { configPath } from './config-file.js';
import { CliError } from './errors.js';
import { EVENT_FILTERS } from './event-filters.js';
import type { Printer } from './get.js';
import { login, logout } from './login.js';
import { colours, OUTPUT_FORMATS, renderTable, type OutputFormat } from './output.js';
import { inertJson, visible } from './terminal.js';

// The commands that name kinds load the kind table (and the server's wire modules it is derived
// from) when they run: login, help and apply start without them.

/** What the composition root does (the server and the operator commands), so this module stays a client. */
export interface ServerCommands {
  serve(): Promise<void>;
  admin(args: string[]): Promise<void>;
  adminUsage: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const positiveInteger = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a whole number from 1');
  return number;
};

function printer(): Printer {
  const colour = colours(process.stdout);
  return {
    out: (text) => process.stdout.write(text),
    note: (text) => process.stderr.write(text),
    table: {
      header: (text) => colour('bold', text),
      cell: (header, text) => {
        if (header !== 'STATUS') return text;
        if (text === 'SUCCESS' || text === 'SUCCEEDED') return colour('green', text);
        if (text === 'FAILED') return colour('red', text);
        return text;
      },
    },
  };
}

/** `blockyard …`: the server, the operator commands, and a client for people (as kubectl is to Kubernetes). */
export function buildProgram(server: ServerCommands, env: Record<string, string | undefined> = process.env): Command {
  const config = () => configPath(env);
  const client = () => clientFrom(config(), env);
  const program = new Command('blockyard')
    .description('Self-hosted building block management: the server, its operator commands, and a client for people.')
    .enablePositionalOptions()
    .showHelpAfterError('(blockyard --help lists the commands)')
    .exitOverride()
    .addHelpText(
      'after',
      `\nThe client commands (login, get, apply, order, delete, runs, events) use the login stored in ${config()} (BLOCKYARD_CONFIG);\nBLOCKYARD_URL, BLOCKYARD_CA_FILE and BLOCKYARD_CLIENT_ID + BLOCKYARD_CLIENT_SECRET | BLOCKYARD_USERNAME + BLOCKYARD_PASSWORD | BLOCKYARD_TOKEN override it.`,
    );

  program
    .command('serve')
    .description('run the server, also without a command (every setting is a BLOCKYARD_* environment variable, see the README)')
    .action(() => server.serve());

  program
    .command('admin')
    .description('operator commands against the configured database (create-key, list-keys, create-user, scim-token, rotate-*)')
    .argument('<command>', 'the operator command')
    .argument('[args...]', 'its arguments')
    .passThroughOptions()
    .allowUnknownOption()
    .addHelpText('after', `\n${server.adminUsage}`)
    .action((command: string, args: string[]) => server.admin([command, ...args]));

  program
    .command('login')
    .description('store the server, its certificate and credentials (checked first) in the config file, mode 0600')
    .argument('<url>', "the server's https:// URL")
    .option('--client-id <id>', 'an API key (its tokens are obtained and renewed by the CLI)')
    .option('--client-secret <secret>', "the API key's secret (else BLOCKYARD_CLIENT_SECRET)")
    .option('--username <name>', 'an API user (Basic)')
    .option('--password <password>', "the API user's password (else BLOCKYARD_PASSWORD)")
    .option('--ca <file>', "the server's certificate or CA (PEM), e.g. tls/cert.pem in the server's data directory")
    .option('--insecure', "do not verify the server's certificate (a throwaway server only)")
    .action((url: string, options: Parameters<typeof login>[1]) =>
      login(url, options, config(), (text) => process.stdout.write(text), env),
    );

  program
    .command('logout')
    .description('forget the stored server and credentials')
    .action(() => logout(config(), (text) => process.stdout.write(text)));

  program
    .command('get')
    .description('list the objects of a kind (every page), or show one')
    .argument('<kind>', 'a kind, e.g. workspaces, projects, bb (blockyard kinds lists them)')
    .argument('[id]', 'a name or uuid: one object')
    .addOption(
      new Option('-o, --output <format>', 'table for people, wide with more columns, json or yaml for scripts')
        .choices(OUTPUT_FORMATS)
        .default('table'),
    )
    .option('--filter <key=value>', 'a list filter (repeatable)', collect)
    .option('--page-size <n>', 'objects per request (pages are followed)', positiveInteger)
    .action(async (kind: string, id: string | undefined, options: { output: OutputFormat; filter?: string[]; pageSize?: number }) => {
      const { getObjects } = await import('./get.js');
      await getObjects(client(), kind, id, { ...options, filter: options.filter ?? [] }, printer());
    });

  program
    .command('kinds')
    .description('the kinds get and delete take: their names, the list filters and the media type asked for')
    .action(async () => {
      const { CLI_KINDS } = await import('./kinds.js');
      const rows = CLI_KINDS.map((kind) => [kind.names.join(','), kind.kind, kind.accept, kind.filters.join(',')]);
      process.stdout.write(renderTable(['NAMES', 'KIND', 'MEDIA TYPE', 'FILTERS'], rows, printer().table));
    });

  program
    .command('apply')
    .description('create or update the objects of a file by their identity (the declarative import); exit 1 when any failed')
    .requiredOption('-f, --filename <file>', 'YAML (one or more --- documents) or JSON; - for stdin')
    .option('--collection <name>', 'the meshObjectCollection the objects belong to (declarative deletion)')
    .option('--owner <owner>', "the collection's owner")
    .action(async (options: { filename: string; collection?: string; owner?: string }) => {
      let text: string;
      try {
        text = readFileSync(options.filename === '-' ? 0 : options.filename, 'utf8');
      } catch (error) {
        throw new CliError(`-f ${options.filename}: ${(error as Error).message}`);
      }
      const { applyObjects } = await import('./apply.js');
      if (!(await applyObjects(client(), text, options, printer()))) process.exitCode = 1;
    });

  program
    .command('order')
    .description("order a building block: the definition's latest released version offered to you, on a tenant or in a workspace")
    .argument('<definition>', "the definition's display name or uuid")
    .option('--tenant <uuid>', 'the tenant it goes on (a TENANT_LEVEL definition)')
    .option('--workspace <identifier>', 'the workspace it goes in (a WORKSPACE_LEVEL definition)')
    .option('--input <key=value>', 'an input value (repeatable; typed by the version, e.g. size=16, enabled=true)', collect)
    .option('--name <display name>', "the block's display name (default: the definition's)")
    .addOption(new Option('-o, --output <format>', 'table for people, json or yaml for scripts').choices(OUTPUT_FORMATS).default('table'))
    .action(
      async (
        definition: string,
        options: { tenant?: string; workspace?: string; input?: string[]; name?: string; output: OutputFormat },
      ) => {
        if ((options.tenant === undefined) === (options.workspace === undefined))
          throw new CliError('give the target: --tenant <uuid> or --workspace <identifier> (one of them)');
        const target = options.tenant !== undefined ? { tenant: options.tenant } : { workspace: options.workspace! };
        const { orderBlock } = await import('./order.js');
        await orderBlock(
          client(),
          definition,
          { target, inputs: options.input ?? [], output: options.output, ...(options.name === undefined ? {} : { name: options.name }) },
          printer(),
        );
      },
    );

  program
    .command('delete')
    .description('delete an object')
    .argument('<kind>', 'a kind (blockyard kinds lists them)')
    .argument('<id>', 'its name or uuid')
    .action(async (kind: string, id: string) => {
      const { deleteObject } = await import('./get.js');
      await deleteObject(client(), kind, id, printer());
    });

  const runs = program.command('runs').description('building block runs');
  runs
    .command('logs')
    .description("a run's steps and user messages (a block's latest run); --follow prints changes until the run ends")
    .argument('<block or run>', "a block's uuid (its latest run) or a run's uuid")
    .option('-f, --follow', 'follow the run (through the event stream) until it ends')
    .action(async (run: string, options: { follow?: boolean }) => {
      const { runLogs } = await import('./runs.js');
      await runLogs(client(), run, options.follow === true, printer());
    });

  const events = program
    .command('events')
    .description('the event log, one line per event (latest first printed oldest first); --follow prints new ones as they happen')
    .option('-f, --follow', 'then every new event (the event stream), until Ctrl-C')
    .option('--json', 'one JSON object per line')
    .option('--size <n>', 'how many of the latest events', positiveInteger, 50)
    .option('--last-event-id <uuid>', 'follow from after this event (nothing listed first)')
    .option('--exclude-title <title>', 'leave out events with this title (repeatable)', collect);
  for (const filter of EVENT_FILTERS) events.option(`--${filter.option} <value>`, filter.description);
  events.action(async (options: Record<string, string | string[] | number | boolean | undefined>) => {
    const query = new URLSearchParams();
    for (const filter of EVENT_FILTERS) {
      const value = options[camel(filter.option)];
      if (typeof value === 'string') query.set(filter.parameter, value);
    }
    for (const title of (options.excludeTitle as string[] | undefined) ?? []) query.append('excludeTitle', title);
    const { followEvents, formatEvent, latestEvents } = await import('./events.js');
    const server = client();
    const print = (event: Awaited<ReturnType<typeof latestEvents>>[number]) =>
      process.stdout.write(`${options.json ? inertJson(JSON.stringify(event)) : formatEvent(event)}\n`);
    let after = options.lastEventId as string | undefined;
    if (!options.follow || after === undefined) {
      const latest = await latestEvents(server, query, options.size as number);
      latest.forEach(print);
      if (!options.follow) return;
      // Followed from the newest listed: nothing between the list and the stream is lost.
      after = latest.at(-1)?.metadata.uuid;
    }
    await followEvents(server, {
      query,
      ...(after === undefined ? {} : { after }),
      onEvent: (event) => {
        print(event);
        return false;
      },
      note: (line) => process.stderr.write(`blockyard events: ${visible(line)}\n`),
    });
  });
  return program;
}

const camel = (option: string) => option.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Runs the CLI; the exit code of a client command: 0, 1 for a failure (said in one line, no stack
 * trace: a CliError says what to do, anything else its message), 2 for a command line that is wrong.
 */
export async function runCli(argv: string[], server: ServerCommands): Promise<void> {
  // No command at all runs the server, as it always has (`npx blockyard`, `npm start`).
  const args = argv.length === 0 ? ['serve'] : argv;
  // A reader that stops early (`blockyard get … | head`) ends the command quietly, as in any shell tool.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
  try {
    await buildProgram(server).parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; anything commander refuses is a usage error.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    // The server's and the operator commands' failures are the caller's to report (with their exit codes).
    if (args[0] === 'serve' || args[0] === 'admin') throw error;
    // The message may quote the server (names, its error text): shown, never interpreted.
    process.stderr.write(`blockyard: ${visible((error as Error).message)}\n`);
    process.exitCode = 1;
  }
}
