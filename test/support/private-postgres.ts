import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of one test's own (initdb into a temporary directory, its own port), so the
 * test may stop and start it without touching the server other suites share.
 */
export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

const BIN = (() => {
  try {
    const version = readdirSync('/usr/lib/postgresql').sort().at(-1);
    return version ? `/usr/lib/postgresql/${version}/bin` : undefined;
  } catch {
    return undefined;
  }
})();

/** As the `postgres` user when we are root (initdb and postgres refuse to run as root). */
function asPostgres(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const result = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

export const privatePostgresAvailable = BIN !== undefined && spawnSync('id', ['postgres']).status === 0;

export function startPrivatePostgres(): PrivatePostgres {
  const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-pg-'));
  if (process.getuid?.() === 0)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  const data = path.join(dir, 'data');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  asPostgres(`${BIN}/initdb`, ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync']);
  const pgCtl = (...args: string[]) => asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-w', '-l', path.join(dir, 'log'), ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  pgCtl('-o', options, 'start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => pgCtl('-m', 'immediate', 'stop'),
    start: () => pgCtl('-o', options, 'start'),
    destroy: () => {
      try {
        pgCtl('-m', 'immediate', 'stop');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
