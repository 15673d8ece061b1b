// The usage of `blockyard admin …`, apart from the commands: help loads neither the configuration
// nor the database (nor the server's modules).

interface AdminCommandUsage {
  name: string;
  /** Its command lines, each with what the list of commands says of it. */
  synopsis: readonly (readonly [string, string?])[];
  /** What it does, for the command's own help. */
  description: string;
  /** Its arguments and options, and the environment it reads. */
  options: readonly (readonly [string, string])[];
  example: string;
}

const ADMIN_COMMANDS: readonly AdminCommandUsage[] = [
  {
    name: 'create-key',
    synopsis: [
      [
        'blockyard admin create-key --workspace <id> --permission <CODE> [--permission <CODE> ...] [--name <display name>] [--expires-at <date>]',
      ],
    ],
    description: 'Creates an API key owned by a workspace and prints its client id and secret (the secret only this once).',
    options: [
      ['--workspace <id>', 'the workspace that owns the key (required)'],
      ['--permission <CODE>', 'a permission of the key, e.g. ADM_APIKEY_SAVE or PROJECT_LIST (repeatable)'],
      ['--name <display name>', 'its display name (default: "created by blockyard admin")'],
      ['--expires-at <date>', 'a date (YYYY-MM-DD: valid through that day, UTC) or an ISO 8601 instant; default: it does not expire'],
    ],
    example: 'blockyard admin create-key --workspace admin --permission ADM_APIKEY_SAVE --permission ADM_APIKEY_LIST --name bootstrap',
  },
  {
    name: 'list-keys',
    synopsis: [['blockyard admin list-keys [--workspace <id>]']],
    description: 'Lists the API keys (client id, workspace, display name, permissions), one a line; never their secrets.',
    options: [['--workspace <id>', "only this workspace's keys"]],
    example: 'blockyard admin list-keys --workspace admin',
  },
  {
    name: 'delete-key',
    synopsis: [['blockyard admin delete-key <client id>']],
    description: 'Deletes an API key: its tokens are refused from then on.',
    options: [['<client id>', 'the key to delete (list-keys shows them)']],
    example: 'blockyard admin delete-key 3f0c9a52-6d1e-4a7b-9c1e-2b8f5d0e7a41',
  },
  {
    name: 'create-user',
    synopsis: [['blockyard admin create-user --username <name>', 'password read from BLOCKYARD_NEW_USER_PASSWORD']],
    description:
      'Creates an API user (HTTP Basic), with the password given in the environment so that it stays out of the shell history and the process list.',
    options: [
      ['--username <name>', 'its name (required)'],
      ['BLOCKYARD_NEW_USER_PASSWORD', "its password (required; the API's password rules apply)"],
    ],
    example: 'BLOCKYARD_NEW_USER_PASSWORD="$(cat password.txt)" blockyard admin create-user --username ci-bot',
  },
  {
    name: 'scim-token',
    synopsis: [
      [
        'blockyard admin scim-token create [--name <name>]',
        'a SCIM bearer token, printed once; while one exists SCIM provisioning is enabled',
      ],
      ['blockyard admin scim-token list'],
      ['blockyard admin scim-token delete <id>'],
    ],
    description:
      'Manages the bearer tokens of SCIM provisioning (an identity system such as Entra ID or Okta): create prints a new token once and the SCIM base URL, list shows the tokens (id, created, name), delete refuses a token at once. While a token exists SCIM provisioning is enabled.',
    options: [
      ['create | list | delete', 'what to do'],
      ['--name <name>', 'the name of a created token (default: "SCIM provisioning")'],
      ['<id>', 'the token to delete (list shows them)'],
    ],
    example: 'blockyard admin scim-token create --name entra-id',
  },
  {
    name: 'rotate-signing-key',
    synopsis: [['blockyard admin rotate-signing-key', 'a new token signing key now; the old ones are trusted until their tokens expire']],
    description:
      'Makes a new token signing key now; instances sign with it within 5 s. The retired keys are still trusted and published until the tokens they signed have expired.',
    options: [],
    example: 'blockyard admin rotate-signing-key',
  },
  {
    name: 'rotate-master-key',
    synopsis: [
      [
        'blockyard admin rotate-master-key [--batch-size <rows>]',
        're-encrypts every secret and signing key under BLOCKYARD_MASTER_KEY, opened with BLOCKYARD_PREVIOUS_MASTER_KEYS',
      ],
    ],
    description:
      'Re-encrypts every sealed value (secrets, signing keys, the keyring) under BLOCKYARD_MASTER_KEY, opening them with it or with BLOCKYARD_PREVIOUS_MASTER_KEYS. Runs beside serving instances, in transactions of --batch-size rows; running it again does nothing more.',
    options: [
      ['--batch-size <rows>', 'rows per transaction, 1 to 10000 (default 200)'],
      ['BLOCKYARD_MASTER_KEY', 'the key to seal under'],
      ['BLOCKYARD_PREVIOUS_MASTER_KEYS', 'comma-separated keys the values may still be sealed under'],
    ],
    example: 'BLOCKYARD_MASTER_KEY="$NEW" BLOCKYARD_PREVIOUS_MASTER_KEYS="$OLD" blockyard admin rotate-master-key',
  },
];

const ENVIRONMENT =
  'Every command works on the database of the server settings in the environment (BLOCKYARD_DATA_DIR or BLOCKYARD_DATABASE_URL, BLOCKYARD_MASTER_KEY), as `blockyard serve` does.';

/** Where the list puts what a command line does: beside it, or below it when the line is longer. */
const NOTE_COLUMN = 50;
const listed = ([line, note]: readonly [string, string?]) => {
  if (note === undefined) return `  ${line}`;
  return line.length < NOTE_COLUMN ? `  ${line.padEnd(NOTE_COLUMN)}  (${note})` : `  ${line}\n  ${' '.repeat(NOTE_COLUMN)}  (${note})`;
};

/** The list of the commands (`blockyard admin --help`, and after a wrong command). */
export const ADMIN_USAGE = `usage:
${ADMIN_COMMANDS.flatMap((command) => command.synopsis.map(listed)).join('\n')}
\`blockyard admin <command> --help\` shows what a command does, its options and an example.`;

function commandUsage(command: AdminCommandUsage): string {
  const width = Math.max(...command.options.map(([name]) => name.length));
  const options = command.options.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return [
    'usage:',
    ...command.synopsis.map(([line]) => `  ${line}`),
    '',
    command.description,
    ...(options.length > 0 ? ['', 'arguments and options:', ...options] : []),
    '',
    ENVIRONMENT,
    '',
    'example:',
    `  ${command.example}`,
    '',
  ].join('\n');
}

/**
 * The help asked for by `blockyard admin <command> … --help` (or `-h`, before any `--`), or undefined
 * when the arguments ask for none. An unknown command with --help is an error listing the commands.
 */
export function adminHelp(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  if (!options.includes('--help') && !options.includes('-h')) return undefined;
  const [name] = args;
  if (name === '--help' || name === '-h') return `${ADMIN_USAGE}\n`;
  const command = ADMIN_COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) throw new Error(`unknown admin command "${name ?? ''}"\n${ADMIN_USAGE}`);
  return commandUsage(command);
}
