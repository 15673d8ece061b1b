import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { CliError } from './errors.js';

/** An API key (client credentials at /api/login) or an API user (Basic on every request). */
export type Credentials = { clientId: string; clientSecret: string } | { username: string; password: string };

/** What `blockyard login` stores: where the server is, how to trust it, who to be, and the current token. */
export interface CliConfig {
  server: string;
  /** The PEM of the certificate (or CA) to trust, copied at login so the file it came from may move. */
  ca?: string;
  /** Do not verify the server's certificate (`login --insecure`). */
  insecure?: boolean;
  credentials: Credentials;
  /** The last access token of an API key and when it expires (ISO instant). */
  token?: { accessToken: string; expiresAt: string };
}

type Env = Record<string, string | undefined>;

/** `BLOCKYARD_CONFIG`, else `~/.config/blockyard/config.yaml` (`$XDG_CONFIG_HOME` when set). */
export function configPath(env: Env = process.env): string {
  if (env.BLOCKYARD_CONFIG) return path.resolve(env.BLOCKYARD_CONFIG);
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'blockyard', 'config.yaml');
}

/**
 * The stored configuration, or undefined when there is none. It holds secrets, so a file that others
 * may read (or write) is refused rather than used: the secret may already be out.
 */
export function readConfig(file: string): CliConfig | undefined {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((mode & 0o077) !== 0)
    throw new CliError(
      `${file} is accessible by other users (mode ${(mode & 0o777).toString(8)}); it holds credentials: run \`chmod 600 ${file}\` (and consider rotating them)`,
    );
  const config = parse(readFileSync(file, 'utf8')) as Partial<CliConfig> | null;
  if (!config || typeof config.server !== 'string' || typeof config.credentials !== 'object' || config.credentials === null) {
    throw new CliError(`${file} is not a blockyard configuration (server and credentials are missing): run blockyard login again`);
  }
  return config as CliConfig;
}

/** Writes the configuration with mode 0600 (its directory 0700), replacing the file in one step. */
export function writeConfig(file: string, config: CliConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, stringify(config), { mode: 0o600 });
  // The mode given to writeFileSync is filtered by the umask; the file must be 0600 whatever it is.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export function removeConfig(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
