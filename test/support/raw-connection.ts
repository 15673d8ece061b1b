import { readFileSync } from 'node:fs';
import { connect as tcpConnect, type Socket } from 'node:net';
import path from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { TestServer } from './server.js';

/** Raw sockets to a test server: nothing between the test and the server retries or buffers. */
export interface RawConnection {
  socket: Socket;
  /** When the socket was ready for the request (TLS handshake done, or TCP connected). */
  openedAt: number;
  /** Everything the server sent. */
  received(): string;
  /** Resolves with the time the server's first bytes arrived (or the connection closed without any). */
  answered: Promise<number>;
  /** Resolves with the time the server closed the connection. */
  closed: Promise<number>;
}

/**
 * A raw connection to the server. `halfOpen`: like a hostile client, keep our side open when the
 * server ends its side, so only the server closing for good ends the connection.
 */
export function openRaw(server: TestServer, { tls = true, halfOpen = false } = {}): Promise<RawConnection> {
  const port = Number(new URL(server.url).port);
  const ca = readFileSync(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8');
  // Node honours allowHalfOpen for TLS too; its types do not list it.
  const tlsOptions: ConnectionOptions & { allowHalfOpen: boolean } = {
    port,
    host: '127.0.0.1',
    servername: 'localhost',
    ca,
    allowHalfOpen: halfOpen,
  };
  return new Promise((resolve, reject) => {
    let data = '';
    const socket: Socket = tls ? tlsConnect(tlsOptions, ready) : tcpConnect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen }, ready);
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now())));
    const answered = new Promise<number>((done) => {
      socket.once('data', () => done(Date.now()));
      socket.once('close', () => done(Date.now()));
    });
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.once('error', reject);
    // A safety net: no test waits for a server that never cuts.
    const safety = setTimeout(() => socket.destroy(), 15_000);
    void closed.then(() => clearTimeout(safety));
    function ready() {
      socket.removeListener('error', reject);
      socket.on('error', () => undefined); // writes after the server cut us
      resolve({ socket, openedAt: Date.now(), received: () => data, answered, closed });
    }
  });
}
