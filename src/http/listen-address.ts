import { createServer } from 'node:net';
import type { Config } from '../config.js';
import { EXIT_CODES, StartFailure } from '../lib/start-failure.js';

/** An address the server listens on, and the variables that set it. */
export interface ListenAddress {
  host: string;
  port: number;
  hostVariable: string;
  portVariable: string;
}

/** The API's own address. */
export const apiAddress = (config: Pick<Config, 'host' | 'port'>): ListenAddress => ({
  host: config.host,
  port: config.port,
  hostVariable: 'BLOCKYARD_HOST',
  portVariable: 'BLOCKYARD_PORT',
});

/** The one line for an address the server cannot listen on (at the check before start, or at listen). */
export function listenFailure(error: unknown, address: ListenAddress): StartFailure | undefined {
  const fail = (message: string) => new StartFailure(EXIT_CODES.address, message, { cause: error });
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return fail(
        `${address.portVariable}: ${address.host}:${address.port} is in use by another process (another Blockyard?): stop it, or choose another port`,
      );
    case 'EACCES':
      return fail(
        `${address.portVariable}: this process may not listen on port ${address.port} (ports below 1024 need privileges): choose a port above 1023, or grant CAP_NET_BIND_SERVICE`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return fail(
        `${address.hostVariable}: ${address.host} is not an address of this machine: use one of its addresses, or 0.0.0.0 for all`,
      );
    default:
      return undefined;
  }
}

/**
 * Fails before the database is touched when the address is taken: a second server started by mistake
 * must not migrate the first one's database. (Something may still take it before the real listen;
 * that failure reads the same.)
 */
export async function assertListenable(address: ListenAddress): Promise<void> {
  if (address.port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host: address.host, port: address.port, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    throw listenFailure(error, address) ?? error;
  });
}
