import type { Config } from '../config.js';
import { EXIT_CODES, StartFailure } from '../lib/start-failure.js';

const codeOf = (error: unknown) => (error && typeof error === 'object' ? (error as { code?: string }).code : undefined);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/**
 * The one line an operator reads when the database cannot be opened at start: which server or file,
 * what went wrong, what to do. Never the URL's password (only host, port, database and user).
 */
export function databaseOpenFailure(error: unknown, config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbTimeoutMs'>): StartFailure {
  if (error instanceof StartFailure) return error;
  const fail = (message: string) => new StartFailure(EXIT_CODES.database, message, { cause: error });
  if (!config.databaseUrl) return fail(`BLOCKYARD_DATA_DIR: cannot open the SQLite database in ${config.dataDir}: ${messageOf(error)}`);
  const url = new URL(config.databaseUrl);
  const host = url.hostname || 'localhost';
  const port = url.port || '5432';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  const user = decodeURIComponent(url.username) || process.env.USER || 'the current user';
  const at = `BLOCKYARD_DATABASE_URL: PostgreSQL at ${host}:${port}`;
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return fail(`${at} refuses connections: start PostgreSQL there, or correct the host and port in the URL`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(`BLOCKYARD_DATABASE_URL: the host "${host}" is not known: correct the host in the URL`);
    case '3D000':
      return fail(
        `${at} has no database "${database}": create it (createdb -h ${host} -p ${port} -U ${user} ${database}; docs/postgresql.md) or correct the URL`,
      );
    case '28P01':
    case '28000':
      return fail(
        `${at} refused user "${user}" (${messageOf(error)}): correct the user and password in the URL, or the server's pg_hba.conf`,
      );
    case '42501':
      return fail(
        `${at}: user "${user}" may not create tables in database "${database}" (${messageOf(error)}): make it the database's owner (docs/postgresql.md)`,
      );
    case '53300':
      return fail(
        `${at} has no connection left (too many clients): raise its max_connections or lower BLOCKYARD_DB_POOL_SIZE on the instances`,
      );
    case '57014':
      return fail(
        `${at}: a statement took longer than BLOCKYARD_DB_TIMEOUT_MS (${config.dbTimeoutMs} ms) and was cancelled (${messageOf(error)}): is the database overloaded, or a table locked by another session?`,
      );
    case '57P03':
      return fail(`${at} is starting up or shutting down: start again once it accepts connections`);
  }
  if (/timeout|timed out/i.test(messageOf(error)))
    return fail(
      `${at} did not answer within BLOCKYARD_DB_TIMEOUT_MS (${config.dbTimeoutMs} ms): check that the host is reachable from here (firewall, network)`,
    );
  return fail(`${at}: ${messageOf(error)}`);
}
