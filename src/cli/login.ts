import { formatMediaType } from '../lib/media-types.js';
import { obtainToken, readCaFile, serverUrl, ServerClient, type Connection } from './client.js';
import { removeConfig, writeConfig, type CliConfig, type Credentials } from './config-file.js';
import { CliError } from './errors.js';

export interface LoginOptions {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  ca?: string;
  insecure?: boolean;
}

/** The meshObjects index (spec §2.3): any API user may read it, so it proves the credentials. */
const INDEX = formatMediaType('vendor', 'meshobjects', 'v2');

function credentialsOf(options: LoginOptions, env: Record<string, string | undefined>): Credentials {
  if (options.clientId !== undefined) {
    const clientSecret = options.clientSecret ?? env.BLOCKYARD_CLIENT_SECRET;
    if (!clientSecret) throw new CliError('--client-id needs --client-secret (or BLOCKYARD_CLIENT_SECRET)');
    return { clientId: options.clientId, clientSecret };
  }
  if (options.username !== undefined) {
    const password = options.password ?? env.BLOCKYARD_PASSWORD;
    if (!password) throw new CliError('--username needs --password (or BLOCKYARD_PASSWORD)');
    return { username: options.username, password };
  }
  throw new CliError('give --client-id and --client-secret (an API key) or --username and --password (an API user)');
}

/**
 * `blockyard login <url>`: checks the credentials against the server (an API key logs in, an API
 * user reads the index), then stores the server, its certificate and the credentials with mode 0600.
 * Nothing is stored when the server refuses them.
 */
export async function login(
  url: string,
  options: LoginOptions,
  configFile: string,
  out: (text: string) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  if (options.ca !== undefined && options.insecure) throw new CliError('--ca and --insecure exclude each other');
  const base = serverUrl(url);
  const ca = options.ca === undefined ? undefined : readCaFile(options.ca, '--ca');
  const connection: Connection = { base, ...(ca === undefined ? {} : { ca }), ...(options.insecure ? { insecure: true } : {}) };
  const credentials = credentialsOf(options, env);
  const config: CliConfig = {
    server: base.origin,
    ...(ca === undefined ? {} : { ca }),
    ...(options.insecure ? { insecure: true } : {}),
    credentials,
  };
  if ('clientId' in credentials) {
    config.token = await obtainToken(connection, credentials.clientId, credentials.clientSecret);
  } else {
    await new ServerClient(connection, credentials).getJson('/api/meshobjects', INDEX, 'login');
  }
  writeConfig(configFile, config);
  const who = 'clientId' in credentials ? `API key ${credentials.clientId}` : `API user ${credentials.username}`;
  out(`Logged in to ${base.origin} as ${who}; stored in ${configFile}\n`);
}

/** `blockyard logout`: forgets the stored server and credentials. */
export function logout(configFile: string, out: (text: string) => void): void {
  out(removeConfig(configFile) ? `Logged out (${configFile} removed)\n` : 'Not logged in\n');
}
